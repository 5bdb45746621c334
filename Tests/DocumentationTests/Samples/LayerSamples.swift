import Foundation
import SceneryRendering
import ScenerySceneFiles
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

/// The sample of `ScenerySceneFiles.md`: a problem in a file names the file, the line and column, and what to do.
@Suite struct SceneFilesLayerSamples {
    @Test func aDiagnosticNamesTheFileTheLineAndTheColumn() {
        let problem = Diagnostic(
            .error, "unknown module type 'blog'; did you mean 'blogs'?",
            file: "Scenes/user-profile.json", location: SourcePosition(line: 12, column: 17))
        print(problem)  // Scenes/user-profile.json:12:17: error: unknown module type 'blog'; did you mean 'blogs'?
        #expect(problem.description == "Scenes/user-profile.json:12:17: error: unknown module type 'blog'; did you mean 'blogs'?")
    }
}

/// The sample of `SceneryRendering.md`: the view-tree document is the JSON a native client reads.
@Suite struct RenderingLayerSamples {
    @Test func aViewTreeDocumentEncodesTheFormatAndTheTree() throws {
        let document = ViewTreeDocument(scene: "user-profile", root: .text("scene/title", "Alice"))
        let json = try JSONEncoder().encode(document)  // {"format":"scenery.view-tree","version":1,…}
        let decoded = try JSONDecoder().decode(ViewTreeDocument.self, from: json)
        #expect(decoded == document)
        #expect(String(decoding: json, as: UTF8.self).contains(#""format":"scenery.view-tree""#))
    }
}
