import Foundation
import Scenery
import Testing

/// Forms in the view tree: fields, their rules, the typed submission, and every form the
/// tree takes (JSON, patches, text, HTML).
@Suite struct FormTests {
    struct NewDraft: Codable, Sendable, Equatable {
        var owner: Int
        var title: String
        var body: String
    }

    static let save = EventKind("draft.save", payload: NewDraft.self)

    static let titleField = TextField(
        name: "title", label: "Title", placeholder: "What is it about?", maximumLength: 20,
        rules: [.required(), .length(3...20), .matching("[A-Za-z0-9 ]+", "Use letters, digits and spaces.")])
    static let bodyField = TextField(name: "body", label: "Text", lines: .multiple(6), rules: [.required("Write something first.")])

    static func compose(titleError: String? = nil, formError: String? = nil) -> ViewNode {
        var title = titleField
        title.error = titleError
        return .form(
            "compose", submit: .init(title: "Save draft", sends: save.descriptor(NewDraft(owner: 1, title: "", body: ""))), error: formError,
            [
                .text("hint", "Drafts are yours alone.", role: .caption),
                .stack("fields", [.textField("title", title), .textField("body", bodyField)]),
            ])
    }

    static var form: Form {
        guard case .form(let form) = compose().kind else { fatalError("compose() is a form") }
        return form
    }

    @Test func eachRuleSaysWhatIsWrongInTheFieldsOwnWords() {
        #expect(Self.titleField.problem(with: "   ") == "Title is required.")
        #expect(Self.titleField.problem(with: "ab") == "Title is 3 to 20 characters; it has 2.")
        #expect(Self.titleField.problem(with: "March, again") == "Use letters, digits and spaces.")
        #expect(Self.titleField.problem(with: String(repeating: "a", count: 21)) == "Title is at most 20 characters; it has 21.")
        #expect(Self.titleField.problem(with: "March notes") == nil)
        #expect(Self.bodyField.problem(with: "") == "Write something first.")
        // Characters as a person counts them: one flag is one character.
        #expect(TextField(name: "n", label: "Name", maximumLength: 2).problem(with: "🇯🇵🇫🇷") == nil)
    }

    @Test func aPatternThatIsNotARegularExpressionSaysItIsTheModulesMistake() throws {
        let field = TextField(name: "code", label: "Code", rules: [.matching("[unclosed", "Letters only.")])
        let problem = try #require(field.problem(with: "abc"))
        #expect(problem.contains("'[unclosed'") && problem.contains("not a regular expression"))
    }

    @Test func aSubmissionCarriesTheTypedTextAsThePayloadTheModuleDecodes() throws {
        let event = try Self.form.submission(of: ["title": "March notes", "body": "Line one\nLine two"], from: "drafts/compose")
        #expect(event.name == "draft.save")
        #expect(event.source == "drafts/compose")
        #expect(try Self.save.payload(of: event) == NewDraft(owner: 1, title: "March notes", body: "Line one\nLine two"))
    }

    @Test func aSubmissionThatBreaksTheRulesIsNotMadeAndSaysWhyPerField() {
        #expect(throws: FormProblems(fields: ["title": "Title is required.", "body": "Write something first."])) {
            try Self.form.submission(of: ["title": "", "body": ""], from: "compose")
        }
    }

    @Test func unknownMissingAndOversizedTextIsRefusedByName() {
        let problems = Self.form.problems(in: ["title": "March", "extra": "x"])
        #expect(problems.form == [#"This form has no field 'extra'; send only 'body', 'title'."#])
        #expect(problems.fields == ["body": "Text was not sent; send every field of the form."])
        let paste = String(repeating: "a", count: 10 * 1024 * 1024)
        #expect(Self.form.problems(in: ["title": "March", "body": paste]).fields["body"] == "Text is 10485760 bytes; at most 65536 are taken.")
    }

    @Test func controlAndBidiCharactersAreRefusedButNewLinesAreTextInATextArea() {
        for bad in ["a\u{0}b", "a\u{1B}[2Jb", "evil\u{202E}txt.exe", "a\u{2066}b"] {
            #expect(Self.form.problems(in: ["title": "March", "body": bad]).fields["body"]?.contains("control character") == true, "\(bad.debugDescription)")
        }
        #expect(Self.form.problems(in: ["title": "March", "body": "one\ntwo\r\n\tthree"]).isEmpty)
        #expect(Self.form.problems(in: ["title": "Mar\nch", "body": "x"]).fields["title"]?.contains("U+A") == true)
    }

    /// One "letter" of 20,000 combining marks is one character as Swift counts it: a limit
    /// of characters alone let a 40,001-byte summary through a 500-letter limit.
    @Test func aCharacterCarryingMoreThanThirtyMarksIsRefusedByEveryField() {
        let stacked = "Z" + String(repeating: "\u{0301}", count: 20_000)
        #expect(stacked.count == 1 && stacked.utf8.count == 40_001)
        let problem = Self.form.problems(in: ["title": "March", "body": "a \(stacked) b"]).fields["body"]
        #expect(problem == "Text holds a character with 20000 marks stacked on it; at most 30 are taken. Type the text without them.")
        // Thirty marks are text (the stream-safe format's limit); so are emoji sequences.
        let thirty = "e" + String(repeating: "\u{0301}", count: 30)
        #expect(Self.form.problems(in: ["title": "March", "body": thirty + " 👨‍👩‍👧‍👦 🏴󠁧󠁢󠁳󠁣󠁴󠁿"]).isEmpty)
    }

    @Test func aLengthLimitCountsBytesBesideCharacters() {
        // Two hundred characters of thirty marks each: 200 characters, 12,200 bytes.
        let heavy = String(repeating: "e" + String(repeating: "\u{0301}", count: 30), count: 200)
        let title = TextField(name: "title", label: "Title", maximumLength: 200)
        #expect(heavy.count == 200)
        #expect(
            title.problem(with: heavy)
                == "Title is at most 200 characters of 16 bytes (3200 bytes); it has 12200 bytes. Shorten it, or remove marks stacked on its letters.")
        let rule = TextField(name: "title", label: "Title", rules: [.length(0...200)])
        #expect(rule.problem(with: heavy)?.contains("3200 bytes") == true)
        // Any letter a person types fits: 200 Chinese characters, 200 flags.
        #expect(title.problem(with: String(repeating: "草", count: 200)) == nil)
        #expect(title.problem(with: String(repeating: "🇯🇵", count: 200)) == nil)
        #expect(TextField.lengthProblem(of: String(repeating: "a", count: 201), atMost: 200, label: "Title") == "Title is at most 200 characters; it has 201.")
    }

    @Test func aFormsFieldsAreFoundWhereverTheySitAndItsActionSubmitsWhatItShows() throws {
        let tree = Self.compose()
        #expect(Self.form.fields.map(\.name) == ["title", "body"])
        let action = try #require(tree.action(withID: "compose"))
        #expect(action.title == "Save draft")
        #expect(action.event.payload["title"] == .string("") && action.event.payload["owner"] == 1)
    }

    @Test func theJSONFormRoundTripsEveryPartOfAFieldAndAForm() throws {
        var search = TextField(
            name: "q", label: "Search", value: "caf\u{E9}", placeholder: "Find", maximumLength: 80, keyboard: .search,
            rules: [.length(1...80, "Too long.")], error: "Nothing found.", changes: EventDescriptor("people.search"))
        search.lines = .single
        let tree = ViewNode.stack("root", [Self.compose(titleError: "Taken.", formError: "The store is away."), .textField("search", search)])
        let data = try JSONEncoder().encode(tree)
        #expect(try JSONDecoder().decode(ViewNode.self, from: data) == tree)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""type":"textField""#) && text.contains(#""multiline":true"#) && text.contains(#""rule":"pattern""#))
    }

    @Test func aFieldWithImpossibleRulesInJSONIsRefusedWithTheReason() {
        let bad = #"{"id":"f","type":"textField","field":{"name":"n","label":"N","rules":[{"rule":"length","min":5,"max":2}]}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ViewNode.self, from: Data(bad.utf8)) }
        let unknown = #"{"id":"f","type":"textField","field":{"name":"n","label":"N","rules":[{"rule":"shout"}]}}"#
        do {
            _ = try JSONDecoder().decode(ViewNode.self, from: Data(unknown.utf8))
            Issue.record("an unknown rule must be refused")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("'shout'"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anErrorAppearingOnAFieldIsOneUpdateOfThatFieldAlone() throws {
        let old = Self.compose()
        let new = Self.compose(titleError: "Title is required.")
        let patches = ViewTreeDiff(from: old, to: new).patches
        #expect(patches.count == 1)
        guard case .update(let id, let properties)? = patches.first, case .textField(let field) = properties.kind else {
            Issue.record("expected one update of the field, got \(patches)")
            return
        }
        #expect(id == "title" && field.error == "Title is required.")
        let tree = PatchableTree(old)
        try tree.apply(patches)
        #expect(tree.root == new)
        // Patches travel as JSON too.
        let decoded = try JSONDecoder().decode([ViewPatch].self, from: JSONEncoder().encode(patches))
        #expect(decoded == patches)
    }

    @Test func aFormInsertedIntoATreeArrivesWholeAndItsSubmitIsTappable() throws {
        let old = ViewNode.stack("root", [.text("t", "Drafts")])
        let new = ViewNode.stack("root", [.text("t", "Drafts"), Self.compose(formError: "Try again.")])
        let tree = PatchableTree(old)
        try tree.apply(ViewTreeDiff(from: old, to: new).patches)
        #expect(tree.root == new)
        #expect(tree.action(withID: "compose")?.event.name == "draft.save")
        let formUpdate = ViewTreeDiff(from: new, to: .stack("root", [.text("t", "Drafts"), Self.compose()])).patches
        guard case .update("compose", let properties)? = formUpdate.first, case .form(_, nil) = properties.kind else {
            Issue.record("expected the form's error to go in one update, got \(formUpdate)")
            return
        }
    }

    @Test func aQualifiedFormPrefixesItsFieldsAndKeepsTheirNames() throws {
        let qualified = Self.compose().qualified(by: "drafts")
        let field = try #require(qualified.node(withID: "drafts/title"))
        guard case .textField(let title) = field.kind else {
            Issue.record("expected a field")
            return
        }
        #expect(title.name == "title")
        #expect(qualified.action(withID: "drafts/compose") != nil)
    }

    @Test func theTextRendererShowsLabelsTextErrorsAndTheSubmitControl() {
        var title = Self.titleField
        title.value = "March"
        let tree = ViewNode.form(
            "f", submit: .init(title: "Save", sends: "draft.save"), error: "The store is away.",
            [.textField("title", title), .textField("body", Self.bodyField)])
        var body = Self.bodyField
        body.error = "Write something first."
        let withError = ViewNode.form("f", submit: .init(title: "Save", sends: "draft.save"), [.textField("body", body)])
        #expect(TextRenderer().render(tree) == "Title: [March]\nText: []\n⚠ The store is away.\n[ Save ]\n")
        #expect(TextRenderer().render(withError).contains("⚠ Write something first."))
    }

    @Test func theHTMLRendererLabelsEveryInputAndTiesItsErrorToIt() {
        var body = Self.bodyField
        body.value = "<script>alert(1)</script>"
        body.error = "Too short."
        let html = HTMLRenderer().fragment(
            .form("f", submit: .init(title: "Save", sends: "draft.save"), [.textField("title", Self.titleField), .textField("body", body)]))
        #expect(html.contains(#"<label for="title--input">Title</label>"#))
        let input =
            #"<input type="text" id="title--input" name="title" data-label="Title" placeholder="What is it about?" "#
            + #"maxlength="20" required minlength="3" "#
        #expect(html.contains(input))
        // The rules in the module's words, for the page to check before it sends.
        let pattern = #"{"message":"Use letters, digits and spaces.","pattern":"[A-Za-z0-9 ]+","rule":"pattern"}"#
        #expect(html.contains(pattern.replacingOccurrences(of: "\"", with: "&quot;")))
        #expect(html.contains("&quot;rule&quot;:&quot;required&quot;") && html.contains(#"value="">"#))
        #expect(html.contains(#"<textarea rows="6" id="body--input" name="body" data-label="Text" required data-rules=""#))
        #expect(html.contains(#" aria-invalid="true" aria-describedby="body--error">&lt;script&gt;"#))
        #expect(html.contains(#"<p id="body--error" class="field-error">Too short.</p>"#))
        #expect(html.contains(#"<form id="f" class="form" data-form="f" data-event="draft.save""#), "no data-node: a click in it is not a control's")
        #expect(html.contains(#"<button type="submit" class="primary">Save</button>"#))
    }
}
