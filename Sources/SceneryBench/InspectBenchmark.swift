import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery

/// The inspector's cost: resolving a part of a page to the module and scene file line that
/// placed it (`SceneInstance.inspect(_:)`), on Bob's view of Alice's profile, and on a page
/// whose module names 10,000 rows in its state (cut to a bound).
enum InspectBenchmark {
    static let inspections = 2_000

    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var table = Table("Resolving a part of a page to its scene file line", header: ["page", "min / inspection", "median / inspection", "answer"])
        let (store, directory) = try FanOutBenchmark.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let services = ProfileServices(profiles: store, blogs: store, drafts: store, relationships: store, changes: nil)
        let profile = try await FanOutBenchmark.registry(services)
            .assemble("user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: NullSceneHost())
        var rowsRegistry = SceneRegistry()
        rowsRegistry.register(StatefulRowsModule.self) { _, _ in StatefulRowsModule() }
        let problems = rowsRegistry.addScene(id: "rows", source: #"{"modules": [{"id": "rows", "type": "StatefulRowsModule"}]}"#)
        guard problems.isEmpty else { throw ValidationFailure("the rows scene: \(problems)") }
        let rows = try await rowsRegistry.assemble("rows", for: SceneContext(viewer: "2"), host: NullSceneHost())

        let like: NodeID = "blogs/blog.26.like"
        let samples = await Measure.interleaved(
            rounds: options.rounds(5),
            [
                { for _ in 0..<inspections { _ = await profile.inspect(like) } },
                { for _ in 0..<inspections / 20 { _ = await rows.inspect("rows/row.9999") } },
            ])
        let answer = { (inspection: SceneInstance.Inspection?) in
            let bytes = (try? JSONEncoder().encode(inspection)).map { "\($0.count) bytes of JSON" } ?? "none"
            return "\(inspection?.placement ?? "-"), \(bytes)"
        }
        table.add(
            "the profile, Bob's like (\(like))", Measure.format(samples[0].minimum / Double(inspections)),
            Measure.format(samples[0].median / Double(inspections)), answer(await profile.inspect(like)))
        table.add(
            "a module naming 10,000 rows in its state", Measure.format(samples[1].minimum / Double(inspections / 20)),
            Measure.format(samples[1].median / Double(inspections / 20)), answer(await rows.inspect("rows/row.9999")))
        table.notes.append(
            "In process, the scene assembled and loaded: the module found by the node's id, its scene file position looked up in the registry's "
                + "definitions, its state asked and cut (16 entries, 120 characters). What /inspect adds is one HTTP request on this machine.")
        await profile.leave()
        await rows.leave()
        return table
    }
}

/// A module that names every one of its 10,000 rows in its state, as a careless module would.
private actor StatefulRowsModule: Module {
    static let descriptor = ModuleDescriptor(type: "StatefulRowsModule", summary: "10,000 rows, all in its state.")
    let rows = (0..<10_000).map { "Row \($0), with some words to show" }

    func load(_ request: LoadRequest) async throws {}
    func render() -> ViewNode { .text("count", "\(rows.count) rows") }
    func inspectableState() -> [String: JSONValue] { ["rows": .array(rows.map { .string($0) })] }
}
