import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// Rows with a like button each, a retry placeholder, a form with a field, and a field that
/// sends its text as people type: every kind of control a host looks up by id.
actor ControlsTestModule: Module {
    static let descriptor = ModuleDescriptor(type: "Controls", summary: "Every kind of control.")
    static let like = EventKind("row.like", payload: Like.self)
    struct Like: Codable, Sendable, Equatable { var row: Int }

    let context: ModuleContext
    var rows = [1, 2, 3]
    var liked: Set<Int> = []

    init(context: ModuleContext) { self.context = context }

    func load(_ request: LoadRequest) async throws {}

    func render() -> ViewNode {
        .stack(
            "all",
            [
                .list("list", sections: [.init(id: "rows", rows: rows.map(row))]),
                .error("stale", "Could not load.", retry: EventDescriptor("stale.retry")),
                .form(
                    "note", submit: .init(title: "Save", sends: EventDescriptor("note.save")),
                    [.textField("note.text", TextField(name: "text", label: "Note", maximumLength: 40))]),
                .textField("find", TextField(name: "query", label: "Find", changes: EventDescriptor("find.change"))),
            ])
    }

    func render(_ id: NodeID) -> ViewNode? {
        guard id.rawValue.hasPrefix("row."), let number = Int(id.rawValue.dropFirst(4)), rows.contains(number) else { return nil }
        return row(number)
    }

    private func row(_ number: Int) -> ViewNode {
        .stack(
            "row.\(number)", axis: .horizontal,
            [
                .text("row.\(number).title", "Row \(number)"),
                .button("row.\(number).like", title: liked.contains(number) ? "Unlike" : "Like", sends: Self.like.descriptor(Like(row: number))),
            ])
    }

    func perform(_ event: Event) async throws {
        guard let like = try? Self.like.payload(of: event) else { return }
        liked.formSymmetricDifference([like.row])
        await context.setNeedsRender(["row.\(like.row)"])
    }

    /// A row before the others: the list's structure changes, and every later row moves.
    func insertFirst(_ number: Int) async {
        rows.insert(number, at: 0)
        await context.setNeedsRender()
    }

    func remove(_ number: Int) async {
        rows.removeAll { $0 == number }
        await context.setNeedsRender()
    }
}

/// A host finds the control a person tapped by its id, in the tree it was given: the scene
/// keeps an index of its controls, so the lookup builds the tapped control's event alone
/// and agrees with a walk of the tree however the tree changed.
@Suite struct ControlLookupTests {
    static let source = #"""
        { "modules": [ { "id": "c", "type": "Controls" } ],
          "layout": [ { "id": "tabs", "tabs": [ { "id": "one", "title": "One", "modules": ["c"] }, { "id": "two", "title": "Two", "modules": [] } ] } ] }
        """#

    func scene() async throws -> (SceneInstance, ControlsTestModule) {
        var registry = SceneRegistry()
        let made = Locked<ControlsTestModule?>(nil)
        registry.register(ControlsTestModule.self) { _, context in
            let module = ControlsTestModule(context: context)
            made.withLock { $0 = module }
            return module
        }
        let problems = registry.addScene(id: "controls", source: Self.source)
        #expect(problems.isEmpty, "\(problems)")
        let scene = try await registry.assemble("controls", for: SceneContext(viewer: "2"), host: RecordingHost())
        await scene.appear()
        _ = await scene.takeBaseline()
        return (scene, try #require(made.withLock { $0 }))
    }

    /// Every control of the tree, looked up by id on the scene, is the walk's control.
    func expectLookupsAgreeWithTheWalk(_ scene: SceneInstance, sourceLocation: SourceLocation = #_sourceLocation) async {
        let tree = await scene.render()
        let actions = tree.actions
        #expect(actions.count >= 8, "rows, retry, form, field and two tabs", sourceLocation: sourceLocation)
        for action in actions {
            #expect(await scene.action(withID: action.id) == action, "\(action.id)", sourceLocation: sourceLocation)
        }
        #expect(await scene.action(withID: "c/row.99.like") == nil, sourceLocation: sourceLocation)
        #expect(await scene.action(withID: "c/row.1.title") == nil, "a text is no control", sourceLocation: sourceLocation)
        #expect(await scene.action(withID: "nowhere/row.1.like") == nil, sourceLocation: sourceLocation)
    }

    @Test func everyKindOfControlIsFoundByItsIdAsTheWalkFindsIt() async throws {
        let (scene, _) = try await scene()
        await expectLookupsAgreeWithTheWalk(scene)
        #expect(await scene.form(withID: "c/note")?.submit.title == "Save")
        #expect(await scene.field(withID: "c/find")?.name == "query")
        #expect(await scene.form(withID: "c/find") == nil, "a field is no form")
    }

    @Test func aControlChangedInPlaceIsFoundWithItsNewTitleAndEvent() async throws {
        let (scene, _) = try await scene()
        let like = try #require(await scene.action(withID: "c/row.2.like"))
        #expect(like.title == "Like")
        await scene.send(like.event)
        let unlike = try #require(await scene.action(withID: "c/row.2.like"))
        #expect(unlike.title == "Unlike", "the row was rendered again; the lookup reads the tree as it is now")
        #expect(try ControlsTestModule.like.payload(of: unlike.event) == .init(row: 2))
    }

    @Test func afterTheStructureChangesEveryControlIsStillFoundWhereItIsNow() async throws {
        let (scene, module) = try await scene()
        _ = await scene.action(withID: "c/row.3.like")  // the index is made
        await module.insertFirst(7)
        await expectLookupsAgreeWithTheWalk(scene)
        #expect(try ControlsTestModule.like.payload(of: try #require(await scene.action(withID: "c/row.7.like")).event) == .init(row: 7))
        await module.remove(2)
        await expectLookupsAgreeWithTheWalk(scene)
        #expect(await scene.action(withID: "c/row.2.like") == nil, "a removed row's control is gone")
        #expect(await scene.action(withID: "c/row.3.like") != nil)
    }

    @Test func activatingAControlSendsItsEventOrSaysWhyNot() async throws {
        let (scene, _) = try await scene()
        let liked = try await scene.activate("c/row.1.like")
        #expect(liked.event.source == "c/row.1.like")
        #expect(await scene.action(withID: "c/row.1.like")?.title == "Unlike")
        let typed = try await scene.activate("c/find", values: ["query": "milk"])
        #expect(typed.event.name == "find.change" && typed.event.payload["query"] == "milk")
        let saved = try await scene.activate("c/note", values: ["text": "Buy milk"])
        #expect(saved.event.name == "note.save" && saved.event.payload["text"] == "Buy milk")
        await #expect(throws: SceneInstance.ActivationRefusal.noControl("c/row.9.like")) { try await scene.activate("c/row.9.like") }
        await #expect(throws: SceneInstance.ActivationRefusal.takesNoText("c/row.1.like")) {
            try await scene.activate("c/row.1.like", values: ["text": "hi"])
        }
        await #expect(throws: SceneInstance.ActivationRefusal.takesNoText("c/find"), "another field's name") {
            try await scene.activate("c/find", values: ["other": "x"])
        }
        let tooLong = await #expect(throws: SceneInstance.ActivationRefusal.self) {
            try await scene.activate("c/note", values: ["text": String(repeating: "x", count: 41)])
        }
        guard case .invalidText(let problems)? = tooLong else {
            Issue.record("not refused for its text: \(String(describing: tooLong))")
            return
        }
        #expect(problems.fields["text"] != nil, "\(problems)")
        #expect(tooLong?.description.hasPrefix("The form was not sent: ") == true)
    }

    @Test func aTreeFindsAControlByWalkingAsItsActionsListIt() {
        let tree = ViewNode.stack(
            "root",
            [
                .button("same", title: "First", sends: EventDescriptor("first")),
                ViewNode(
                    id: "tabs",
                    kind: .tabs(
                        .init(
                            tabs: [.init(id: "a", title: "A", event: EventDescriptor("tab.a")), .init(id: "b", title: "B", event: EventDescriptor("tab.b"))],
                            selection: "a", content: .empty("e", "Empty")))),
                .button("same", title: "Second", sends: EventDescriptor("second")),
            ])
        #expect(tree.action(withID: "same")?.title == "First", "the first in display order")
        #expect(tree.action(withID: "tabs#b")?.title == "B")
        #expect(tree.action(withID: "tabs#c") == nil)
        #expect(tree.action(withID: "root") == nil, "a stack is no control")
        #expect(ControlIndex(tree).action(withID: "same", in: tree)?.title == "First")
        #expect(ControlIndex(tree).action(withID: "tabs#a", in: tree) == tree.action(withID: "tabs#a"))
    }
}
