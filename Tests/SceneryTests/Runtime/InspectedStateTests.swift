import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// What an inspection says of a module's state (``Module/inspectableState()``): as the
/// module says it, with its parameters and window, and bounded whatever the module holds.
@Suite struct InspectedStateTests {
    /// A module of 10,000 rows that names every row in its state, as a careless module would.
    actor RowsModule: Module {
        static let descriptor = ModuleDescriptor(
            type: "RowsModule", summary: "Ten thousand rows.", parameters: [.init("rows", .int, summary: "How many.")])
        let rows: [String]

        init(count: Int) {
            rows = (0..<count).map { "Row \($0): " + String(repeating: "words ", count: 40) }
        }

        func load(_ request: LoadRequest) async throws {}

        func render() -> ViewNode {
            .list("list", sections: [.init(id: "all", rows: rows.indices.map { .text(NodeID("row.\($0)"), rows[$0]) })])
        }

        func inspectableState() -> [String: JSONValue] {
            [
                "rows": .array(rows.map { .string($0) }), "count": .int(rows.count),
                "byRow": .object(Dictionary(uniqueKeysWithValues: rows.indices.map { ("\($0)", .string(rows[$0])) })),
            ]
        }
    }

    func scene() async throws -> SceneInstance {
        var registry = SceneRegistry()
        registry.register(RowsModule.self) { parameters, _ in RowsModule(count: try parameters.int("rows")) }
        let problems = registry.addScene(id: "rows", source: #"{ "modules": [ { "id": "rows", "type": "RowsModule", "params": { "rows": 10000 } } ] }"#)
        #expect(problems.isEmpty, "\(problems)")
        return try await registry.assemble("rows", for: SceneContext(viewer: "1"), host: RecordingHost())
    }

    @Test func aModuleOfTenThousandRowsInspectsInAFewKilobytes() async throws {
        let scene = try await scene()
        let inspection = try #require(await scene.inspect("rows/row.9999"))
        #expect(inspection.state["count"] == .int(10_000), "a number is kept as it is")
        guard case .array(let rows)? = inspection.state["rows"], case .object(let byRow)? = inspection.state["byRow"] else {
            Issue.record("the state's list and object are kept, cut: \(inspection.state.keys)")
            return
        }
        #expect(rows.count == SceneInstance.Inspection.mostStateEntries)
        #expect(byRow.count == SceneInstance.Inspection.mostStateEntries)
        #expect(rows.allSatisfy { ($0.stringValue?.count ?? .max) <= SceneInstance.Inspection.longestStateText + 1 }, "each text cut, with an ellipsis")
        let encoded = try JSONEncoder().encode(inspection)
        #expect(encoded.count < 8_192, "the inspector's answer, \(encoded.count) bytes")
        #expect(inspection.description.utf8.count < 8_192)
        #expect(inspection.parameters == ["rows": 10000], "the parameters as the scene file wrote them")
        #expect(inspection.description.contains("parameters: rows=10000"), "\(inspection.description)")
        await scene.leave()
    }

    @Test func aModuleThatSaysNothingOfItsStateShowsNone() async throws {
        var registry = SceneRegistry.testing(TestService())
        #expect(registry.addScene(id: "text", source: #"{ "modules": [ { "id": "text", "type": "TextModule", "params": { "title": "Hi" } } ] }"#).isEmpty)
        let scene = try await registry.assemble("text", for: SceneContext(viewer: "1"), host: RecordingHost())
        let inspection = try #require(await scene.inspect("text"))
        #expect(inspection.state.isEmpty)
        #expect(!inspection.description.contains("state:"), "\(inspection.description)")
        #expect(inspection.window == nil)
        await scene.leave()
    }

    @Test func aWindowedListSaysWhichRowsThePageShows() async throws {
        let scene = try await scene()
        await scene.setWindow(RowWindow(start: 40, count: 30), for: "rows")
        let inspection = try #require(await scene.inspect("rows"))
        #expect(inspection.window == RowWindow(start: 40, count: 30))
        #expect(inspection.description.contains("window: rows 40–69"), "\(inspection.description)")
        await scene.leave()
    }
}
