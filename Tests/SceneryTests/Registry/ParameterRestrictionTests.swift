import SceneryTesting
import Testing

@testable import Scenery

@Suite struct ParameterRestrictionTests {
    actor Pick: Module {
        static let descriptor = ModuleDescriptor(
            type: "Pick", summary: "Picks.",
            parameters: [
                ParameterSpec("list", .string, default: "followers", allowedValues: ["followers", "following"]),
                ParameterSpec("size", .int, default: 10, range: 1...100),
            ])
        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode { .stack("s", []) }
    }

    func registry(_ source: String) -> (SceneRegistry, [Diagnostic]) {
        var registry = SceneRegistry(builtIns: false)
        registry.register(Pick.self) { _, _ in Pick() }
        let problems = registry.addScene(id: "s", source: source)
        return (registry, problems)
    }

    @Test func allowedValuesAreValidatedWithASuggestion() {
        let (_, problems) = registry(#"{ "modules": [ { "id": "a", "type": "Pick", "params": { "list": "folowers" } } ] }"#)
        #expect(
            problems.map(\.message) == ["Pick: 'folowers' is not an allowed value of 'list'; did you mean 'followers'? (allowed values: followers, following)."]
        )
    }

    @Test(arguments: [0, 101])
    func rangesAreValidated(size: Int) {
        let (_, problems) = registry(#"{ "modules": [ { "id": "a", "type": "Pick", "params": { "size": \#(size) } } ] }"#)
        #expect(problems.map(\.message) == ["Pick: 'size' must be from 1 to 100, not \(size)."])
    }

    @Test func restrictionsAlsoHoldForValuesFromArguments() async {
        let (registry, problems) = registry(
            #"{ "parameters": { "n": "int" }, "modules": [ { "id": "a", "type": "Pick", "params": { "size": "$n" } } ] }"#)
        #expect(problems.isEmpty)
        await #expect {
            _ = try await registry.assemble("s", for: SceneContext(viewer: nil, arguments: ["n": 500]), host: RecordingHost())
        } throws: { error in
            (error as? SceneryError)?.message == "The module 'a' of 's': 'size' must be from 1 to 100, not 500."
        }
    }
}
