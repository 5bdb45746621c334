import Foundation
import ProfileDemoDomain
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// Pages that get the same update share one planned and encoded patch; a page whose update
/// differs in anything (its viewer's own like, a draft, an owner's control) gets its own.
@Suite(.timeLimit(.minutes(5))) struct SharedPatchesTests {
    /// A row as a page shows it: its like count, and whether the page's viewer liked it.
    static func row(likes: Int, liked: Bool) -> ViewNode {
        .stack(
            "blogs/blog.26", axis: .horizontal,
            [
                .text("blogs/blog.26.likes", "Likes: \(likes)"),
                .button("blogs/blog.26.like", title: liked ? "Unlike" : "Like", sends: EventDescriptor("blog.like")),
            ])
    }

    static func update(from before: ViewNode, to after: ViewNode) -> SceneUpdate {
        SceneUpdate(node: after, module: "blogs", patches: ViewTreeDiff(from: before, to: after).patches, previous: before)
    }

    static let planner = DOMPlanner(renderer: HTMLRenderer())

    @Test func pagesWithEqualUpdatesShareOnePlannedPatchAndEachNumbersItsOwn() throws {
        let shared = SharedPatches(planner: Self.planner)
        let like = Self.update(from: Self.row(likes: 3, liked: false), to: Self.row(likes: 4, liked: false))
        let first = try shared.patch(for: like)
        let second = try shared.patch(for: like)
        #expect(shared.counts == (planned: 1, reused: 1))
        let alone = PageProtocol.ServerMessage.patch(sequence: 12, operations: try Self.planner.operations(for: like))
        #expect(second.text(sequence: 12) == alone.text, "what a page would have sent alone, byte for byte")
        #expect(first.text(sequence: 3).hasSuffix(#","sequence":3,"type":"patch"}"#))
        #expect(try PageProtocol.ServerMessage(jsonText: first.text(sequence: 3)) == .patch(sequence: 3, operations: try Self.planner.operations(for: like)))
    }

    @Test func aViewersOwnLikeStateIsNeverSharedWithAnotherPage() throws {
        let shared = SharedPatches(planner: Self.planner)
        // Her like, on her page (the count and her button change) and on another's (the
        // count alone): the same node and the same count, two patches.
        let hers = Self.update(from: Self.row(likes: 3, liked: false), to: Self.row(likes: 4, liked: true))
        let theirs = Self.update(from: Self.row(likes: 3, liked: false), to: Self.row(likes: 4, liked: false))
        let forHer = try shared.patch(for: hers).text(sequence: 1)
        let forOthers = try shared.patch(for: theirs).text(sequence: 1)
        #expect(shared.counts == (planned: 2, reused: 0))
        #expect(forHer.contains("Unlike") && !forOthers.contains("Unlike"), "\(forHer)\n\(forOthers)")
        // Rows that differ only where the update does not touch them make the same bytes:
        // planned for each (their keys differ), and equal.
        let hersBefore = Self.update(from: Self.row(likes: 4, liked: true), to: Self.row(likes: 5, liked: true))
        let theirsAgain = Self.update(from: Self.row(likes: 4, liked: false), to: Self.row(likes: 5, liked: false))
        #expect(try shared.patch(for: hersBefore) == shared.patch(for: theirsAgain))
        #expect(shared.counts == (planned: 4, reused: 0))
    }

    @Test func anUpdateThatDoesNotApplyIsRefusedEachTimeAndNotKept() {
        let shared = SharedPatches(planner: Self.planner)
        // A structural patch with no previous subtree to apply it to: the page needs the whole scene.
        let broken = SceneUpdate(node: Self.row(likes: 4, liked: false), module: "blogs", patches: [.delete("blogs/blog.9")], previous: nil)
        for _ in 0..<2 { #expect(throws: DOMPlanner.Mismatch.self) { try shared.patch(for: broken) } }
        #expect(shared.counts == (planned: 0, reused: 0))
    }

    @Test func aChangeOfStructureIsPlannedForEachPageAndNotKept() throws {
        let shared = SharedPatches(planner: Self.planner)
        let row = Self.row(likes: 3, liked: false)
        let grown = ViewNode.stack("blogs/blog.26", axis: .horizontal, row.children + [.text("blogs/blog.26.new", "New")])
        let update = Self.update(from: row, to: grown)
        let alone = PageProtocol.ServerMessage.patch(sequence: 2, operations: try Self.planner.operations(for: update)).text
        for _ in 0..<2 { #expect(try shared.patch(for: update).text(sequence: 2) == alone) }
        #expect(shared.counts == (planned: 0, reused: 0), "a structural patch carries whole elements: cheaper to plan than to compare")
    }

    @Test func aFullTableStartsAgainEmptyAndStillAnswersRight() throws {
        let shared = SharedPatches(planner: Self.planner, capacity: 2)
        let updates = (0..<5).map { Self.update(from: Self.row(likes: $0, liked: false), to: Self.row(likes: $0 + 1, liked: false)) }
        for update in updates + updates {
            let alone = PageProtocol.ServerMessage.patch(sequence: 1, operations: try Self.planner.operations(for: update)).text
            #expect(try shared.patch(for: update).text(sequence: 1) == alone)
        }
    }

    // MARK: Every bundled scene, every kind of viewer

    /// What shows, on each bundled scene, that the changes below reached the page. A scene
    /// added to `Scenes/` without a row here fails `everyBundledSceneHasARow`.
    static let scenes: [String: (arguments: [String: String], shows: String)] = [
        "user-profile": (["user": "1"], "Alice P. Liddell"),
        "user-blogs": (["user": "1"], "Likes: "),
        "blog-detail": (["blog": "26"], "Likes: "),
        "follow-list": (["user": "1"], "李雷雷"),
        "friend-list": (["user": "1"], "李雷雷"),
    ]

    /// The owner of what the scenes show, someone else signed in (the liker), and a visitor.
    static let viewers: [String?] = ["1", "5", nil]

    @Test func everyBundledSceneHasARow() throws {
        let fixture = try ServerFixture()
        #expect(Set(fixture.server.registry.sceneIDs) == Set(Self.scenes.keys))
    }

    /// Two pages of every bundled scene for every kind of viewer, open while Dana likes
    /// Alice's blog 26 and an import renames Alice and 李雷: every patch a page reused was
    /// checked against the patch the page planned alone (the server's table checks each
    /// reuse), pages did share, and Dana's own like state reached only her pages.
    @Test func pagesShareAPatchOnlyWhenTheyWouldHaveSentTheSameBytesAlone() async throws {
        let fixture = try ServerFixture(checksSharedPatches: true)
        let store = fixture.store
        let likes = try await store.blog(26, viewer: "7").likes
        try await fixture.server.test(.inProcess) { client in
            var pages: [(scene: String, viewer: String?, page: TestPage)] = []
            for (scene, row) in Self.scenes.sorted(by: { $0.key < $1.key }) {
                for viewer in Self.viewers {
                    for _ in 0..<2 { pages.append((scene, viewer, try await client.open(scene, arguments: row.arguments, as: viewer, format: .html))) }
                }
            }
            let dana = try await client.open("user-blogs", arguments: ["user": "1"], as: "5", format: .html)
            try await dana.waitForAnswer(to: try await dana.tap("blogs/blog.26.like"))
            var data = try store.exportData()
            for (id, name) in [("1", "Alice P. Liddell"), ("3", "李雷雷")] {
                if let index = data.users.firstIndex(where: { $0.id == UserID(id) }) { data.users[index].name = name }
            }
            try store.importData(data)
            for (scene, viewer, page) in pages {
                let shows = Self.scenes[scene]?.shows ?? ""
                let marker = shows == "Likes: " ? "Likes: \(likes + 1)" : shows
                try await page.waitUntil("\(scene) as \(viewer ?? "a visitor") shows the changes") { state in
                    state.operations.contains { $0.html?.contains(marker) == true }
                }
            }
            for (scene, viewer, page) in pages {
                let unlike = page.state.operations.contains { operation in
                    operation.target.rawValue.contains("blog.26") && operation.html?.contains(">Unlike</button>") == true
                }
                if viewer != "5" { #expect(!unlike, "\(scene) as \(viewer ?? "a visitor") was sent Dana's own like state") }
            }
        }
        #expect(fixture.server.sharedPatches.reuseDifferences.isEmpty, "\(fixture.server.sharedPatches.reuseDifferences)")
        let counts = fixture.server.sharedPatches.counts
        #expect(counts.reused > 0, "pages of the same viewer and scene share their patches: \(counts)")
    }
}
