import SceneryText
import SceneryViewTree
import Testing

/// The samples of the core layers' catalogs. `SceneryText.md`: the text layer alone formats a plural.
@Suite struct TextLayerSamples {
    @Test func theTextLayerFormatsAPluralWithoutTheRuntime() {
        let likes: LocalizedMessage = "{count, plural, one {# like} other {# likes}}"
        let text = likes(["count": 3])  // "3 likes"
        #expect(text == "3 likes")
        #expect(likes(["count": 1]) == "1 like")
    }
}

/// The sample of `SceneryViewTree.md`: the view-tree layer alone builds a tree and lists what it can activate.
@Suite struct ViewTreeLayerSamples {
    @Test func theViewTreeLayerListsATreesActionsWithoutTheRuntime() {
        let like = ViewNode.button("post.like", title: "Like", sends: EventDescriptor("post.like"))
        let post = ViewNode.stack("post", [.text("post.title", "Hello"), like])
        let ids = post.actions.map(\.id)  // ["post.like"]: what a host or a test can activate
        #expect(ids == ["post.like"])
        #expect(post.actions.first?.event.name == "post.like")
    }
}
