import Foundation
import Scenery
import Synchronization

/// The host of one scene in an interactive session: keeps a copy of the scene's tree and
/// applies every update to it (as any real host does), asks confirmations on the
/// terminal as `Unfollow Alice? [y/N]` (or as a JSON line), reading the answer from the
/// same input as commands, and keeps the updates for printing.
final class InteractiveHost: SceneHost, Sendable {
    private struct Mirror {
        var tree: PatchableTree?
        var sequence = 0
        var early: [SceneUpdate] = []
        var unprinted: [SceneUpdate] = []
        var needsResync = false
    }

    let input: LineReader
    let json: Bool
    private let mirror = Mutex(Mirror())

    init(input: LineReader, json: Bool) {
        self.input = input
        self.json = json
    }

    /// Takes the scene's whole tree as this host's copy, then the updates that arrived
    /// meanwhile. Returns the tree and its sequence number.
    func attach(to scene: SceneInstance) async -> (tree: ViewNode, sequence: Int) {
        mirror.withLock { $0 = Mirror() }
        let snapshot = await scene.snapshot()
        return mirror.withLock { mirror in
            mirror.tree = PatchableTree(snapshot.node)
            mirror.sequence = snapshot.sequence
            let early = mirror.early
            mirror.early = []
            for update in early { Self.apply(update, to: &mirror) }
            return (mirror.tree?.root ?? snapshot.node, snapshot.sequence)
        }
    }

    /// The host's copy of the tree.
    var tree: ViewNode? { mirror.withLock { $0.tree?.root } }

    /// Whether updates (or a needed resync) wait to be printed.
    var hasUnprintedChanges: Bool { mirror.withLock { !$0.unprinted.isEmpty || $0.needsResync } }

    /// Whether an update was missed or did not apply: take the whole tree again.
    var needsResync: Bool { mirror.withLock { $0.needsResync } }

    /// The updates applied since the last call, in order.
    func takeUpdates() -> [SceneUpdate] {
        mirror.withLock { mirror in
            defer { mirror.unprinted = [] }
            return mirror.unprinted
        }
    }

    /// Keeps the update for printing and wakes the command loop, which prints what changed
    /// while it waits for input (another viewer's like, another process's import).
    func sceneDidUpdate(_ update: SceneUpdate) async {
        mirror.withLock { mirror in
            if mirror.tree == nil { mirror.early.append(update) } else { Self.apply(update, to: &mirror) }
        }
        input.wake()
    }

    private static func apply(_ update: SceneUpdate, to mirror: inout Mirror) {
        guard let tree = mirror.tree, update.sequence > mirror.sequence else { return }
        guard update.sequence == mirror.sequence + 1, (try? tree.apply(update.patches)) != nil else {
            mirror.needsResync = true
            return
        }
        mirror.sequence = update.sequence
        mirror.unprinted.append(update)
    }

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
