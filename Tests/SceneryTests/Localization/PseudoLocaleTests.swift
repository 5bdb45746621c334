import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// The pseudo-locale (`en-XA`) shows a module's own words accented, bracketed and about 40%
/// longer, and its arguments as they are; a registry offers it only when asked to.
@Suite struct PseudoLocaleTests {
    @Test func wordsAreAccentedBracketedAndAboutFortyPercentLonger() {
        let shown = PseudoLocale.transformed("Load more")
        #expect(shown.hasPrefix("[Ļöåð ɱöŕé"))
        #expect(shown.hasSuffix("]"))
        for text in ["Load more", "Write a title or some text first.", "A deleted draft cannot be brought back, ever."] {
            let length = PseudoLocale.transformed(text).count
            #expect(Double(length) >= Double(text.count) * 1.35 && Double(length) <= Double(text.count) * 1.45 + 2, "\(text)")
        }
        #expect(PseudoLocale.transformed("") == "")
        // Long text (a fuzzer's 770 KB input once took seconds): the same 40%, in linear time.
        let long = String(repeating: "Load more ", count: 20_000)
        let expected: Int = long.count + (long.count * 2 + 4) / 5
        #expect(PseudoLocale.transformed(long).count == expected)
        // A reference to the event a confirmation is about is kept, so it still resolves.
        #expect(PseudoLocale.transformed("Unfollow $event.name?").contains("$event.name?"))
    }

    @Test func aMessageAccentsItsWordsButNotItsArguments() throws {
        let message = try Message("{count, plural, one {# like from {name}} other {# likes from {name}}}")
        let shown = message.format(["count": 3, "name": "Alice"], in: MessageLocale(PseudoLocale.identifier))
        #expect(shown.hasPrefix("[3 ļîķéš ƒŕöɱ Alice"), "\(shown)")
        #expect(shown.hasSuffix("]"))
        // English plural rules: one is still one.
        #expect(message.format(["count": 1, "name": "Bo"], in: MessageLocale("en-XA")).hasPrefix("[1 ļîķé ƒŕöɱ Bo"))
        #expect(MessageLocale("en-XA").isPseudo && !MessageLocale("en").isPseudo && !MessageLocale("en-US").isPseudo)
    }

    @Test func aRegistryShowsThePseudoLocaleOnlyWhenItOffersIt() async throws {
        var registry = SceneRegistry()
        registry.addScenes(sources: [
            (
                "shelf",
                """
                { "title": "Shelf", "language": "en", "modules": [ { "id": "intro", "type": "TextModule", "params": { "title": "Books" } } ] }
                """,
                "shelf.json"
            )
        ])
        #expect(registry.language(of: "shelf", for: "en-XA") == "en")
        #expect(!registry.translatedLanguages.contains("en-XA"))
        registry.offersPseudoLocale = true
        #expect(registry.language(of: "shelf", for: "en-XA") == "en-XA")
        #expect(registry.translatedLanguages.last == "en-XA")
        #expect(registry.title(of: "shelf", in: "en-XA")?.hasPrefix("[Šĥéļƒ") == true)
    }
}
