import SceneryTesting
import Testing

@testable import Scenery

/// The consumer side of the update stream, once for every host: a baseline, updates held
/// while it is on its way, those it includes dropped, the rest applied in order, and a new
/// baseline asked for when one is missing or does not apply.
@Suite struct SceneMirrorTests {
    /// A one-row list whose row says `text`.
    static func tree(_ text: String, rows: Int = 1) -> ViewNode {
        .stack("scene", [.list("list", sections: [.init(id: "all", rows: (0..<rows).map { .text(NodeID("row.\($0)"), "\(text) \($0)") })])])
    }

    /// The update that takes `old` to `new`, numbered `sequence`.
    static func update(_ old: ViewNode, _ new: ViewNode, sequence: Int) -> SceneUpdate {
        SceneUpdate(node: new, module: nil, patches: ViewTreeDiff(from: old, to: new).patches, sequence: sequence)
    }

    let a = tree("a")
    let b = tree("b")
    let c = tree("c")

    @Test func updatesBeforeTheFirstBaselineAreHeldAndTheNewerOnesAppliedOnTopOfIt() {
        var mirror = SceneMirror()
        #expect(mirror.receive(Self.update(a, b, sequence: 1)) == .held)
        #expect(mirror.receive(Self.update(b, c, sequence: 2)) == .held)
        #expect(!mirror.isAttached)
        // The baseline already includes update 1; update 2 is applied on top of it.
        #expect(mirror.attach(SceneSnapshot(node: b, sequence: 1)) == .applied)
        #expect(mirror.tree == c)
        #expect(mirror.sequence == 2)
        #expect(!mirror.isAttaching)
    }

    @Test func updatesFromTheWireFollowTheSameRulesAsASceneUpdates() {
        var mirror = SceneMirror()
        let ab = ViewTreeDiff(from: a, to: b).patches
        let bc = ViewTreeDiff(from: b, to: c).patches
        // Held before the tree, applied after it in order; one the tree includes is dropped.
        #expect(mirror.receive(sequence: 5, patches: ab) == .held)
        #expect(mirror.receive(sequence: 6, patches: bc) == .held)
        #expect(mirror.attach(tree: b, sequence: 5) == .applied)
        #expect(mirror.tree == c)
        #expect(mirror.sequence == 6)
        #expect(mirror.receive(sequence: 6, patches: bc) == .alreadyApplied)
        // A gap, and patches that do not fit, ask for the whole tree.
        #expect(mirror.receive(sequence: 8, patches: ab) == .needsBaseline(reason: "Update 8 arrived after 6: 1 missing."))
        mirror.attach(tree: a, sequence: 10)
        // Rows 1 and 2 removed: the copy has no such rows.
        let misfit = mirror.receive(sequence: 11, patches: ViewTreeDiff(from: Self.tree("a", rows: 3), to: a).patches)
        guard case .needsBaseline(let reason) = misfit else {
            Issue.record("patches for another tree applied: \(misfit)")
            return
        }
        #expect(reason.hasPrefix("Update 11 did not apply"))
        #expect(mirror.tree == a, "the copy is left as it was")
    }

    @Test func anUpdateTheBaselineIncludesIsAlreadyApplied() {
        var mirror = SceneMirror()
        mirror.attach(SceneSnapshot(node: b, sequence: 1))
        #expect(mirror.receive(Self.update(a, b, sequence: 1)) == .alreadyApplied)
        #expect(mirror.receive(Self.update(b, c, sequence: 2)) == .applied)
        #expect(mirror.tree == c)
    }

    @Test func aGapAsksForABaselineUntilOneIsAttached() {
        var mirror = SceneMirror()
        mirror.attach(SceneSnapshot(node: a, sequence: 0))
        let gap = mirror.receive(Self.update(b, c, sequence: 2))
        #expect(gap == .needsBaseline(reason: "Update 2 arrived after 0: 1 missing."))
        #expect(mirror.needsBaseline)
        // A later update that would follow the missing one is not applied over the hole.
        #expect(mirror.receive(Self.update(c, a, sequence: 3)) == gap)
        #expect(mirror.tree == a, "the copy is left as it was")
        mirror.prepareToAttach()
        #expect(mirror.receive(Self.update(a, b, sequence: 4)) == .held)
        #expect(mirror.attach(SceneSnapshot(node: a, sequence: 3)) == .applied)
        #expect(!mirror.needsBaseline)
        #expect(mirror.tree == b)
        #expect(mirror.sequence == 4)
    }

    @Test func patchesThatDoNotFitTheTreeAskForABaseline() {
        var mirror = SceneMirror()
        mirror.attach(SceneSnapshot(node: Self.tree("a", rows: 1), sequence: 0))
        let outcome = mirror.receive(SceneUpdate(node: a, module: nil, patches: [.delete("row.9")], sequence: 1))
        guard case .needsBaseline(let reason) = outcome else {
            Issue.record("applied patches for a row the tree lacks: \(outcome)")
            return
        }
        #expect(reason.contains("Update 1 (scene) did not apply"), "\(reason)")
        #expect(mirror.sequence == 0)
    }

    @Test func aHostDoesItsOwnWorkAfterTheMirrorAndAThrowAsksForABaseline() {
        struct Refused: Error {}
        var mirror = SceneMirror()
        var seen: [Int] = []
        mirror.attach(SceneSnapshot(node: a, sequence: 0))
        #expect(mirror.receive(Self.update(a, b, sequence: 1)) { seen.append($0.sequence) } == .applied)
        #expect(seen == [1])
        #expect(mirror.tree == b, "the mirror applied the patches before the host's work")
        let refused = mirror.receive(Self.update(b, c, sequence: 2)) { _ in throw Refused() }
        #expect(refused.description.hasPrefix("needs a baseline: Update 2 (scene) did not apply"), "\(refused)")
    }

    @Test func aMirrorWithoutATreeKeepsTheStreamInOrderForNoCopy() {
        var mirror = SceneMirror(keepsTree: false)
        var applied: [Int] = []
        #expect(mirror.receive(Self.update(a, b, sequence: 2)) == .held)
        #expect(mirror.attach(SceneSnapshot(node: a, sequence: 1)) { applied.append($0.sequence) } == .applied)
        #expect(mirror.isAttached)
        #expect(mirror.tree == nil && mirror.action(withID: "row.0") == nil, "no copy of the tree")
        #expect(mirror.receive(Self.update(b, c, sequence: 2)) == .alreadyApplied)
        #expect(mirror.receive(Self.update(b, c, sequence: 3)) { applied.append($0.sequence) } == .applied)
        #expect(mirror.receive(Self.update(b, c, sequence: 5)) == .needsBaseline(reason: "Update 5 arrived after 3: 1 missing."))
        #expect(applied == [2, 3])
    }

    @Test func aHeldUpdateThatDoesNotFollowTheBaselineMakesAttachAskAgain() {
        var mirror = SceneMirror()
        #expect(mirror.receive(Self.update(b, c, sequence: 3)) == .held)
        #expect(mirror.attach(SceneSnapshot(node: a, sequence: 1)) == .needsBaseline(reason: "Update 3 arrived after 1: 1 missing."))
        #expect(mirror.tree == a)
    }

    @Test func lookingAtASceneNeitherStartsNorResetsItsUpdates() async throws {
        let service = TestService()
        let host = RecordingHost()
        let scene = try await SceneRegistry.testing(service, scenes: Fixtures.all).assemble(
            "profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: host)
        let like = try #require(await scene.render().action(withID: "items/row.1.like"))
        await scene.send(like.event)
        #expect(host.updates.isEmpty, "render() is a query: a host that took no baseline gets no updates")
        var mirror = SceneMirror()
        let baseline = await scene.takeBaseline()
        mirror.attach(baseline)
        await scene.send(try #require(baseline.node.action(withID: "items/row.2.like")).event)
        let update = try #require(host.updates.first)
        _ = await scene.render()  // looking in between changes nothing for the host
        #expect(mirror.receive(update) == .applied)
        #expect(mirror.tree == (await scene.render()))
    }
}
