import SceneryText
import SceneryViewTree
import Testing

/// The samples of the core layers' catalogs. `SceneryText.md`: the text layer alone formats a message.
@Suite struct TextLayerSamples {
    @Test func theTextLayerFormatsAPluralWithoutTheRuntime() throws {
        let likes = try Message("{count, plural, one {# like} other {# likes}}")
        let text = likes.format(["count": 3], in: .english)  // "3 likes"
        #expect(text == "3 likes")
        #expect(likes.format(["count": 1], in: .english) == "1 like")
    }
}

/// The sample of `SceneryViewTree.md`: the view-tree layer alone diffs two trees.
@Suite struct ViewTreeLayerSamples {
    @Test func theViewTreeLayerDiffsTwoTreesWithoutTheRuntime() {
        let before = ViewNode.stack("likes", [.text("likes.count", "Likes: 0")])
        let after = ViewNode.stack("likes", [.text("likes.count", "Likes: 1")])
        let patches = ViewTreeDiff(from: before, to: after).patches  // one update: the count's text
        #expect(patches.count == 1)
        guard case .update(let id, _)? = patches.first else {
            Issue.record("not an update: \(patches)")
            return
        }
        #expect(id == "likes.count")
    }
}
