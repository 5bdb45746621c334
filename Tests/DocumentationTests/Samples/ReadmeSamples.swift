// The README's module and scene file, as code that compiles and runs: DocumentationSampleTests
// checks that the module stands here line for line; the test below reads the scene file
// from the README itself.
import Foundation
import Scenery
import SceneryTesting
import Testing

actor WaveModule: Module {
    struct Wave: Codable, Sendable {}
    static let wave = EventKind("hello.wave", payload: Wave.self)
    static let descriptor = ModuleDescriptor(
        type: "WaveModule", summary: "Greets someone, who may be waved at.",
        parameters: [ParameterSpec("name", .string, summary: "Who is greeted.")], sends: [wave], performs: [wave])

    private let name: String
    private let context: ModuleContext
    private var waves = 0
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }  // runs on its page

    init(parameters: ModuleParameters, context: ModuleContext) throws {
        name = try parameters.string("name")
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {}  // a module that fetches does it here
    func render() -> ViewNode {
        .stack("hello", [.text("text", "Hello, \(name)! Waves: \(waves)"), .button("wave", title: "Wave", sends: Self.wave.descriptor(Wave()))])
    }
    func perform(_ event: Event) async throws {  // once the scene's rules let the wave through
        waves += 1
        await context.setNeedsRender()
    }
}

@Suite struct ReadmeSampleTests {
    /// The README's scene file: its first ```json block.
    static func sceneFile() throws -> String {
        let readme = try String(contentsOf: DocumentationSampleTests.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```json\n").dropFirst().first, "the README shows a scene file")
        return block.components(separatedBy: "\n```")[0]
    }

    static func registry() throws -> SceneRegistry {
        var registry = SceneRegistry()
        registry.register(WaveModule.self) { parameters, context in try WaveModule(parameters: parameters, context: context) }
        let problems = registry.addScene(id: "hello", source: try sceneFile())
        #expect(problems.isEmpty, "the README's scene file validates: \(problems)")
        return registry
    }

    /// The front door in one screen: the README stays short, and its first screen holds the
    /// two commands, a module and a scene file.
    @Test func theReadmeShowsTheCommandsAModuleAndASceneFileInItsFirstScreen() throws {
        let readme = try String(contentsOf: DocumentationSampleTests.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count <= 151, "README.md has \(lines.count - 1) lines; keep it to 150: move detail to DEVELOPING.md or a guide")
        let firstScreen = lines.prefix(70).joined(separator: "\n")
        for shown in ["swift run scenery run user-profile --viewer 1 --arg user=1", "swift test ", "actor WaveModule: Module", "```json"] {
            #expect(firstScreen.contains(shown), "the README's first 70 lines show \(shown)")
        }
    }

    @Test func theReadmesSceneGreetsASignedInPersonWhoWavesAfterAConfirmation() async throws {
        let host = RecordingHost(confirmer: .acceptingAll)
        let scene = try await Self.registry().assemble("hello", for: SceneContext(viewer: "1", arguments: ["name": "Ada"]), host: host)
        _ = await scene.takeBaseline()  // the tree the host shows, whose controls a tap names
        _ = try await scene.activate("hello/wave")
        #expect(host.confirmations.map(\.title) == ["Wave at Ada?"])
        #expect(await scene.render().visibleTexts.contains("Hello, Ada! Waves: 1"))
    }

    @Test func theReadmesSceneShowsAVisitorANoteInstead() async throws {
        let scene = try await Self.registry().assemble("hello", for: SceneContext(viewer: nil, arguments: ["name": "Ada"]), host: RecordingHost())
        let texts = await scene.render().visibleTexts
        #expect(texts.contains("Sign in to wave at Ada.") && !texts.contains { $0.hasPrefix("Hello") }, "\(texts)")
    }
}
