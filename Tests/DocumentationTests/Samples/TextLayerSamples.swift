import SceneryText
import Testing

/// The sample of `SceneryText.md`: the text layer alone formats a message.
@Suite struct TextLayerSamples {
    @Test func theTextLayerFormatsAPluralWithoutTheRuntime() throws {
        let likes = try Message("{count, plural, one {# like} other {# likes}}")
        let text = likes.format(["count": 3], in: .english)  // "3 likes"
        #expect(text == "3 likes")
        #expect(likes.format(["count": 1], in: .english) == "1 like")
    }
}
