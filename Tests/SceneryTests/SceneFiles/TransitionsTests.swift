import Scenery
import SceneryTesting
import Testing

/// A module's transitions in its scene file: each change with an effect it takes, errors at
/// the line and column of what is wrong, nothing moving without them.
@Suite struct TransitionsTests {
    func problems(_ transitions: String) -> [Diagnostic] {
        var registry = SceneRegistry.testing(TestService())
        return registry.addScene(
            id: "moving",
            source: """
                {
                  "modules": [
                    { "id": "items", "type": "ItemsModule", "params": { "owner": "1" },
                      "transitions": \(transitions) }
                  ]
                }
                """)
    }

    @Test func aSceneDeclaresHowEachModuleMovesAndTheSceneKnowsIt() async throws {
        var registry = SceneRegistry.testing(TestService())
        let source = """
            { "modules": [
              { "id": "a", "type": "ItemsModule", "params": { "owner": "1" },
                "transitions": { "appear": "fade", "disappear": "slide", "move": "slide", "change": "highlight" } },
              { "id": "b", "type": "ItemsModule", "params": { "owner": "1" } }
            ] }
            """
        #expect(registry.addScene(id: "moving", source: source).isEmpty)
        let scene = try await registry.assemble("moving", for: SceneContext(viewer: "1"), host: RecordingHost())
        let a = try #require(scene.transitions["a"])
        #expect(a.effect(for: .appear) == .fade)
        #expect(a.effect(for: .disappear) == .slide)
        #expect(a.effect(for: .move) == .slide)
        #expect(a.effect(for: .change) == .highlight)
        #expect(scene.transitions["b"] == nil, "a module without transitions does not move")
    }

    @Test func anEffectAChangeDoesNotTakeIsAnErrorAtItsPlace() throws {
        let found = problems(#"{ "move": "fade" }"#)
        #expect(found.count == 1)
        let problem = try #require(found.first)
        #expect(problem.message == #"'modules[0].transitions.move' must be "slide", not "fade"; leave it out for no motion."#)
        #expect(problem.location?.line == 4)
    }

    @Test(arguments: [
        (#"{ "wobble": "fade" }"#, "Unknown key \"wobble\""),
        (#"{ "appear": 1 }"#, "'modules[0].transitions.appear' must be a string"),
        (#""fade""#, "'modules[0].transitions' must be an object"),
        (#"{ "change": "sparkle" }"#, #"must be "highlight" or "fade", not "sparkle""#),
    ])
    func aMalformedTransitionIsAnErrorThatSaysWhatToWrite(transitions: String, expected: String) {
        let found = problems(transitions)
        #expect(found.contains { $0.severity == .error && $0.message.contains(expected) }, "\(found)")
    }

    @Test func anEffectMadeInCodeThatAChangeDoesNotTakeIsLeftOut() {
        let transitions = Transitions([.appear: .highlight, .change: .highlight])
        #expect(transitions.effect(for: .appear) == nil)
        #expect(transitions.effect(for: .change) == .highlight)
    }
}
