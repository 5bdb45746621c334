import Scenery
import Testing

/// "Did you mean …?": the nearest name within a few edits, the same answer whatever the
/// order of the candidates.
@Suite struct SuggestionTests {
    @Test func aSwapOfNeighbouringLettersIsOneEdit() {
        #expect(Suggestion.closest(to: "titel", in: ["item", "note", "title"]) == "title")
        #expect(Suggestion.closest(to: "titel", in: ["title", "note", "item"]) == "title")
    }

    @Test func equallyNearCandidatesGiveTheFirstInAlphabeticalOrder() {
        #expect(Suggestion.closest(to: "bat", in: ["cat", "bag"]) == "bag")
        #expect(Suggestion.closest(to: "bat", in: ["bag", "cat"]) == "bag")
    }

    @Test func aDistantNameHasNoSuggestion() {
        #expect(Suggestion.closest(to: "profile", in: ["drafts", "blogs"]) == nil)
        #expect(Suggestion.closest(to: "BLOGS", in: ["blogs"]) == "blogs")
    }
}
