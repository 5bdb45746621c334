import Scenery

/// Checks that a module showing live data never leaves an older read on screen over newer
/// data: the race a hand-written "fetch when it changed" has, and a `LiveQuery` rules out.
///
/// The check makes the module over services whose reads pass a ``ReadGate``, loads it,
/// shows it (`appear()`), and plays two stories. Each ends when the module shows what a
/// page made afresh shows; what it shows otherwise is a problem, said with what to do.
///
/// 1. **A change while the fetch is away.** Someone else changes what the module shows;
///    the module's fetch reads, and its answer is held; someone else changes it again; the
///    answer returns.
/// 2. **A read that returns after the write.** Someone else changes what the module shows;
///    the module's fetch reads, and its answer is held; the viewer's own action (`action`)
///    writes; then the answer, older than the write, returns.
///
/// ```swift
/// let gate = ReadGate()
/// let toggle = TaskListModule.toggle.event(.init(task: 1), from: "task.1.toggle")
/// let check = LiveModuleCheck(reads: gate, viewer: "ann", action: toggle) { context in
///     try TaskListModule(parameters: parameters, context: context, board: GatedBoard(board: store, gate: gate))
/// } changeBySomeoneElse: {
///     _ = try await store.add(task: "Water the plants", to: "ann", by: "ann")
/// }
/// #expect(await check.problems() == [])
/// ```
public struct LiveModuleCheck<M: Module>: Sendable {
    private let reads: ReadGate
    private let viewer: String?
    private let action: Event
    private let make: @Sendable (ModuleContext) throws -> M
    private let changeBySomeoneElse: @Sendable () async throws -> Void
    private let timeout: Duration

    /// A check of the module `make` builds (over services whose reads pass `reads`, and the
    /// store's change feed), seen by `viewer`.
    ///
    /// - Parameters:
    ///   - reads: The gate the module's reads pass; the check holds one read's answer back.
    ///   - viewer: Who is looking, `nil` when signed out.
    ///   - action: An event the viewer sends that the module writes (handled in
    ///     `handle(_:)` or, passed on, in `perform(_:)`), changing what it shows.
    ///   - timeout: How long a story may take to settle before what the module shows is
    ///     taken as its answer.
    ///   - make: Makes the module with the context given (once per story, and once more for
    ///     the page made afresh that each story ends compared with).
    ///   - changeBySomeoneElse: A write by another viewer or process that changes what the
    ///     module shows and is published to the feed; called twice in the first story.
    public init(
        reads: ReadGate, viewer: String?, action: Event, timeout: Duration = .seconds(60),
        make: @escaping @Sendable (ModuleContext) throws -> M, changeBySomeoneElse: @escaping @Sendable () async throws -> Void
    ) {
        self.reads = reads
        self.viewer = viewer
        self.action = action
        self.timeout = timeout
        self.make = make
        self.changeBySomeoneElse = changeBySomeoneElse
    }

    /// What the module shows wrong, one line per story that went wrong (empty when none).
    public func problems() async -> [String] {
        var problems: [String] = []
        let stories: [(name: String, meanwhile: @Sendable (M) async throws -> Void, fix: String)] = [
            (
                "A change while the fetch is away", { _ in try await changeBySomeoneElse() },
                "Handle changes one at a time, and never drop one that arrives during a fetch."
            ),
            (
                "A read that returns after the module's own write", { module in try await perform(action, on: module) },
                "Fetch again when what it shows changed while the fetch was away (a LiveQuery does), or hold changes while a write is in flight."
            ),
        ]
        for story in stories {
            do {
                if let problem = try await play(story.meanwhile) { problems.append("\(story.name): \(problem) \(story.fix)") }
            } catch {
                problems.append("\(story.name): the story could not be played: \(error)")
            }
        }
        return problems
    }

    /// Plays one story; what the module shows wrong at its end, if anything.
    private func play(_ meanwhile: @Sendable (M) async throws -> Void) async throws -> String? {
        let renders = AwaitableLog<Int>()
        let context = ModuleContext(id: "module", viewer: viewer) { _ in renders.append(1) }
        let module = try make(context)
        try await module.load(.initial)
        await module.appear()
        defer { reads.release() }
        reads.holdNextRead()
        try await changeBySomeoneElse()
        guard await reads.waitUntilHolding(timeout: timeout) else {
            await module.disappear()
            return "the module did not fetch after a change to what it shows; follow it in appear()."
        }
        try await meanwhile(module)
        let rendersBefore = renders.elements.count
        reads.release()
        // The late answer is applied (and rendered) or dropped; then the module catches up.
        _ = await renders.wait(timeout: timeout) { $0.count > rendersBefore }
        let expected = try await freshRender()
        let caughtUp = await waitUntil(module, shows: expected, renders: renders)
        await module.disappear()
        if caughtUp { return nil }
        let shown = await module.render().visibleTexts
        return "it shows \(shown) where a page made now shows \(expected.visibleTexts)."
    }

    /// What a page made now shows.
    private func freshRender() async throws -> ViewNode {
        let module = try make(ModuleContext(id: "module", viewer: viewer))
        try await module.load(.initial)
        return await module.render()
    }

    /// Whether `module` comes to show `expected` within the timeout, checked at each render.
    private func waitUntil(_ module: M, shows expected: ViewNode, renders: AwaitableLog<Int>) async -> Bool {
        var seen = -1
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if await module.render() == expected { return true }
            let count = renders.elements.count
            if count == seen {
                let left = deadline - clock.now
                guard left > .zero, await renders.wait(timeout: left, until: { $0.count > count }) else { break }
            }
            seen = count
        }
        return await module.render() == expected
    }

    /// Sends `event` as the scene would: `handle(_:)` first; passed on, `perform(_:)` when the
    /// module performs it.
    private func perform(_ event: Event, on module: M) async throws {
        // As a host: the event is the viewer's action (`WriteContext.isBound`).
        try await ActionKey.run(as: nil) {
            guard await module.handle(event) == .pass, M.descriptor.defaultActions.contains(event.name) else { return }
            try await module.perform(event)
        }
    }
}
