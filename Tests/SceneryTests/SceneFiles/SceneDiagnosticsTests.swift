import Testing

@testable import Scenery

/// A bad scene file and the one diagnostic it must produce.
struct BadScene: Sendable, CustomTestStringConvertible {
    var name: String
    var source: String
    var line: Int
    var column: Int
    var message: String

    var testDescription: String { name }
}

@Suite struct SceneDiagnosticsTests {
    static let badScenes: [BadScene] = [
        BadScene(
            name: "malformed JSON",
            source: """
                {
                  "modules": [
                    { "id": "a", "type": "TextModule" }
                  ]
                  "title": "x"
                }
                """,
            line: 5, column: 3, message: "Expected ',' or '}' after the value of \"modules\""),
        BadScene(
            name: "a language that is not a tag",
            source: """
                { "language": "English!", "modules": [] }
                """,
            line: 1, column: 15, message: "\"language\" must be a BCP 47 language tag such as \"en\" or \"zh-Hans\", not 'English!'."),
        BadScene(
            name: "not an object",
            source: "[]",
            line: 1, column: 1, message: "A scene file must contain a JSON object, not an array."),
        BadScene(
            name: "unknown key",
            source: """
                {
                  "modules": [],
                  "varients": []
                }
                """,
            line: 3, column: 3,
            message:
                "Unknown key \"varients\" in a scene file; did you mean 'variants'? (allowed keys: events, experiments, extends, fallback, format, language, layout, modules, parameters, params, remove, replace, requires, title, variants)."
        ),
        BadScene(
            name: "unknown module type",
            source: """
                {
                  "modules": [
                    { "id": "a",
                      "type": "TextModul" }
                  ]
                }
                """,
            line: 4, column: 15, message: "Unknown module type 'TextModul'; did you mean 'TextModule'?"),
        BadScene(
            name: "missing parameter",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [
                    { "id": "a", "type": "ProfileModule",
                      "params": { } }
                  ]
                }
                """,
            line: 5, column: 17, message: "ProfileModule needs the parameter 'user' (a user id (string or integer)); add it to \"params\"."),
        BadScene(
            name: "mistyped parameter",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [
                    { "id": "a", "type": "ItemsModule", "params": { "owner": "$user",
                      "pageSize": "ten" } }
                  ]
                }
                """,
            line: 5, column: 19, message: "'pageSize' of ItemsModule must be an integer, not a string."),
        BadScene(
            name: "unknown module parameter",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [
                    { "id": "a", "type": "ItemsModule", "params": { "owner": "$user",
                      "pagesize": 3 } }
                  ]
                }
                """,
            line: 5, column: 19, message: "ItemsModule has no parameter 'pagesize'; did you mean 'pageSize'? (parameters: owner, pageSize, total)."),
        BadScene(
            name: "unknown $parameter",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [
                    { "id": "a", "type": "ProfileModule", "params": {
                      "user": "$usr" } }
                  ]
                }
                """,
            line: 5, column: 16, message: "'$usr' is not a parameter of this scene (did you mean 'user'?); declare it in \"parameters\"."),
        BadScene(
            name: "reference of the wrong type",
            source: """
                {
                  "parameters": { "user": "userID", "flag": "bool" },
                  "modules": [
                    { "id": "a", "type": "ProfileModule", "params": {
                      "user": "$flag" } }
                  ]
                }
                """,
            line: 5, column: 15, message: "'user' of ProfileModule must be a user id (string or integer), but '$flag' is a Boolean."),
        BadScene(
            name: "duplicate module id",
            source: """
                {
                  "modules": [
                    { "id": "a", "type": "TextModule" },
                    { "id": "a", "type": "TextModule" }
                  ]
                }
                """,
            line: 4, column: 13, message: "Duplicate module id 'a' (first at modules[0])"),
        BadScene(
            name: "variant adds an existing id",
            source: """
                {
                  "modules": [ { "id": "a", "type": "TextModule" } ],
                  "variants": [ { "when": "viewer == null", "add": [
                    { "id": "a", "type": "TextModule" } ] } ]
                }
                """,
            line: 4, column: 13, message: "Duplicate module id 'a': the scene already has it; use \"replace\""),
        BadScene(
            name: "unknown scene in extends",
            source: """
                {
                  "extends": "nowhere",
                  "modules": []
                }
                """,
            line: 2, column: 14, message: "The scene 'bad' extends 'nowhere', which is not a scene"),
        BadScene(
            name: "unknown scene in navigate",
            source: """
                {
                  "modules": [ { "id": "a", "type": "ActionModule", "params": { "title": "Go", "action": "go" } } ],
                  "events": [
                    { "on": "action.tap", "navigate": {
                        "scene": "detial", "args": { "item": "1" } } }
                  ]
                }
                """,
            line: 5, column: 18, message: "The rule navigates to 'detial', which is not a scene (did you mean 'detail'?)"),
        BadScene(
            name: "navigation without a required argument",
            source: """
                {
                  "modules": [ { "id": "a", "type": "ActionModule", "params": { "title": "Go", "action": "go" } } ],
                  "events": [
                    { "on": "action.tap",
                      "navigate": { "scene": "detail" } }
                  ]
                }
                """,
            line: 5, column: 19, message: "'detail' needs the argument 'item'; add it to \"args\"."),
        BadScene(
            name: "unreachable variant",
            source: """
                {
                  "variants": [
                    { "name": "everyone" },
                    { "name": "late", "when": "viewer == null" }
                  ]
                }
                """,
            line: 4, column: 5, message: "The variant 'late' is unreachable: 'everyone' comes before it and always applies"),
        BadScene(
            name: "variant with a repeated condition",
            source: """
                {
                  "variants": [
                    { "name": "first", "when": "viewer == null" },
                    { "name": "second", "when": "viewer==null" }
                  ]
                }
                """,
            line: 4, column: 33, message: "The variant 'second' is unreachable: 'first' comes before it with the same condition"),
        BadScene(
            name: "event rule for an event no module emits",
            source: """
                {
                  "modules": [ { "id": "a", "type": "TextModule" } ],
                  "events": [
                    { "on": "user.unfollow", "block": true }
                  ]
                }
                """,
            line: 4, column: 13, message: "No module in this scene emits 'user.unfollow', so the rule never applies"),
        BadScene(
            name: "condition syntax error",
            source: """
                {
                  "variants": [
                    { "when": "viewer = null" }
                  ]
                }
                """,
            line: 3, column: 23, message: "Invalid condition: Use '==' to compare, not '='."),
        BadScene(
            name: "condition names an unknown parameter",
            source: """
                {
                  "variants": [
                    { "when": "viewer == owner" }
                  ]
                }
                """,
            line: 3, column: 15, message: "The condition names 'owner', which is not a parameter of this scene"),
        BadScene(
            name: "private module shown to everyone",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [
                    { "id": "s", "type": "SecretModule", "params": { "owner": "$user" } }
                  ]
                }
                """,
            line: 4, column: 5, message: "SecretModule 's' shows private data of '$user' but is in the scene's base modules"),
        BadScene(
            name: "private module in a variant for other viewers",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "variants": [ { "name": "others", "when": "viewer != user", "add": [
                    { "id": "s", "type": "SecretModule", "params": { "owner": "$user" } } ] } ]
                }
                """,
            line: 4, column: 5, message: "SecretModule 's' shows private data of '$user' but is in the variant 'others'"),
        BadScene(
            name: "layout names an unknown module",
            source: """
                {
                  "modules": [ { "id": "a", "type": "TextModule" } ],
                  "layout": [ "a",
                    "b" ]
                }
                """,
            line: 4, column: 5, message: "The layout places 'b', which is not a module of this variant"),
        BadScene(
            name: "bad step",
            source: """
                {
                  "modules": [ { "id": "a", "type": "ActionModule", "params": { "title": "Go", "action": "go" } } ],
                  "events": [ { "on": "action.tap", "steps": [
                    "contine" ] } ]
                }
                """,
            line: 4, column: 5, message: "Unknown step 'contine' (did you mean 'continue'?)"),
        BadScene(
            name: "timeout out of range",
            source: """
                {
                  "modules": [ { "id": "a", "type": "TextModule",
                    "timeout": -5 } ]
                }
                """,
            line: 3, column: 16, message: "'timeout' must be a whole number of milliseconds from 1 to 600000."),
        BadScene(
            name: "a confirmation's destructive that is not true or false",
            source: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [ { "id": "info", "type": "ProfileModule", "params": { "user": "$user" } } ],
                  "events": [ { "on": "user.unfollow", "confirm": { "title": "Unfollow?", "destructive": "yes" } } ]
                }
                """,
            line: 4, column: 90, message: "true or false"),
        BadScene(
            name: "an unknown module type, and nothing else: its rules are not checked against the other modules",
            source: """
                {
                  "modules": [ { "id": "a", "type": "TextModul" } ],
                  "events": [ { "on": "item.pick", "when": "event.x == 1", "confirm": { "title": "Sure $event.titel?" } } ]
                }
                """,
            line: 2, column: 37, message: "Unknown module type 'TextModul'; did you mean 'TextModule'?"),
    ]

    func diagnostics(of source: String) -> [Diagnostic] {
        var registry = SceneRegistry.testing(TestService(), scenes: Fixtures.all)
        return registry.addScene(id: "bad", source: source, file: "Scenes/bad.json")
    }

    @Test(arguments: badScenes)
    func reportsTheExactDiagnostic(_ scene: BadScene) {
        let found = diagnostics(of: scene.source)
        #expect(found.count == 1, "\(found.map(\.description))")
        guard let diagnostic = found.first else { return }
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == "Scenes/bad.json")
        #expect(diagnostic.location == SourcePosition(line: scene.line, column: scene.column), "\(diagnostic)")
        #expect(diagnostic.message.contains(scene.message), "\(diagnostic)")
    }

    @Test func printsInCompilerForm() throws {
        let diagnostic = try #require(diagnostics(of: Self.badScenes[4].source).first)
        #expect(
            diagnostic.description
                == "Scenes/bad.json:4:15: error: Unknown module type 'TextModul'; did you mean 'TextModule'? (registered types: ActionModule, ItemsModule, ProfileModule, SecretModule, TextModule). (at modules[0].type)"
        )
    }

    @Test func collectsEveryProblemInOnePass() {
        let found = diagnostics(
            of: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [
                    { "id": "a", "type": "Nope" },
                    { "id": "b", "type": "ProfileModule", "params": { "user": "$who" } },
                    { "id": "c", "type": "ItemsModule", "params": { "owner": "$user", "pageSize": true } }
                  ],
                  "events": [ { "on": "nothing.here", "navigate": { "scene": "nowhere" } } ]
                }
                """)
        // The rule's event is not checked against the modules (the unknown type may send
        // it), its navigation is.
        #expect(found.map { $0.location?.line } == [4, 5, 6, 8], "\(found.map(\.description))")
        #expect(!found.contains { $0.message.contains("No module in this scene emits") })
    }

    @Test func checksReferencesEvenWhenTheModuleTypeIsUnknown() {
        let found = diagnostics(
            of: """
                {
                  "parameters": { "user": "userID" },
                  "modules": [ { "id": "a", "type": "Nope", "params": { "title": "Hi, $usr!" } } ]
                }
                """)
        #expect(found.map(\.message).map { $0.prefix(22) } == ["Unknown module type 'N", "'$usr' is not a parame"])
        #expect(found.last?.location == SourcePosition(line: 3, column: 71), "the column of the $ itself")
    }

    @Test func detectsCyclesInExtends() {
        var registry = SceneRegistry.testing(TestService())
        registry.addScene(id: "a", source: #"{ "extends": "b" }"#)
        registry.addScene(id: "b", source: #"{ "extends": "a" }"#)
        let messages = registry.allDiagnostics.map(\.message)
        #expect(messages.contains { $0.contains("'extends' forms a cycle (a → b → a)") }, "\(messages)")
        #expect(messages.contains { $0.contains("'extends' forms a cycle (b → a → b)") }, "\(messages)")
    }

    @Test func acceptsTheFixtures() {
        let registry = SceneRegistry.testing(TestService(), scenes: Fixtures.all)
        #expect(registry.allDiagnostics.isEmpty, "\(registry.allDiagnostics.map(\.description))")
    }

    @Test func neverCrashesOnTruncatedFiles() {
        let source = Fixtures.profile
        for length in stride(from: 0, to: source.utf8.count, by: 7) {
            let truncated = String(decoding: source.utf8.prefix(length), as: UTF8.self)
            var registry = SceneRegistry.testing(TestService(), scenes: ["detail": Fixtures.detail])
            let found = registry.addScene(id: "cut", source: truncated)
            #expect(found.containsErrors, "a file cut at \(length) bytes must not validate")
        }
    }
}
