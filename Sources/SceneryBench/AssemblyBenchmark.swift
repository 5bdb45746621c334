import Scenery

/// A scene whose modules load in 50, 80 and 120 ms is ready when its slowest module is.
enum AssemblyBenchmark {
    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var registry = SceneRegistry()
        registry.register(SlowModule.self) { parameters, _ in try SlowModule(parameters: parameters) }
        registry.addScene(
            id: "slow",
            source: """
                { "modules": [ { "id": "a", "type": "Slow", "params": { "milliseconds": 50 } },
                               { "id": "b", "type": "Slow", "params": { "milliseconds": 80 } },
                               { "id": "c", "type": "Slow", "params": { "milliseconds": 120 } } ] }
                """)
        let counter = UpdateCounter()
        let ready = await Measure.repeated(rounds: options.rounds(9)) {
            _ = try? await registry.assemble("slow", for: SceneContext(viewer: nil), host: NullHost(counter: counter))
        }
        var table = Table("Scene assembly: modules loading in 50, 80 and 120 ms", header: ["contender", "min", "median", "vs slowest", "target < 1.1×"])
        table.add(
            "ready", Measure.format(ready.minimum), Measure.format(ready.median), String(format: "%.3f×", ready.median / 0.120),
            verdict(ready.median / 0.120 < 1.1))
        table.add("slowest module alone", "120.00 ms", "120.00 ms", "1×", "")
        return table
    }
}
