import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// One list, four layouts: the rows are the same nodes; the scene chooses with `"display"`.
@Suite struct ListLayoutTests {
    /// Six people as cells: a name, a line about them, and a button.
    static func people(_ layout: ViewNode.ListLayout, count: Int = 6) -> ViewNode {
        let names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"].prefix(count)
        let rows = names.enumerated().map { index, name in
            ViewNode.stack(
                NodeID("person.\(index)"),
                [
                    .text(NodeID("person.\(index).name"), name, role: .headline),
                    .text(NodeID("person.\(index).about"), "Friend number \(index + 1)", role: .caption),
                    .button(NodeID("person.\(index).open"), title: "Open", sends: EventDescriptor("user.open", payload: ["user": .string(name)])),
                ])
        }
        return .list("people", layout: layout, sections: [.init(id: "all", header: "Friends", rows: rows)])
    }

    static let layouts: [(String, ViewNode.ListLayout)] = [
        ("rows", .rows), ("grid-3", .grid(columns: 3)), ("adaptive-20", .adaptiveGrid(minimumCellWidth: 20)), ("carousel", .carousel),
    ]

    @Test(arguments: layouts.map(\.0))
    func textDrawsEachLayout(name: String) throws {
        let layout = try #require(Self.layouts.first { $0.0 == name }?.1)
        try Golden.check(TextRenderer(width: 72).render(Self.people(layout)), against: "layout-\(name)-72.txt")
    }

    @Test(arguments: layouts.map(\.0))
    func htmlDrawsEachLayout(name: String) throws {
        let layout = try #require(Self.layouts.first { $0.0 == name }?.1)
        // Two cells are enough: the cells are the same markup in every layout, only the
        // list's classes and attributes differ.
        try Golden.check(HTMLRenderer().fragment(Self.people(layout, count: 2)), against: "layout-\(name).html")
    }

    @Test func aCarouselIsAKeyboardReachableScrollerThatSaysWhatItHolds() {
        let html = HTMLRenderer().fragment(Self.people(.carousel))
        #expect(html.contains(#"<ul data-slot class="track" tabindex="0" aria-label="Friends, scrolls sideways">"#))
        #expect(HTMLRenderer.stylesheet.contains(".carousel ul.track{display:flex"))
        #expect(HTMLRenderer.stylesheet.contains("overflow-x:auto"))
    }

    @Test func layoutsSurviveJSON() throws {
        for (_, layout) in Self.layouts {
            let node = Self.people(layout)
            let decoded = try JSONDecoder().decode(ViewNode.self, from: JSONEncoder().encode(node))
            #expect(decoded == node)
        }
    }

    @Test func theSceneChoosesTheLayoutAndTheModuleDoesNotChange() async throws {
        var registry = SceneRegistry()
        registry.register(PeopleModule.self) { _, _ in PeopleModule() }
        registry.addScene(
            id: "people",
            source: """
                { "modules": [ { "id": "grid", "type": "People", "display": { "columns": 3 } },
                               { "id": "band", "type": "People", "display": "carousel" },
                               { "id": "fit", "type": "People", "display": { "minCellWidth": 24 } },
                               { "id": "plain", "type": "People" } ] }
                """)
        #expect(registry.diagnostics(for: "people").isEmpty)
        let scene = try await registry.assemble("people", for: SceneContext(viewer: nil), host: RecordingHost())
        let tree = await scene.render()
        func layout(of id: NodeID) -> ViewNode.ListLayout? {
            if case .list(let layout, _) = tree.node(withID: id)?.kind { return layout }
            return nil
        }
        #expect(layout(of: "grid/people") == .grid(columns: 3))
        #expect(layout(of: "band/people") == .carousel)
        #expect(layout(of: "fit/people") == .adaptiveGrid(minimumCellWidth: 24))
        #expect(layout(of: "plain/people") == .rows)
        // The rows are the module's own nodes in every layout.
        #expect(tree.node(withID: "grid/person.2.name") == .text("grid/person.2.name", "Carol", role: .headline))
    }

    @Test(arguments: [
        (#""grid""#, "must be \"rows\", \"carousel\""),
        (#"{ "columns": 0 }"#, "must be \"rows\", \"carousel\""),
        (#"{ "columns": 3, "minCellWidth": 20 }"#, "must be \"rows\", \"carousel\""),
        (#"{ "minCellWidth": 100 }"#, "{ \"minCellWidth\": 8 to 60 }"),
    ])
    func aDisplayTheRuntimeCannotDrawIsReportedWhereItIs(value: String, message: String) {
        var registry = SceneRegistry()
        registry.register(PeopleModule.self) { _, _ in PeopleModule() }
        registry.addScene(id: "bad", source: "{ \"modules\": [\n  { \"id\": \"p\", \"type\": \"People\", \"display\": \(value) } ] }")
        let diagnostics = registry.diagnostics(for: "bad")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains(message) == true, "\(diagnostics)")
        #expect(diagnostics.first?.location?.line == 2)
    }
}

/// A module that lists people in rows; scenes lay it out otherwise.
actor PeopleModule: Module {
    static let descriptor = ModuleDescriptor(type: "People", summary: "Six people.", events: ["user.open"], defaultActions: ["user.open"])
    func load(_ request: LoadRequest) async throws {}
    func render() -> ViewNode { ListLayoutTests.people(.rows) }
}
