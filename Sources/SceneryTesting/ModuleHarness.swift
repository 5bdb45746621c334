import Scenery
import Synchronization

/// Drives one module alone, as its scene would, and makes a test account for everything
/// the module does — every update of its tree and every event it sends up — in order.
///
/// The harness is exhaustive, as TCA's `TestStore` is: a load, a send or a tap whose tree
/// changed must describe the new tree; each update the module announced along the way
/// (`ModuleContext/setNeedsRender()`) must be taken with ``receiveUpdate(timeout:_:)``
/// and each event it passed on with ``receiveEvent(_:timeout:_:)``; and ``finish()`` fails
/// if anything was left unaccounted for. Each failure is an ``ExpectationFailure`` that says
/// what happened and what the tree is.
///
/// ```swift
/// let harness = try ModuleHarness(RecycleBinModule.self, parameters: ["owner": "1"], viewer: "1") {
///     try RecycleBinModule(parameters: $0, context: $1, bin: bin)
/// }
/// try await harness.load { try RenderExpectation.shows("Draft of March").verify($0) }
/// try await harness.tap("row.7.restore") { try RenderExpectation.hides("Draft of March").verify($0) }
/// try await harness.receiveEvent("bin.restore") { #expect($0.payload["blog"] == 7) }
/// try await harness.receiveUpdate { _ in }  // the module's setNeedsRender() after restoring
/// try harness.finish()  // fails on anything left unaccounted for
/// ```
public final class ModuleHarness<M: Module>: Sendable {
    /// The module under test.
    public let module: M
    /// The module's id, as the context gave it.
    public let id: ModuleID
    private let effects: EffectLog
    /// Who may take each owner-only action (see `ModuleDescriptor.ownerOnlyActions`), and
    /// who is looking: the harness refuses such an action as the router does.
    private let actionOwners: [String: (parameter: String, owner: String?)]
    private let viewer: String?
    private let lastTree: Locked<ViewNode?> = Locked(nil)
    /// What the test typed, by field id, since the field's form was last submitted (see
    /// ``type(_:into:)``).
    let typed: Locked<[NodeID: String]> = Locked([:])
    /// The page the harness stands for: loads and events run on its behalf, as a scene runs
    /// them (`WriteContext.isBound`), so the module's writes are bound as on a page.
    private let page = ChangeSource()

    /// Makes the module from parameters, with the defaults of its descriptor filled in.
    ///
    /// - Parameters:
    ///   - type: The module type; its `Module/descriptor` checks and completes `parameters`.
    ///   - parameters: The values a scene file would give.
    ///   - viewer: Who is looking, `nil` when signed out.
    ///   - id: The module's id in its (imagined) scene.
    ///   - make: The factory, as registered with `SceneRegistry.register(_:factory:)`.
    /// - Throws: `ParameterError` if the parameters do not fit the descriptor, or what `make` throws.
    public init(
        _ type: M.Type, parameters: [String: JSONValue] = [:], viewer: String? = nil, id: ModuleID = "module",
        make: (ModuleParameters, ModuleContext) throws -> M
    ) throws {
        let effects = EffectLog()
        let holder = ModuleHolder<M>()
        let context = ModuleContext(id: id, viewer: viewer) { _ in
            guard let module = holder.module else { return }
            effects.append(HarnessEffect.update(await module.render()))
        }
        let checked = try ModuleParameters(for: M.descriptor, parameters)
        let module = try make(checked, context)
        actionOwners = M.descriptor.ownerOnlyActions.mapValues { parameter in
            (parameter, checked[parameter].flatMap { $0.stringValue ?? $0.intValue.map(String.init) })
        }
        self.viewer = viewer
        holder.module = module
        self.module = module
        self.id = id
        self.effects = effects
    }

    /// The module's tree now.
    public func render() async -> ViewNode {
        await module.render()
    }

    /// Loads, as the runtime does for a first load, a refresh or the next page, and checks the
    /// tree after it.
    ///
    /// - Parameters:
    ///   - request: The first load, a refresh, or the next page.
    ///   - assert: Checks the new tree; needed when the tree changed (throw to fail).
    /// - Throws: What the load throws (the runtime would show the module's error block), or
    ///   ``ExpectationFailure`` for an effect left unaccounted for before it, or a changed
    ///   tree with no `assert`.
    public func load(_ request: LoadRequest = .initial, _ assert: ((ViewNode) throws -> Void)? = nil) async throws {
        try checkNothingPending(before: "load(.\(request.rawValue))")
        let module = module
        try await WriteContext.current.onPage(page).run { try await module.load(request) }
        try await checkTree(after: "load(.\(request.rawValue))", assert)
    }

    /// Sends an event from one of the module's nodes, as a host does on a tap.
    ///
    /// The module's `Module/handle(_:)` decides; an event it passes on (or transforms) is
    /// recorded as sent up — take it with ``receiveEvent(_:timeout:_:)`` — and, when
    /// `letThrough` (no scene rule stops it), its `Module/perform(_:)` runs. A question the
    /// module asks is recorded too and answered with `confirming`.
    /// - Returns: What the module decided.
    @discardableResult
    public func send(
        _ event: Event, letThrough: Bool = true, confirming: Bool = true, _ assert: ((ViewNode) throws -> Void)? = nil
    ) async throws -> EventDisposition {
        try checkNothingPending(before: "sending '\(event.name)'")
        let module = module
        let onPage = WriteContext.current.onPage(page)
        let disposition = await onPage.run { await module.handle(event) }
        var up: Event?
        switch disposition {
        case .handled: break
        case .pass: up = event
        case .transform(let other): up = other
        case .confirm(let confirmation):
            effects.append(.confirmation(confirmation, event))
            up = confirming ? event : nil
        }
        if let up {
            effects.append(.event(up))
            if letThrough, let owner = actionOwners[up.name], owner.owner == nil || owner.owner != viewer {
                effects.append(.refusal("only the user named by '\(owner.parameter)' may take this action", up))
            } else if letThrough {
                do {
                    try await onPage.run { try await module.perform(up) }
                } catch {
                    effects.append(.failure(SceneryError.message(for: error), up))
                }
            }
        }
        try await checkTree(after: "sending '\(event.name)'", assert)
        return disposition
    }

    /// Activates the control with this (module-local) id in the current tree, as a person
    /// does, and sends its event (see ``send(_:letThrough:confirming:_:)``).
    /// - Throws: ``ExpectationFailure`` if the tree has no such control.
    @discardableResult
    public func tap(
        _ control: NodeID, letThrough: Bool = true, confirming: Bool = true, _ assert: ((ViewNode) throws -> Void)? = nil
    ) async throws -> EventDisposition {
        let action = try await module.render().actionToTap(control)
        return try await send(action.event, letThrough: letThrough, confirming: confirming, assert)
    }

    /// Takes the module's oldest update not yet accounted for, waiting for it up to `timeout`
    /// (a module may announce it from a task of its own), and checks its tree.
    /// - Throws: ``ExpectationFailure`` if none comes, or the oldest effect is not an update.
    public func receiveUpdate(timeout: Duration = .seconds(2), _ assert: (ViewNode) throws -> Void) async throws {
        let effect = try await effects.next(within: timeout, waitingFor: "an update")
        guard case .update(let tree) = effect else {
            throw ExpectationFailure("Expected an update of the tree, but the module's next effect was \(effect.description)")
        }
        try assert(tree)
        lastTree.withLock { $0 = tree }
    }

    /// Takes the oldest event the module sent up and not yet accounted for, checks its name,
    /// and hands it to `assert` for its payload.
    /// - Throws: ``ExpectationFailure`` if none comes within `timeout`, or the oldest effect
    ///   is something else.
    public func receiveEvent(_ name: String, timeout: Duration = .seconds(2), _ assert: (Event) throws -> Void = { _ in }) async throws {
        let effect = try await effects.next(within: timeout, waitingFor: "the event '\(name)'")
        guard case .event(let event) = effect, event.name == name else {
            throw ExpectationFailure("Expected the event '\(name)' sent up, but the module's next effect was \(effect.description)")
        }
        try assert(event)
    }

    /// Takes the oldest failure of the module's default action (its `Module/perform(_:)`
    /// threw) and hands its message to `assert`.
    /// - Throws: ``ExpectationFailure`` if none comes, or the oldest effect is not a failure.
    public func receiveFailure(timeout: Duration = .seconds(2), _ assert: (String) throws -> Void = { _ in }) async throws {
        let effect = try await effects.next(within: timeout, waitingFor: "a failed action")
        guard case .failure(let reason, _) = effect else {
            throw ExpectationFailure("Expected a failed action, but the module's next effect was \(effect.description)")
        }
        try assert(reason)
    }

    /// Takes the oldest owner-only action the harness refused, as the router does, because
    /// the viewer is not its owner (`ModuleDescriptor.ownerOnlyActions`); `perform` did not run.
    /// - Throws: ``ExpectationFailure`` if none comes, or the oldest effect is not a refusal.
    public func receiveRefusal(timeout: Duration = .seconds(2), _ assert: (String) throws -> Void = { _ in }) async throws {
        let effect = try await effects.next(within: timeout, waitingFor: "a refused action")
        guard case .refusal(let reason, _) = effect else {
            throw ExpectationFailure("Expected a refused action, but the module's next effect was \(effect.description)")
        }
        try assert(reason)
    }

    /// Takes the oldest question the module asked (`EventDisposition/confirm(_:)`) and
    /// hands it to `assert`.
    public func receiveConfirmation(timeout: Duration = .seconds(2), _ assert: (Confirmation) throws -> Void = { _ in }) async throws {
        let effect = try await effects.next(within: timeout, waitingFor: "a question")
        guard case .confirmation(let confirmation, _) = effect else {
            throw ExpectationFailure("Expected a question, but the module's next effect was \(effect.description)")
        }
        try assert(confirmation)
    }

    /// Ends the test: fails if the module did anything the test did not account for.
    public func finish() throws {
        try checkNothingPending(before: "finish()")
    }

    private func checkNothingPending(before step: String) throws {
        let pending = effects.drain()
        guard !pending.isEmpty else { return }
        throw ExpectationFailure(
            "Before \(step), the module did \(pending.count) thing(s) the test did not account for (take each with receiveUpdate, receiveEvent or receiveConfirmation):\n"
                + pending.map { "  - \($0.description)" }.joined(separator: "\n"))
    }

    private func checkTree(after step: String, _ assert: ((ViewNode) throws -> Void)?) async throws {
        let tree = await module.render()
        let previous = lastTree.withLock { last in
            defer { last = tree }
            return last
        }
        if let assert {
            try assert(tree)
        } else if tree != previous {
            throw ExpectationFailure(
                "After \(step), the module's tree changed, and the test did not describe it; pass a closure that checks the new tree:\n\(TextRenderer().render(tree))"
            )
        }
    }
}

/// Lets the context's callback reach the module made after it.
private final class ModuleHolder<M: Module>: Sendable {
    private let stored = Locked<M?>(nil)
    var module: M? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// What a module did that the test has not yet accounted for.
enum HarnessEffect: Sendable {
    case update(ViewNode)
    case event(Event)
    case confirmation(Confirmation, Event)
    case failure(String, Event)
    case refusal(String, Event)

    var description: String {
        switch self {
        case .update(let tree): "an update of the tree:\n\(TextRenderer().render(tree))"
        case .event(let event): "the event '\(event.name)' \(event.payload.isEmpty ? "" : "with \(event.payload) ")sent up"
        case .confirmation(let confirmation, let event): "a question '\(confirmation.title)' before '\(event.name)'"
        case .failure(let reason, let event): "the action of '\(event.name)' failed: \(reason)"
        case .refusal(let reason, let event): "'\(event.name)' refused: \(reason)"
        }
    }
}

/// The effects a module had, in order, for ``ModuleHarness``.
final class EffectLog: Sendable {
    private let effects = Locked<[HarnessEffect]>([])

    func append(_ effect: HarnessEffect) {
        effects.withLock { $0.append(effect) }
    }

    /// Removes and returns everything recorded.
    func drain() -> [HarnessEffect] {
        effects.withLock { all in
            defer { all = [] }
            return all
        }
    }

    /// The oldest effect, waiting for one up to `timeout`.
    func next(within timeout: Duration, waitingFor what: String) async throws -> HarnessEffect {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let first = effects.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let first { return first }
            guard clock.now < deadline else {
                throw ExpectationFailure("Expected \(what), but the module did nothing more within \(timeout).")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
