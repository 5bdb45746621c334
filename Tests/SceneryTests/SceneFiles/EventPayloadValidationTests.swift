import Foundation
import Scenery
import SceneryTesting
import Testing

/// A scene rule's `$event.key` and `event.key` are checked against the payload its event
/// declares (a typed event, `sends:`), where they are written, with did-you-mean: a
/// misspelled key no longer waits for a tap to fail.
@Suite struct EventPayloadValidationTests {
    struct Pick: Codable, Sendable {
        var item: Int
        var title: String
        var note: String?
    }

    static let pick = EventKind<Pick>("item.pick")

    actor PickerModule: Module {
        static let descriptor = ModuleDescriptor(type: "Picker", summary: "Rows to pick.", sends: [pick])
        init() {}
        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode { .button("pick", title: "Pick", sends: pick.descriptor(Pick(item: 3, title: "Three"))) }
    }

    func problems(rule: String) -> [Diagnostic] {
        var registry = SceneRegistry()
        registry.register(PickerModule.self) { _, _ in PickerModule() }
        registry.addScene(id: "target", source: #"{ "parameters": { "item": "int" }, "modules": [] }"#)
        return registry.addScene(
            id: "picks",
            source: """
                {
                  "modules": [ { "id": "picker", "type": "Picker" } ],
                  "events": [ \(rule) ]
                }
                """)
    }

    @Test func theDeclaredKeysAreFound() {
        #expect(Self.pick.payloadKeys == ["item", "title", "note"])
        #expect(PickerModule.descriptor.payloadKeys == ["item.pick": ["item", "title", "note"]])
    }

    @Test func rulesThatUseTheDeclaredKeysAreValid() {
        let valid = problems(
            rule: #"{ "on": "item.pick", "when": "event.item != 0", "confirm": { "title": "Pick $event.title?", "message": "$event.note" } }"#)
        #expect(valid.filter { $0.severity == .error }.isEmpty, "\(valid)")
        let navigate = problems(rule: #"{ "on": "item.pick", "navigate": { "scene": "target", "args": { "item": "$event.item" } } }"#)
        #expect(navigate.filter { $0.severity == .error }.isEmpty, "\(navigate)")
    }

    @Test func aMisspelledKeyInATemplateIsAnErrorWhereItIsWritten() throws {
        let found = problems(rule: #"{ "on": "item.pick", "confirm": { "title": "Pick $event.titel?" } }"#)
        let problem = try #require(found.first { $0.severity == .error })
        #expect(problem.message == "'$event.titel' is not a field of 'item.pick' (did you mean 'title'?): its payload has item, note, title.")
        #expect(problem.location?.line == 3)
        #expect(problem.location?.column == 64, "at the '$': \(String(describing: problem.location))")
    }

    @Test func aMisspelledKeyInANavigationOrConditionIsAnError() {
        let navigate = problems(rule: #"{ "on": "item.pick", "navigate": { "scene": "target", "args": { "item": "$event.itme" } } }"#)
        #expect(navigate.contains { $0.message.hasPrefix("'$event.itme' is not a field of 'item.pick' (did you mean 'item'?)") }, "\(navigate)")
        let condition = problems(rule: #"{ "on": "item.pick", "when": "event.titl == 'x'", "confirm": { "title": "Sure?" } }"#)
        #expect(condition.contains { $0.message.hasPrefix("'event.titl' is not a field of 'item.pick' (did you mean 'title'?)") }, "\(condition)")
    }

    @Test func aManifestCarriesThePayloadKeysSoToolsCheckThemToo() throws {
        let text = try ModuleManifest(modules: [PickerModule.descriptor]).jsonText()
        #expect(text.contains(#""payloads" : {"#))
        let file = FileManager.default.temporaryDirectory.appending(path: "picker-\(UUID().uuidString).modules.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var registry = SceneRegistry()
        registry.declareModules(from: try ModuleManifest.load(from: file))
        let found = registry.addScene(
            id: "picks",
            source: #"{ "modules": [ { "id": "picker", "type": "Picker" } ], "events": [ { "on": "item.pick", "confirm": { "title": "$event.titel" } } ] }"#)
        #expect(found.contains { $0.message.hasPrefix("'$event.titel' is not a field of 'item.pick'") }, "\(found)")
    }
}
