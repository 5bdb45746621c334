import Scenery
import SceneryPageProtocol
import Synchronization

/// The HTML patches of updates that reach many pages the same way, planned and encoded once
/// for the whole server: when a like reaches a thousand open pages, the pages that show its
/// row alike (every signed-out page; each signed-in viewer whose own fields are the same)
/// share one ``DOMPlanner`` run and one JSON text, and each page writes its own sequence
/// number into it (``PageProtocol/EncodedPatch``).
///
/// **What is shared is exactly what a page would have made alone.** The key is the whole
/// update as the planner reads it — the subtree the page had, the new subtree and the
/// patches between them — and the planner reads nothing else (the server has one
/// renderer). A viewer's own like state, a draft, an owner's control are in the subtree,
/// so a page that shows one has a key, and a text, of its own.
///
/// The table holds at most `capacity` patches; when it is full it starts again empty (the
/// pages of one change ask for its patches together, and a change's patches are not asked
/// for again).
final class SharedPatches: Sendable {
    /// An update as the planner reads it. Hashed by the node's id and the patches (small: the
    /// changed nodes' own properties), compared whole: the pages of one change ask with
    /// equal updates, and the few other keys with the same hash (the same change to a row
    /// that another kind of viewer sees otherwise) differ in their rows.
    private struct Key: Hashable, Sendable {
        var previous: ViewNode?
        var node: ViewNode
        var patches: [ViewPatch]

        func hash(into hasher: inout Hasher) {
            hasher.combine(node.id)
            hasher.combine(patches)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.patches == b.patches && a.node == b.node && a.previous == b.previous
        }
    }

    private let table = Locked<[Key: PageProtocol.EncodedPatch]>([:])
    private let planned = Atomic<Int>(0)
    private let reused = Atomic<Int>(0)
    /// With `checksReuse`: each reuse whose patch differs from the one planned alone.
    private let differences: Locked<[String]>?

    /// What plans a patch: the server's one renderer, which the pages' whole scenes use too.
    let planner: DOMPlanner
    /// How many patches the table keeps at most.
    let capacity: Int

    /// An empty table of `planner`'s patches keeping at most `capacity` (at least one). With
    /// `checksReuse` (for tests), every reuse plans the update again alone, sends that, and
    /// notes any difference in ``reuseDifferences``.
    init(planner: DOMPlanner, capacity: Int = 512, checksReuse: Bool = false) {
        self.planner = planner
        self.capacity = max(1, capacity)
        differences = checksReuse ? Locked([]) : nil
    }

    /// The patch for `update`: one already planned for an equal update, or what the planner
    /// makes of it now (kept for the next page). Planning runs outside the table's lock, so
    /// two pages asking at once may both plan; either text is the same.
    /// - Throws: ``DOMPlanner/Mismatch`` when the update does not apply to its previous
    ///   subtree (nothing is kept; each page that gets it is sent the whole scene).
    func patch(for update: SceneUpdate) throws(DOMPlanner.Mismatch) -> PageProtocol.EncodedPatch {
        // Only changes of nodes' own properties (a like's count and button: what a change
        // sends to many pages at once) are kept; a change of structure carries whole
        // elements, which would cost more to compare than to plan.
        guard update.patches.allSatisfy(Self.changesPropertiesOnly) else { return try planAlone(update) }
        let key = Key(previous: update.previous, node: update.node, patches: update.patches)
        if let patch = table.withLock({ $0[key] }) {
            reused.add(1, ordering: .relaxed)
            guard let differences else { return patch }
            let alone = try planAlone(update)
            if alone != patch { differences.withLock { $0.append("\(update.node.id): \(patch.text(sequence: 0)) for \(alone.text(sequence: 0))") } }
            return alone
        }
        let patch = try planAlone(update)
        planned.add(1, ordering: .relaxed)
        table.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = patch
        }
        return patch
    }

    /// The patch as a page alone would plan and encode it.
    private func planAlone(_ update: SceneUpdate) throws(DOMPlanner.Mismatch) -> PageProtocol.EncodedPatch {
        PageProtocol.EncodedPatch(try planner.operations(for: update))
    }

    private static func changesPropertiesOnly(_ patch: ViewPatch) -> Bool {
        if case .update = patch { true } else { false }
    }

    /// With `checksReuse`: each reuse whose shared patch was not the one the page planned
    /// alone (the key missed something the planner reads): which node, shared for alone.
    var reuseDifferences: [String] { differences?.withLock { $0 } ?? [] }

    /// How many patches were planned, and how many times one was reused for another page.
    var counts: (planned: Int, reused: Int) {
        (planned.load(ordering: .relaxed), reused.load(ordering: .relaxed))
    }
}
