import Foundation
import ProfileDemo
import ProfileDemoDomain
import Scenery
import SceneryTesting
import Testing

/// The view tree's JSON Schema (`docs/view-tree.schema.json`) and the JSON renderer agree:
/// every bundled scene, for every kind of viewer and with forms open, passes the schema
/// (Python's `jsonschema`, which `.ci/run` installs); documents that break the format fail it.
@Suite(.timeLimit(.minutes(5))) struct ViewTreeSchemaTests {
    static let schema = Backend.scenesDirectory.deletingLastPathComponent().appending(path: "docs/view-tree.schema.json")

    /// The schema errors of each document, in order: how many, and the first few.
    /// Checks the documents with Python's jsonschema, waiting for it on a Dispatch thread: a
    /// wait on a thread of Swift's pool (two of them here) stalls every other test meanwhile.
    func schemaErrors(_ documents: [String]) async throws -> [(count: Int, messages: String)] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try Self.blockingSchemaErrors(documents) }) }
        }
    }

    private static func blockingSchemaErrors(_ documents: [String]) throws -> [(count: Int, messages: String)] {
        let directory = FileManager.default.temporaryDirectory.appending(path: "view-trees-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, document) in documents.enumerated() {
            let file = directory.appending(path: "\(index).json")
            try document.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        let checker = Backend.scenesDirectory.deletingLastPathComponent().appending(path: "Tests/Schemas/check_schema.py")
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", checker.path, Self.schema.path] + paths
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus != 3, "Python's jsonschema is missing: pip install jsonschema (.ci/run installs it).")
        try #require(process.terminationStatus == 0, "the schema check failed to run:\n\(text)")
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return Int(parts[0]).map { ($0, parts.count > 1 ? String(parts[1]) : "") }
        }
    }

    @Test func everyBundledSceneWithItsFormsOpenPassesTheSchema() async throws {
        let backend = try Backend()
        let registry = try backend.registry()
        var documents: [String] = []
        func add(
            _ scene: String, _ arguments: [String: JSONValue], viewer: String?, locale: String? = nil,
            _ act: (SceneInstance) async throws -> Void = { _ in }
        ) async throws {
            let instance = try await registry.assemble(
                scene, for: SceneContext(viewer: viewer, arguments: arguments, locale: locale), host: RecordingHost())
            try await act(instance)
            documents.append(JSONRenderer().render(await instance.render(), scene: scene, variant: instance.variant))
        }
        for viewer in ["1", "2", nil] as [String?] {
            try await add("user-profile", ["user": "1"], viewer: viewer)
            try await add("user-profile", ["user": "1"], viewer: viewer, locale: "zh-Hans")
            try await add("blog-detail", ["blog": 27], viewer: viewer)
            try await add("friend-list", ["user": "1"], viewer: viewer)
            try await add("follow-list", ["user": "1", "list": "followers"], viewer: viewer)
            try await add("user-blogs", ["user": "1"], viewer: viewer)
        }
        // The owner with every form open, one with errors on it.
        try await add("user-profile", ["user": "1"], viewer: "1") { page in
            await page.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
            await page.send(try #require(await page.render().action(withID: "info/summary.edit")).event)
            await page.send(try #require(await page.render().action(withID: "drafts/draft.1.edit")).event)
            await page.send(DraftEvents.save.event(DraftEdit(title: "", body: ""), from: "drafts/compose"))
        }
        #expect(documents.last?.contains(#""type" : "form""#) == true && documents.last?.contains("Write a title or some text first.") == true)
        let errors = try await schemaErrors(documents)
        #expect(errors.count == documents.count)
        for (error, document) in zip(errors, documents) {
            #expect(error.count == 0, "schema errors: \(error.messages)\nin \(document.prefix(200))")
        }
    }

    @Test func documentsThatBreakTheFormatFailTheSchema() async throws {
        func document(_ root: String) -> String { #"{"format": "scenery.view-tree", "version": 1, "root": \#(root)}"# }
        let broken = [
            document(#"{"id": "a", "type": "marquee", "text": "hi"}"#),  // no such node type
            document(#"{"id": "a", "type": "text"}"#),  // a text without its text
            document(#"{"id": "a", "type": "button", "title": "Go"}"#),  // a button that sends nothing
            document(#"{"id": "f", "type": "textField", "field": {"name": "title", "value": ""}}"#),  // a field without a label
            document(#"{"id": "f", "type": "textField", "field": {"name": "t", "label": "T", "value": "", "rules": [{"rule": "length"}]}}"#),
            document(#"{"id": "f", "type": "textField", "field": {"name": "t", "label": "T", "value": "", "lines": 0, "multiline": true}}"#),
            document(#"{"id": "f", "type": "form", "form": {}, "children": []}"#),  // a form without its submit control
            document(#"{"id": "f", "type": "form", "form": {"submit": {"title": "Save"}}, "children": []}"#),
            #"{"format": "scenery.view-tree", "version": 2, "root": {"id": "a", "type": "text", "text": "hi"}}"#,
        ]
        let fine = document(
            #"{"id": "f", "type": "form", "form": {"submit": {"title": "Save", "event": {"name": "draft.save"}}, "error": "Too short."}, "children": [{"id": "f.t", "type": "textField", "field": {"name": "t", "label": "T", "value": "", "rules": [{"rule": "length", "min": 1, "max": 9}]}}]}"#
        )
        let errors = try await schemaErrors(broken)
        #expect(errors.count == broken.count)
        for (error, document) in zip(errors, broken) { #expect(error.count > 0, "the schema accepts \(document)") }
        #expect(try await schemaErrors([fine]).map(\.count) == [0], "and it accepts a well-formed form")
    }
}
