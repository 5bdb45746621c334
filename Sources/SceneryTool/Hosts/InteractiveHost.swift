import Foundation
import Scenery
import Synchronization

/// The host of one scene in an interactive session: keeps a copy of the scene's tree and
/// applies every update to it through `SceneMirror` (as any real host does), asks
/// confirmations on the terminal as `Unfollow Alice? [y/N]` (or as a JSON line), reading the
/// answer from the same input as commands, and keeps the updates for printing.
final class InteractiveHost: SceneHost, Sendable {
    private struct State {
        var mirror = SceneMirror()
        var unprinted: [SceneUpdate] = []
        /// The scene's recent events with their times and patches, and the updates between
        /// them (`trace`).
        var trace = PageTrace()
    }

    let input: LineReader
    let json: Bool
    private let state = Locked(State())

    init(input: LineReader, json: Bool) {
        self.input = input
        self.json = json
    }

    /// Takes the scene's baseline as this host's copy, then the updates that arrived
    /// meanwhile. Returns the tree and its sequence number.
    func attach(to scene: SceneInstance) async -> (tree: ViewNode, sequence: Int) {
        state.withLock { $0.mirror.prepareToAttach() }
        let baseline = await scene.takeBaseline()
        return state.withLock { state in
            var applied: [SceneUpdate] = []
            state.mirror.attach(baseline) { applied.append($0) }
            state.unprinted += applied
            return (state.mirror.tree ?? baseline.node, state.mirror.sequence)
        }
    }

    /// The host's copy of the tree.
    var tree: ViewNode? { state.withLock { $0.mirror.tree } }

    /// Whether updates (or a needed resync) wait to be printed.
    var hasUnprintedChanges: Bool { state.withLock { !$0.unprinted.isEmpty || $0.mirror.needsBaseline } }

    /// Whether an update was missed or did not apply: take the whole tree again.
    var needsResync: Bool { state.withLock { $0.mirror.needsBaseline } }

    /// The updates applied since the last call, in order.
    func takeUpdates() -> [SceneUpdate] {
        state.withLock { state in
            defer { state.unprinted = [] }
            return state.unprinted
        }
    }

    /// Keeps the update for printing and wakes the command loop, which prints what changed
    /// while it waits for input (another viewer's like, another process's import).
    func sceneDidUpdate(_ update: SceneUpdate) async {
        state.withLock { state in
            guard state.mirror.receive(update) == .applied else { return }
            state.unprinted.append(update)
            state.trace.record(.init(module: update.module, node: update.node.id, operations: update.patches.count, bytes: nil), at: .now)
        }
        input.wake()
    }

    /// An event starts: the updates until ``endEvent(_:)`` are its.
    func beginEvent() {
        state.withLock { $0.trace.beginEvent(at: .now) }
    }

    /// The event ended as `outcome`.
    func endEvent(_ outcome: EventOutcome) {
        state.withLock { $0.trace.endEvent(outcome.traceDescription, at: .now) }
    }

    /// The trace's lines, oldest first: each event's route, rule, µs and patches, and the
    /// updates between events.
    var traceLines: [String] { state.withLock { $0.trace.lines } }

    func confirm(_ confirmation: Confirmation) async -> Bool {
        if json {
            StreamLine.write([
                "type": "confirm", "title": .string(confirmation.title), "message": confirmation.message.map(JSONValue.string) ?? .null,
                "confirm": .string(confirmation.confirmLabel), "cancel": .string(confirmation.cancelLabel),
            ])
            guard let answer = await input.next() else { return false }
            return ["y", "yes", "true"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        }
        if let message = confirmation.message { Output.line(TerminalText.sanitized(message)) }
        Output.write("\(TerminalText.sanitized(confirmation.title)) [y/N] ")
        guard let answer = await input.next() else {
            Output.line()
            return false
        }
        let accepted = ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        Output.line(accepted ? "→ \(TerminalText.sanitized(confirmation.confirmLabel))" : "→ \(TerminalText.sanitized(confirmation.cancelLabel))")
        return accepted
    }

    func navigate(to intent: NavigationIntent) async {}
}
