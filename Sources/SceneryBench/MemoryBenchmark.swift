import Foundation
import Scenery

/// Peak memory of a 100,000-row list, each case in a fresh process.
enum MemoryBenchmark {
    static func run(_ options: BenchmarkOptions) throws -> Table {
        var table = Table("Peak memory: a 100,000-row list", header: ["rendered", "peak RSS"])
        for mode in ["data", "window", "full"] {
            let output = try Measure.inFreshProcess(["--memory-probe", mode])
            let label = ["data": "nothing (the module's data only)", "window": "a 50-row window", "full": "all 100,000 rows"][mode]!
            table.add(label, output + " MiB")
        }
        table.notes.append("Each case runs in a fresh process and reads VmHWM from /proc/self/status.")
        return table
    }

    /// One measurement in this (fresh) process: prints the peak RSS in MiB.
    static func probe(_ mode: String) async {
        var registry = SceneRegistry()
        registry.register(LongListModule.self) { try LongListModule(parameters: $0, context: $1) }
        registry.addScene(id: "big", source: #"{ "modules": [ { "id": "list", "type": "LongList", "params": { "rows": 100000 } } ] }"#)
        guard let scene = try? await registry.assemble("big", for: SceneContext(viewer: nil), host: NullHost(counter: UpdateCounter())) else { return }
        switch mode {
        case "window":
            await scene.setWindow(RowWindow(start: 50_000, count: 50), for: "list")
            let text = TextRenderer().render(await scene.render())
            precondition(text.contains("Row number 50000"))
        case "full":
            let text = TextRenderer().render(await scene.render())
            precondition(text.contains("Row number 99999"))
        default:
            break
        }
        print(String(format: "%.1f", Measure.peakMemoryMiB))
    }
}
