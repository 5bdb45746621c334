import Foundation
import Scenery
import SceneryProfile
import Testing

/// The JSON Schema and the loader must agree: bundled scenes pass both, invalid fixtures
/// fail both. The schema side runs Python's `jsonschema` (`.ci/run` installs it).
@Suite struct SceneSchemaTests {
    /// Validates files against the schema with Python's jsonschema; returns file → error count.
    func schemaErrors(_ files: [URL]) async throws -> [String: Int] {
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("MISSING jsonschema"); sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                print(path + "\\t" + str(len(list(validator.iter_errors(json.load(open(path)))))))
            """
        let (status, output) = try await runProcess("python3", ["-c", script, Paths.schema.path] + files.map(\.path))
        try #require(status != 3, "Python's jsonschema is missing: pip install jsonschema (.ci/run installs it).")
        try #require(status == 0, "the schema check failed to run:\n\(output)")
        var counts: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
        }
        return counts
    }

    @Test func bundledScenesPassTheSchemaAndTheLoader() async throws {
        let files = Paths.jsonFiles(in: Paths.scenes)
        #expect(files.count == 8)
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
