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
/// await host.attach(to: scene)          // takes a baseline; updates apply from here on
/// await scene.send(Event("blog.like", from: "blogs/blog.7/like"))
/// #expect(host.problems.isEmpty)
/// #expect(host.tree == (await scene.render()))
/// ```
///
/// It consumes the stream through `SceneMirror`, as every host does: sequence numbers
/// must follow one another without gaps and every patch list must apply. Updates that
/// arrive before ``attach(to:)`` returns are kept and applied after the baseline, as a host
/// that opens a live connection first and asks for the tree second must do.
public final class MirroringHost: SceneHost, Sendable {
    private struct State {
        var mirror = SceneMirror()
        var problems: [String] = []
        var applied: [SceneUpdate] = []

        /// Notes what became of updates: applied ones in order, problems in words.
        mutating func note(_ outcome: SceneMirror.Outcome, of update: SceneUpdate?) {
            switch outcome {
            case .applied: if let update { applied.append(update) }
            case .alreadyApplied, .held: break
            case .needsBaseline(let reason): if problems.last != reason { problems.append(reason) }
            }
        }
    }

    private let state = Locked(State())

    private func withState<T>(_ body: (inout State) -> T) -> T {
        state.withLock(body)
    }
    /// Answers confirmations and remembers them.
    public let confirmer: ScriptedConfirmer

    /// Creates a host whose confirmations are answered by `confirmer`.
    public init(confirmer: ScriptedConfirmer = .decliningAll) {
        self.confirmer = confirmer
    }

    /// Takes the scene's baseline as this host's copy (also to resynchronise), then applies
    /// the updates that arrived meanwhile and are newer than it. Attaches run one at a time,
    /// as a host must: a baseline makes the scene drop the updates it includes, so an older
    /// baseline taken in after a newer one could not be caught up.
    public func attach(to scene: SceneInstance) async {
        await attaches.run { await self.attachNow(to: scene) }
    }

    private let attaches = Serializer()

    private func attachNow(to scene: SceneInstance) async {
        withState { $0.mirror.prepareToAttach() }
        let baseline = await scene.takeBaseline()
        withState { state in
            var appliedNow: [SceneUpdate] = []
            let outcome = state.mirror.attach(baseline) { appliedNow.append($0) }
            state.applied += appliedNow
            state.note(outcome, of: nil)
        }
    }

    public func confirm(_ confirmation: Confirmation) async -> Bool {
        confirmer.answer(confirmation)
    }

    public func navigate(to intent: NavigationIntent) async {}

    public func sceneDidUpdate(_ update: SceneUpdate) async {
        withState { state in
            let outcome = state.mirror.receive(update)
            state.note(outcome, of: update)
        }
    }

    /// The host's copy of the tree, or `nil` before ``attach(to:)``.
    public var tree: ViewNode? { withState { $0.mirror.tree } }

    /// The last update applied (or taken in with a baseline).
    public var sequence: Int { withState { $0.mirror.sequence } }

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
