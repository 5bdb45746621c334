// scenery-bench: the performance table of BENCHMARKS.md, side by side in one run.
//
//   swift run -c release scenery-bench            # everything (the 100k standard-library diff takes minutes)
//   swift run -c release scenery-bench --quick    # skip the 100k standard-library diff
//
// Timings are medians of several runs on a release build; never run in unit tests.

import Foundation
import Scenery

let arguments = CommandLine.arguments
if let probe = arguments.firstIndex(of: "--memory-probe").map({ arguments[$0 + 1] }) {
    await memoryProbe(probe)
    exit(0)
}
let quick = arguments.contains("--quick")

print("# Scenery benchmarks")
print("")
print("Machine: \(Machine.description)")
print("Build: release (swift run -c release scenery-bench\(quick ? " --quick" : ""))")

// 1. List diff
var diffTable = Table(
    title: "1. List diff, 10% inserts + 10% deletes + 10% moves + 10% updates",
    header: ["rows", "ListDiff", "per row", "moves reported", "difference(from:)", "ratio"])
var diffTimes: [Int: Double] = [:]
for count in [1_000, 10_000, 100_000] {
    let (old, new) = listWorkload(count: count)
    var diff = ListDiff<Int>(from: [Int](), to: [])
    let ours = Measure.median(runs: count >= 100_000 ? 5 : 15) { diff = ListDiff(from: old, to: new) }
    diffTimes[count] = ours
    precondition(diff.applying(to: old, new: new) == new, "the diff must reproduce the new list")
    let skipOracle = quick && count >= 100_000
    let oracle = skipOracle ? nil : Measure.median(runs: count >= 100_000 ? 1 : 3, warmUp: count < 100_000) { _ = new.difference(from: old) }
    diffTable.add(
        "\(count)", Measure.format(ours), String(format: "%.0f ns", ours / Double(count) * 1e9), "\(diff.moves.count) (of \(count / 10) moved)",
        oracle.map(Measure.format) ?? "skipped (--quick)", oracle.map { String(format: "%.0f×", $0 / ours) } ?? "—")
}
print(diffTable.render())
if let ten = diffTimes[10_000], let hundred = diffTimes[100_000] {
    print(String(format: "\nGrowth 10k → 100k: %.1f× (linear would be 10×).", hundred / ten))
}

// 2. One-row change in a 10,000-row scene
let counter = UpdateCounter()
let holder = Holder()
var registry = SceneRegistry()
registry.register(LongListModule.self) { parameters, context in
    let module = try LongListModule(parameters: parameters, context: context)
    holder.module.withLock { $0 = module }
    return module
}
registry.register(SlowModule.self) { parameters, _ in try SlowModule(parameters: parameters) }
registry.addScene(id: "long", source: #"{ "modules": [ { "id": "list", "type": "LongList", "params": { "rows": 10000 } } ] }"#)
let longScene = try await registry.assemble("long", for: SceneContext(viewer: nil), host: NullHost(counter: counter))
let fullTree = await longScene.render()
let list = holder.module.withLock { $0 }!
var row = 0
let incremental = await Measure.median(runs: 200) {
    row = (row + 7) % 10_000
    await list.like(row, rowOnly: true)
}
_ = counter.take()
await list.like(1234, rowOnly: true)
let incrementalPatches = counter.take()
let full = await Measure.median(runs: 15) {
    row = (row + 7) % 10_000
    await list.like(row, rowOnly: false)
}
_ = counter.take()
await list.like(4321, rowOnly: false)
let fullPatches = counter.take()
var updateTable = Table(title: "2. One-row change in a 10,000-row scene", header: ["path", "time", "patches", "ratio"])
updateTable.add("incremental (module re-renders the row)", Measure.format(incremental), "\(incrementalPatches)", "1×")
updateTable.add("full re-render + diff", Measure.format(full), "\(fullPatches)", String(format: "%.0f× slower", full / incremental))
print(updateTable.render())

// 3. Scene assembly with modules of 50, 80 and 120 ms
registry.addScene(
    id: "slow",
    source: """
        { "modules": [ { "id": "a", "type": "Slow", "params": { "milliseconds": 50 } },
                       { "id": "b", "type": "Slow", "params": { "milliseconds": 80 } },
                       { "id": "c", "type": "Slow", "params": { "milliseconds": 120 } } ] }
        """)
let ready = await Measure.median(runs: 9) {
    _ = try? await registry.assemble("slow", for: SceneContext(viewer: nil), host: NullHost(counter: counter))
}
var assemblyTable = Table(title: "3. Scene assembly, modules loading in 50, 80 and 120 ms", header: ["ready", "slowest module", "ratio (target < 1.1)"])
assemblyTable.add(Measure.format(ready), "120.00 ms", String(format: "%.3f", ready / 0.120))
print(assemblyTable.render())

// 4. Loading 1,000 scene files; rendering 10,000 rows
let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
var bytes = 0
for index in 0..<1000 {
    let modules = (0..<10).map { m in
        m % 2 == 0
            ? #"{ "id": "m\#(m)", "type": "TextModule", "params": { "title": "Scene \#(index) block \#(m)", "body": "Hello, $name" } }"#
            : #"{ "id": "m\#(m)", "type": "ActionModule", "params": { "title": "Go \#(m)", "action": "go\#(m)" } }"#
    }.joined(separator: ",\n    ")
    let next = index == 999 ? 0 : index + 1
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
var problems = 0
let loading = Measure.median(runs: 3) {
    var fresh = SceneRegistry()
    problems = (try? fresh.loadScenes(in: directory))?.count ?? -1
}
precondition(problems == 0, "the generated scenes must validate")
var loadTable = Table(title: "4a. Loading and validating 1,000 scene files (10 modules each)", header: ["files", "size", "time", "files/s", "MB/s"])
loadTable.add(
    "1000", String(format: "%.1f MB", Double(bytes) / 1e6), Measure.format(loading), String(format: "%.0f", 1000 / loading),
    String(format: "%.1f", Double(bytes) / 1e6 / loading))
print(loadTable.render())

var renderTable = Table(title: "4b. Rendering a 10,000-row scene", header: ["format", "time", "rows/s", "output"])
for (name, render) in [
    ("text", { TextRenderer().render(fullTree) }), ("json", { JSONRenderer().render(fullTree) }),
    ("html", { HTMLRenderer().render(fullTree) }),
] as [(String, () -> String)] {
    var size = 0
    let time = Measure.median(runs: 5) { size = render().utf8.count }
    renderTable.add(name, Measure.format(time), String(format: "%.0f", 10_000 / time), String(format: "%.1f MB", Double(size) / 1e6))
}
print(renderTable.render())

// 5. Peak memory, 100,000 rows through a 50-row window vs all rendered
var memoryTable = Table(title: "5. Peak memory, a 100,000-row list", header: ["rendered", "peak RSS"])
for mode in ["data", "window", "full"] {
    let process = Process()
    process.executableURL = URL(filePath: CommandLine.arguments[0])
    process.arguments = ["--memory-probe", mode]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let label = ["data": "nothing (the module's data only)", "window": "a 50-row window", "full": "all 100,000 rows"][mode]!
    memoryTable.add(label, output.trimmingCharacters(in: .whitespacesAndNewlines) + " MiB")
}
print(memoryTable.render())

/// One memory measurement in a fresh process: print the peak RSS in MiB.
func memoryProbe(_ mode: String) async {
    func stage(_ name: String) {
        if ProcessInfo.processInfo.environment["SCENERY_BENCH_STAGES"] != nil {
            FileHandle.standardError.write(Data("\(name): \(String(format: "%.1f", Measure.peakMemoryMiB)) MiB\n".utf8))
        }
    }
    stage("start")
    var registry = SceneRegistry()
    registry.register(LongListModule.self) { try LongListModule(parameters: $0, context: $1) }
    registry.addScene(id: "big", source: #"{ "modules": [ { "id": "list", "type": "LongList", "params": { "rows": 100000 } } ] }"#)
    stage("registry")
    guard let scene = try? await registry.assemble("big", for: SceneContext(viewer: nil), host: NullHost(counter: UpdateCounter())) else { return }
    stage("assembled")
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

enum Machine {
    static var description: String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(String(format: "%.0f", memory)) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }
}
