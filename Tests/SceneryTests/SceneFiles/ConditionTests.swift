import Testing

@testable import Scenery

@Suite struct ConditionTests {
    let owner = Condition.Environment(viewer: "1", arguments: ["user": "1"])
    let other = Condition.Environment(viewer: "2", arguments: ["user": "1"])
    let signedOut = Condition.Environment(viewer: nil, arguments: ["user": "1"])

    @Test(arguments: [
        ("viewer == user", true, false, false),
        ("viewer != user", false, true, true),
        ("viewer != null && viewer != user", false, true, false),
        ("viewer == null", false, false, true),
        ("!viewer", false, false, true),
        ("viewer", true, true, false),
        ("(viewer == user) || viewer == '2'", true, true, false),
        ("user == 1", true, true, true),
        ("!(viewer == user)", false, true, true),
    ])
    func evaluatesAgainstTheContext(source: String, forOwner: Bool, forOther: Bool, forSignedOut: Bool) throws {
        let condition = try Condition(parsing: source)
        #expect(condition.evaluate(in: owner) == forOwner)
        #expect(condition.evaluate(in: other) == forOther)
        #expect(condition.evaluate(in: signedOut) == forSignedOut)
    }

    @Test func readsEventFieldsOnlyInEventRules() throws {
        let condition = try Condition(parsing: "event.following == true", allowsEventFields: true)
        #expect(condition.evaluate(in: .init(viewer: "1", arguments: [:], event: ["following": true])))
        #expect(!condition.evaluate(in: .init(viewer: "1", arguments: [:], event: [:])))
        #expect(throws: Condition.SyntaxError.self) { try Condition(parsing: "event.following") }
    }

    @Test(arguments: [
        ("viewer = user", 7, "Use '==' to compare"),
        ("viewer == user &", 15, "Use '&&'"),
        ("viewer ==", 9, "ends too early"),
        ("(viewer == user", 15, "Missing ')'"),
        ("viewer user", 7, "Unexpected 'user'"),
        ("viewer == 'x", 10, "Unterminated string"),
        ("viewer == #", 10, "Unexpected character '#'"),
    ])
    func reportsSyntaxErrorsWithTheirOffset(source: String, offset: Int, message: String) {
        #expect {
            try Condition(parsing: source)
        } throws: { error in
            guard let error = error as? Condition.SyntaxError else { return false }
            #expect(error.offset == offset, "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
            return true
        }
    }

    @Test func knowsWhenItRequiresTheViewerToBeAParameter() throws {
        #expect(try Condition(parsing: "viewer == user").requiresViewer(equalTo: "user"))
        #expect(try Condition(parsing: "user == viewer && x").requiresViewer(equalTo: "user"))
        #expect(try !Condition(parsing: "viewer == user || x").requiresViewer(equalTo: "user"))
        #expect(try !Condition(parsing: "viewer != user").requiresViewer(equalTo: "user"))
        #expect(try !Condition(parsing: "!(viewer == user)").requiresViewer(equalTo: "user"))
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let deep = String(repeating: "!", count: 5_000) + "viewer"
        #expect(throws: Condition.SyntaxError.self) { try Condition(parsing: deep) }
    }
}

@Suite struct TemplateTests {
    let environment = Condition.Environment(viewer: "7", arguments: ["user": "1", "size": 20], event: ["name": "Alice"])

    @Test func wholeReferenceKeepsItsType() throws {
        #expect(try Template(parsing: "$size", allowsEventFields: false).resolve(in: environment) == 20)
        #expect(try Template(parsing: "${user}", allowsEventFields: false).resolve(in: environment) == "1")
    }

    @Test func referencesInsideTextBecomeText() throws {
        let template = try Template(parsing: "Unfollow $event.name? ($viewer, ${size}px, $$5)", allowsEventFields: true)
        #expect(template.resolve(in: environment) == "Unfollow Alice? (7, 20px, $5)")
    }

    @Test func eventFieldsAreOnlyAllowedInEventRules() {
        #expect(throws: Template.SyntaxError.self) { try Template(parsing: "$event.name", allowsEventFields: false) }
    }

    @Test func unclosedBraceIsAnError() {
        #expect(throws: Template.SyntaxError.self) { try Template(parsing: "${user", allowsEventFields: false) }
    }
}
