import Foundation
import ProfileDemo
import Scenery
import Testing

/// The JSON Schema and the loader must agree: bundled scenes pass both, invalid fixtures
/// fail both. The schema side runs Python's `jsonschema` (`.ci/run` installs it).
@Suite struct SceneSchemaTests {
    /// Validates files against the schema with Python's jsonschema (`Tests/Schemas/check_schema.py`);
    /// returns file → error count.
    func schemaErrors(_ files: [URL]) async throws -> [String: Int] {
        let checker = Paths.packageRoot.appending(path: "Tests/Schemas/check_schema.py")
        let (status, output) = try await runProcess("python3", [checker.path, Paths.schema.path] + files.map(\.path))
        try #require(status != 3, "Python's jsonschema is missing: pip install jsonschema (.ci/run installs it).")
        try #require(status == 0, "the schema check failed to run:\n\(output)")
        let counts = output.split(separator: "\n").compactMap { Int($0.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
        try #require(counts.count == files.count, "the schema check answered \(counts.count) of \(files.count) files:\n\(output)")
        return Dictionary(uniqueKeysWithValues: zip(files.map(\.path), counts))
    }

    @Test func bundledScenesPassTheSchemaAndTheLoader() async throws {
        let files = Paths.jsonFiles(in: Paths.scenes)
        #expect(files.count == 5)
        let counts = try await schemaErrors(files)
        for file in files { #expect(counts[file.path] == 0, "\(file.lastPathComponent) fails the schema") }
        var registry = SceneRegistry()
        registry.declareProfileModules()
        #expect(try registry.loadScenes(files: files).isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains(#""$schema": "./scene.schema.json""#), "\(file.lastPathComponent) should reference the schema")
        }
    }

    @Test func invalidFixturesFailBothTheSchemaAndTheLoader() async throws {
        let files = Paths.jsonFiles(in: Paths.invalidScenes)
        #expect(files.count >= 15)
        let counts = try await schemaErrors(files)
        for file in files {
            #expect((counts[file.path] ?? 0) > 0, "the schema accepts \(file.lastPathComponent)")
            var registry = SceneRegistry()
            let problems = try registry.loadScenes(files: [file])
            #expect(problems.containsErrors, "the loader accepts \(file.lastPathComponent)")
        }
    }
}
