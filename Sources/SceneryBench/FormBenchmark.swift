import Foundation
import Scenery

/// What a form costs a live page: the memory an idle page with a two-field form holds
/// beside the same page without it, and the bytes of a change event and of a submit.
enum FormBenchmark {
    static func run(_ options: BenchmarkOptions) throws -> Table {
        var table = Table("Forms: memory per idle page, bytes per message", header: ["measure", "without a form", "with a form", "extra"])
        let pages = 1_000
        let memory = try [false, true].map { try Measure.inFreshProcess(["--form-memory-probe", "\($0 ? "form" : "plain"):\(pages)"]) }
        let extra = (Double(memory[1]) ?? 0) - (Double(memory[0]) ?? 0)
        table.add("idle 10-row page at \(pages.formatted()) pages (RSS per page)", memory[0] + " KiB", memory[1] + " KiB", String(format: "%+.1f KiB", extra))
        let key = ActionKey.random().rawValue
        let change = #"{"type":"event","node":"notes/find","action":"\#(key)","values":{"query":"room"}}"#
        let typed = #"{"title":"March notes","body":"Ten words of text typed into the body of the draft here."}"#
        let submit = #"{"type":"event","node":"notes/compose","action":"\#(key)","values":\#(typed)}"#
        table.add("a change event (4 characters typed), page → server", "–", "\(change.utf8.count) B", "")
        table.add("a submit (two fields, 66 characters typed), page → server", "–", "\(submit.utf8.count) B", "")
        table.notes.append(
            "Memory: RSS growth per scene after assembling, appearing and taking a baseline of \(pages.formatted()) scenes of one module "
                + "showing 10 rows, in a fresh process each; 'with a form' adds a form of two fields (a title with three rules, a text area).")
        table.notes.append("Bytes: the page protocol's messages as the page script sends them (the text typed, the field's name, the action key).")
        return table
    }

    /// One measurement in this (fresh) process: prints the resident memory per page, KiB.
    static func probe(_ argument: String) async {
        let parts = argument.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]) else { return }
        let withForm = parts[0] == "form"
        var registry = SceneRegistry()
        registry.register(RowsModule.self) { _, context in RowsModule(context: context, withForm: withForm) }
        guard registry.addScene(id: "rows", source: #"{"modules": [{"id": "rows", "type": "RowsModule"}]}"#).isEmpty else { return }
        var scenes: [SceneInstance] = []
        scenes.reserveCapacity(count + 1)
        var baseline = 0.0
        for index in 0...count {
            guard let scene = try? await registry.assemble("rows", for: SceneContext(viewer: "\(index % 7 + 1)"), host: NullSceneHost()) else { return }
            await scene.appear()
            _ = await scene.takeBaseline()
            scenes.append(scene)
            if index == 0 { baseline = Measure.residentMemoryKiB }
        }
        print(String(format: "%.1f", (Measure.residentMemoryKiB - baseline) / Double(count)))
        withExtendedLifetime(scenes) {}
    }
}

/// Ten rows with a like button each, and, for the form case, a form of two fields.
private actor RowsModule: Module {
    static let descriptor = ModuleDescriptor(type: "RowsModule", summary: "Ten rows, with or without a form.")
    let context: ModuleContext
    let withForm: Bool

    init(context: ModuleContext, withForm: Bool) {
        self.context = context
        self.withForm = withForm
    }

    func load(_ request: LoadRequest) async throws {}

    func render() -> ViewNode {
        let rows = (1...10).map { number in
            ViewNode.stack(
                "row.\(number)", axis: .horizontal,
                [
                    .text("row.\(number).title", "Notes number \(number)"),
                    .button("row.\(number).like", title: "Like", sends: EventDescriptor("row.like", payload: ["row": .int(number)])),
                ])
        }
        var children: [ViewNode] = [.list("list", sections: [.init(id: "all", header: "Rows", rows: rows)])]
        if withForm {
            children.append(
                .form(
                    "compose", submit: .init(title: "Save draft", sends: "draft.save"),
                    [
                        .textField(
                            "compose.title",
                            TextField(
                                name: "title", label: "Title", maximumLength: 120,
                                rules: [.required(), .length(3...120), .matching("[^<>]+", "No angle brackets.")])),
                        .textField("compose.body", TextField(name: "body", label: "Text", lines: .multiple(6))),
                    ]))
        }
        return .stack("content", children)
    }
}
