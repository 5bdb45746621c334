import Foundation
import Scenery

/// Loading and validating 1,000 scene files, against only reading and parsing them with
/// Foundation's `JSONSerialization` (no positions, no validation): the floor.
enum LoadingBenchmark {
    static func run(_ options: BenchmarkOptions) throws -> Table {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try writeScenes(count: 1000, to: directory)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        var problems = 0
        var parsed = 0
        let samples = Measure.interleaved(
            rounds: options.rounds(9),
            [
                {
                    var registry = SceneRegistry()
                    problems = (try? registry.loadScenes(in: directory))?.count ?? -1
                },
                {
                    parsed = 0
                    for file in files {
                        if let data = try? Data(contentsOf: file), (try? JSONSerialization.jsonObject(with: data)) != nil { parsed += 1 }
                    }
                },
            ])
        precondition(problems == 0, "the generated scenes must validate")
        precondition(parsed == 1000, "the generated scenes must parse")
        var table = Table(
            "Loading and validating 1,000 scene files (10 modules each, \(String(format: "%.1f", Double(bytes) / 1e6)) MB)",
            header: ["contender", "min", "median", "files/s", "target ≤ 150 ms"])
        table.add(
            "SceneRegistry.loadScenes(in:): parse with positions, validate all", Measure.format(samples[0].minimum),
            Measure.format(samples[0].median), String(format: "%.0f", 1000 / samples[0].median), verdict(samples[0].median <= 0.150))
        table.add(
            "for comparison: read and JSONSerialization only", Measure.format(samples[1].minimum), Measure.format(samples[1].median),
            String(format: "%.0f", 1000 / samples[1].median), "")
        return table
    }

    /// Writes `count` scenes that each navigate to the next; returns their total size.
    static func writeScenes(count: Int, to directory: URL) throws -> Int {
        var bytes = 0
        for index in 0..<count {
            let modules = (0..<10).map { m in
                m % 2 == 0
                    ? #"{ "id": "m\#(m)", "type": "TextModule", "params": { "title": "Scene \#(index) block \#(m)", "body": "Hello, $name" } }"#
                    : #"{ "id": "m\#(m)", "type": "ActionModule", "params": { "title": "Go \#(m)", "action": "go\#(m)" } }"#
            }.joined(separator: ",\n    ")
            let next = index == count - 1 ? 0 : index + 1
            let text = """
                {
                  "title": "Scene \(index)",
                  "parameters": { "name": { "type": "string", "default": "friend" } },
                  "modules": [
                    \(modules)
                  ],
                  "variants": [ { "name": "signed-out", "when": "viewer == null", "remove": ["m1"] } ],
                  "events": [ { "on": "action.tap", "when": "event.action == 'go3'", "navigate": { "scene": "scene-\(next)" } } ]
                }
                """
            bytes += text.utf8.count
            try text.write(to: directory.appending(path: "scene-\(index).json"), atomically: false, encoding: .utf8)
        }
        return bytes
    }
}
