import SceneryTesting
import Testing

@testable import Scenery

/// A scene file's wording is checked where it is written: a message that does not parse, an
/// argument the module does not give, a printf placeholder, and a plural without a case the
/// scene's language needs are errors at file:line:col.
@Suite struct MessageValidationTests {
    actor Counter: Module {
        static let descriptor = ModuleDescriptor(
            type: "Counter", summary: "Counts.",
            parameters: [
                .message("countText", default: "{count, plural, one {# item} other {# items}}", arguments: [MessageArgumentSpec("count", .number)]),
                .message("title", default: "Items"),
            ])
        let text: String
        init(parameters: ModuleParameters) throws {
            text = try parameters.message("countText")(["count": 3]) + " · " + parameters.text("title")
        }
        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode { .text("count", text) }
    }

    func problems(language: String = "en", params: String) -> [Diagnostic] {
        var registry = SceneRegistry(builtIns: false)
        registry.register(Counter.self) { parameters, _ in try Counter(parameters: parameters) }
        return registry.addScene(
            id: "s",
            source: """
                { "language": "\(language)",
                  "modules": [ { "id": "c", "type": "Counter", "params": { \(params) } } ] }
                """
        ).filter { $0.severity == .error }
    }

    @Test func validMessagesInTheScenesLanguagePass() {
        #expect(problems(params: #""countText": "{count, plural, =0 {none} one {# item} other {# items}}""#).isEmpty)
        #expect(problems(language: "zh-Hans", params: #""countText": "{count} 件", "title": "物品""#).isEmpty)
        #expect(problems(language: "pl", params: #""countText": "{count, plural, one {# rzecz} few {# rzeczy} many {# rzeczy} other {# rzeczy}}""#).isEmpty)
    }

    @Test func aPluralWithoutACaseTheLanguageNeedsIsAnError() throws {
        let found = problems(language: "pl", params: #""countText": "{count, plural, one {# rzecz} other {# rzeczy}}""#)
        let problem = try #require(found.first)
        #expect(
            problem.message
                == "'countText' of Counter has a plural of {count} without the cases few, many, which pl needs (CLDR plural rules); add few {…} many {…}.")
        // At the value: its opening quote is at column 73 of line 2.
        #expect(problem.location == SourcePosition(line: 2, column: 73))
    }

    @Test func aSyntaxErrorPointsIntoTheString() throws {
        let found = problems(params: #""countText": "{count, plural, one {# item} other {# items}""#)
        let problem = try #require(found.first)
        #expect(problem.message.contains("'countText' is not a valid message"), "\(problem.message)")
        #expect(problem.message.contains("close it with '}'"), "\(problem.message)")
        // The value's quote is at column 73 of line 2; the message ends, unclosed, after
        // its 44 characters.
        #expect(problem.location == SourcePosition(line: 2, column: 73 + 1 + 44), "\(String(describing: problem.location))")
    }

    @Test func anEscapeBeforeTheErrorIsCountedAsOneCharacter() throws {
        let found = problems(params: #""title": "\"Items\" {oops""#)
        let problem = try #require(found.first)
        // The value's quote is at column 69; `\"Items\" ` is 8 characters written in 10
        // bytes, and the parser stops at the end, after `{oops`.
        #expect(problem.location == SourcePosition(line: 2, column: 69 + 1 + 10 + 5), "\(String(describing: problem.location))")
    }

    @Test func anArgumentTheModuleDoesNotGiveIsAnError() {
        let found = problems(params: #""countText": "{total} items""#)
        #expect(
            found.map(\.message) == [
                "Counter: 'countText' is a message, and the message uses {total}, which the module does not give; it gives {count}."
            ])
    }

    @Test func aPrintfPlaceholderSaysHowToWriteTheArgument() {
        let found = problems(params: #""countText": "Items: %ld""#)
        #expect(
            found.map(\.message) == [
                "Counter: 'countText' is a message, which names its arguments, but it has the printf placeholder %ld; write {count}."
            ])
        #expect(problems(params: #""title": "100% sure""#).isEmpty, "a percent sign alone is text")
    }

    @Test func aModuleFormatsItsMessagesInTheScenesLanguage() async throws {
        var registry = SceneRegistry(builtIns: false)
        registry.register(Counter.self) { parameters, _ in try Counter(parameters: parameters) }
        registry.addScene(
            id: "pl",
            source: """
                { "language": "pl", "modules": [ { "id": "c", "type": "Counter", "params": {
                  "countText": "{count, plural, one {# rzecz} few {# rzeczy} many {# rzeczy} other {# rzeczy}}", "title": "Rzeczy" } } ] }
                """)
        registry.addScene(id: "en", source: #"{ "modules": [ { "id": "c", "type": "Counter" } ] }"#)
        let polish = try await registry.assemble("pl", for: SceneContext(viewer: nil), host: RecordingHost())
        #expect(await polish.render().node(withID: "c/count")?.visibleTexts == ["3 rzeczy · Rzeczy"])
        let english = try await registry.assemble("en", for: SceneContext(viewer: nil), host: RecordingHost())
        #expect(await english.render().node(withID: "c/count")?.visibleTexts == ["3 items · Items"])
    }
}
