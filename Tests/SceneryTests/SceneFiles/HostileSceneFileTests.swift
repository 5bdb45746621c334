import Foundation
import Testing

@testable import Scenery

/// Inputs of the kinds a fuzzer throws at the loader: each must load or be rejected with a
/// diagnostic, never crash, hang or allocate without bound.
@Suite struct HostileSceneFileTests {
    func load(_ source: String) -> [Diagnostic] {
        var registry = SceneRegistry()
        return registry.addScene(id: "hostile", source: source)
    }

    @Test func aOneMegabyteStringLoads() {
        let title = String(repeating: "長", count: 350_000)
        #expect(load(#"{ "title": "\#(title)", "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "\#(title)" } } ] }"#).isEmpty)
    }

    @Test(arguments: ["1e999999999", "-1e309", "123456789012345678901234567890", "0.0000000000000000000000000001e-999"])
    func hugeNumbersAreHandled(number: String) {
        let problems = load(#"{ "modules": [ { "id": "t", "type": "TextModule", "timeout": \#(number) } ] }"#)
        #expect(problems.containsErrors)
    }

    @Test func tenThousandModulesValidate() {
        let modules = (0..<10_000).map { #"{ "id": "m\#($0)", "type": "TextModule" }"# }.joined(separator: ",")
        #expect(load(#"{ "modules": [\#(modules)] }"#).isEmpty)
    }

    @Test func deeplyNestedParametersAreRejectedNotRecursedForever() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let problems = load(#"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": \#(deep) } } ] }"#)
        #expect(problems.first?.message.contains("Nesting is deeper than 64 levels") == true)
    }

    @Test func deepConditionsAndTemplatesAreRejected() {
        let condition = String(repeating: "(", count: 10_000) + "viewer" + String(repeating: ")", count: 10_000)
        #expect(load(#"{ "variants": [ { "when": "\#(condition)" } ] }"#).first?.message.contains("nests too deeply") == true)
        // An odd run of '$': the last one opens an unclosed '${'.
        let template = String(repeating: "$", count: 99_999) + "{"
        #expect(load(#"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "\#(template)" } } ] }"#).containsErrors)
    }

    @Test func aConditionOfAHundredAndTwentyThousandOperandsValidatesAndEvaluates() throws {
        // About 360 KB of `||` and `&&`: once a stack overflow in validation (issue 14, item 3).
        let chain = (0..<60_000).map { _ in "viewer == user" }.joined(separator: " || ") + " && user == '1'"
        var registry = SceneRegistry()
        let problems = registry.addScene(
            id: "long", source: #"{ "parameters": { "user": "userID" }, "variants": [ { "name": "me", "when": "\#(chain) || viewer == null" } ] }"#)
        #expect(!problems.containsErrors, "\(problems.prefix(2))")
        let condition = try Condition(parsing: chain)
        #expect(condition.evaluate(in: SceneContext(viewer: "1", arguments: ["user": "1"]).environment()))
        #expect(!condition.evaluate(in: SceneContext(viewer: "2", arguments: ["user": "1"]).environment()))
        #expect(condition == (try Condition(parsing: chain)), "equality does not recurse per operand either")
    }

    @Test func longExtendsChainsAndCyclesTerminate() {
        var registry = SceneRegistry()
        for index in 0..<300 { registry.addScene(id: "s\(index)", source: #"{ "extends": "s\#(index + 1)" }"#) }
        registry.addScene(id: "s300", source: #"{ "extends": "s0" }"#)
        #expect(registry.allDiagnostics.count == 301)
        #expect(registry.allDiagnostics.allSatisfy { $0.message.contains("forms a cycle") })
        // A 301-scene cycle is named by its ends, so messages stay short.
        for diagnostic in registry.allDiagnostics {
            #expect(diagnostic.message.contains(" → … → "))
            #expect(diagnostic.message.count < 200)
        }
    }

    @Test func controlCharactersAndNULsInKeysAreReported() {
        #expect(load("{ \"mod\u{0}ules\": [] }").containsErrors)
        #expect(load("{ \"title\": \"a\u{1}b\" }").first?.message.contains("Control character") == true)
    }

    @Test func aFileThatCannotBeReadIsAnErrorOfItsOwnSceneAndTheOthersLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Fine" } } ] }"#.utf8)
            .write(to: directory.appending(path: "good.json"))
        #expect(mkfifo(directory.appending(path: "pipe.json").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appending(path: "loop.json").path, withDestinationPath: directory.appending(path: "loop.json").path)
        try FileManager.default.createDirectory(at: directory.appending(path: "folder.json"), withIntermediateDirectories: false)
        let huge = FileManager.default.createFile(
            atPath: directory.appending(path: "huge.json").path, contents: Data(count: SceneRegistry.largestSceneFile + 1))
        #expect(huge)
        var registry = SceneRegistry()
        // Nothing blocks on the FIFO; each bad file is a problem of its own scene.
        let problems = try registry.loadScenes(in: directory)
        #expect(registry.diagnostics(for: "good").isEmpty)
        #expect(registry.source(of: "good") != nil)
        let expected = [
            "folder": "it is a directory, not a file", "huge": "more than the \(SceneRegistry.largestSceneFile) allowed",
            "loop": "its symbolic links form a loop", "pipe": "it is a FIFO, not a file",
        ]
        for (id, reason) in expected {
            let found = registry.diagnostics(for: id)
            #expect(found.count == 1 && found[0].severity == .error, "\(id): \(found)")
            #expect(found.first?.message.contains(reason) == true, "\(id): \(found)")
            #expect(found.first?.file.hasSuffix("\(id).json") == true)
            #expect(registry.source(of: id) == nil, "nothing to publish for \(id)")
        }
        #expect(problems.count == 4)
    }

    @Test func aLinkOutOfTheSceneFolderIsNotReadButALinkWithinItIs() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "scenery-links-\(UUID().uuidString)")
        let directory = root.appending(path: "Scenes")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let scene = #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Secret" } } ] }"#
        try Data(scene.utf8).write(to: root.appending(path: "outside.json"))
        try Data(scene.utf8).write(to: directory.appending(path: "inside.json"))
        try FileManager.default.createSymbolicLink(atPath: directory.appending(path: "out.json").path, withDestinationPath: "../outside.json")
        try FileManager.default.createSymbolicLink(atPath: directory.appending(path: "alias.json").path, withDestinationPath: "inside.json")
        var registry = SceneRegistry()
        _ = try registry.loadScenes(in: directory)
        let refused = registry.diagnostics(for: "out")
        #expect(refused.count == 1 && refused.first?.severity == .error)
        #expect(refused.first?.message.contains("a link to a file outside its folder") == true, "\(refused)")
        #expect(registry.source(of: "out") == nil, "nothing of the linked file is kept to publish")
        #expect(registry.diagnostics(for: "alias").isEmpty, "a link within the folder reads as the file it names")
        #expect(registry.source(of: "alias") == scene)
    }
}
