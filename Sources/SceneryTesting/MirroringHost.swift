import Foundation
import Scenery

/// A `SceneHost` that keeps its own copy of the scene's tree and applies every update's
/// patches to it, as a real host does, checking the update stream on the way.
///
/// Use it to prove that what a module sends a host adds up: after any sequence of
/// changes, the mirrored ``tree`` must equal a fresh rendering, and ``problems`` must be
/// empty.
///
/// ```swift
/// let host = MirroringHost()
/// let scene = try await registry.assemble("profile", for: context, host: host)
/// await host.attach(to: scene)          // takes a snapshot; updates apply from here on
/// await scene.send(Event("blog.like", from: "blogs/blog.7/like"))
/// #expect(host.problems.isEmpty)
/// #expect(host.tree == (await scene.render()))
/// ```
///
/// It checks that sequence numbers follow one another without gaps and that every patch
/// list applies (`PatchableTree`). Updates that arrive before ``attach(to:)`` returns are
/// kept and applied after the snapshot, as a host that opens a live connection first and
/// asks for the tree second must do.
public final class MirroringHost: SceneHost, Sendable {
    private struct State {
        var tree: PatchableTree?
        var sequence = 0
        /// Whether a snapshot is on its way (attaches run one at a time), and the updates that
        /// arrived meanwhile (applied on top of the snapshot when it comes in).
        var isAttaching = false
        var recorded: [SceneUpdate] = []
        var problems: [String] = []
        var applied: [SceneUpdate] = []
    }

    /// `NSLock` rather than `Mutex`: the thread sanitizer sees its ordering.
    private let lock = NSLock()
    private nonisolated(unsafe) var _state = State()

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&_state)
    }
    /// Answers confirmations and remembers them.
    public let confirmer: ScriptedConfirmer

    /// Creates a host whose confirmations are answered by `confirmer`.
    public init(confirmer: ScriptedConfirmer = .decliningAll) {
        self.confirmer = confirmer
    }

    /// Takes the scene's tree as this host's copy (also to resynchronise), then applies
    /// the updates that arrived meanwhile and are newer than it. Attaches run one at a time,
    /// as a host must: a snapshot makes the scene drop the updates it includes, so an older
    /// snapshot taken in after a newer one could not be caught up.
    public func attach(to scene: SceneInstance) async {
        await attaches.run { await self.attachNow(to: scene) }
    }

    private let attaches = Serializer()

    private func attachNow(to scene: SceneInstance) async {
        withState { $0.isAttaching = true }
        let snapshot = await scene.snapshot()
        withState { state in
            state.tree = PatchableTree(snapshot.node)
            state.sequence = snapshot.sequence
            for update in state.recorded { Self.apply(update, to: &state) }
            state.isAttaching = false
            state.recorded = []
        }
    }

    public func confirm(_ confirmation: Confirmation) async -> Bool {
        confirmer.answer(confirmation)
    }

    public func navigate(to intent: NavigationIntent) async {}

    public func sceneDidUpdate(_ update: SceneUpdate) async {
        withState { state in
            // While a snapshot is on its way, updates wait for it (the scene may already have
            // dropped older ones that the current copy would need).
            if state.isAttaching {
                state.recorded.append(update)
            } else {
                Self.apply(update, to: &state)
            }
        }
    }

    private static func apply(_ update: SceneUpdate, to state: inout State) {
        guard let tree = state.tree, update.sequence > state.sequence else { return }  // none yet, or already in the snapshot
        guard update.sequence == state.sequence + 1 else {
            state.problems.append("Update \(update.sequence) arrived after \(state.sequence): \(update.sequence - state.sequence - 1) missing.")
            state.sequence = update.sequence
            return
        }
        state.sequence = update.sequence
        do {
            try tree.apply(update.patches)
            state.applied.append(update)
        } catch {
            state.problems.append("Update \(update.sequence) (\(update.node.id)) did not apply: \(error)")
        }
    }

    /// The host's copy of the tree, or `nil` before ``attach(to:)``.
    public var tree: ViewNode? { withState { $0.tree?.root } }

    /// The last update applied (or taken in with a snapshot).
    public var sequence: Int { withState { $0.sequence } }

    /// How many updates were applied since the host was created.
    public var appliedUpdates: Int { withState { $0.applied.count } }

    /// The updates applied since the host was created, in order.
    public var updates: [SceneUpdate] { withState { $0.applied } }

    /// Everything that went wrong, in order: gaps in the sequence, patches that did not apply.
    public var problems: [String] { withState { $0.problems } }
}

/// Runs async work one piece after another, in the order asked.
private actor Serializer {
    private var last: Task<Void, Never>?

    func run(_ work: @escaping @Sendable () async -> Void) async {
        let previous = last
        let task = Task {
            await previous?.value
            await work()
        }
        last = task
        await task.value
    }
}
