import Scenery

/// Text, JSON and HTML of a 10,000-row scene, interleaved.
enum RenderingBenchmark {
    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var registry = SceneRegistry()
        registry.register(LongListModule.self) { try LongListModule(parameters: $0, context: $1) }
        registry.addScene(id: "long", source: #"{ "modules": [ { "id": "list", "type": "LongList", "params": { "rows": 10000 } } ] }"#)
        let scene = try await registry.assemble("long", for: SceneContext(viewer: nil), host: NullHost(counter: UpdateCounter()))
        let tree = await scene.render()
        var sizes = [0, 0, 0]
        let samples = Measure.interleaved(
            rounds: options.rounds(5),
            [
                { sizes[0] = TextRenderer().render(tree).utf8.count },
                { sizes[1] = JSONRenderer().render(tree).utf8.count },
                { sizes[2] = HTMLRenderer().render(tree).utf8.count },
            ])
        var table = Table("Rendering a 10,000-row scene", header: ["format", "min", "median", "rows/s", "output"])
        for (index, name) in ["text", "json", "html"].enumerated() {
            table.add(
                name, Measure.format(samples[index].minimum), Measure.format(samples[index].median),
                String(format: "%.0f", 10_000 / samples[index].median), String(format: "%.1f MB", Double(sizes[index]) / 1e6))
        }
        return table
    }
}
