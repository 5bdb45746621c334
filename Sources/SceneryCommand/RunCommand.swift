import ArgumentParser
import Foundation
import ProfileDomain
import Scenery

/// `scenery run`: assemble a scene for a context and print its rendering.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Assemble a scene for a viewer, wait for its modules, and print it.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The scene id: a file name in the scene directory, without .json.")
    var scene: String

    @Option(help: "The signed-in user's id; leave out for a signed-out viewer.")
    var viewer: String?

    @Option(name: .customLong("arg"), help: "A scene argument as name=value; repeat for several.")
    var arguments: [String] = []

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Columns for text output.")
    var width: Int = 80

    @OptionGroup var options: SceneOptions
    @OptionGroup var data: DatabaseOptions

    func run() async throws {
        try await reportingFailures {
            let store = try data.openStore()
            let (registry, _) = try options.loadRegistry(services: ProfileServices(store))
            let context = SceneContext(viewer: viewer, arguments: try parseArguments(arguments))
            let host = BatchHost()
            let scene = try await registry.assemble(scene, for: context, host: host)
            await scene.appear()
            let tree = await scene.render()
            switch format {
            case .text: print(TextRenderer(width: width).render(tree), terminator: "")
            case .json: print(JSONRenderer().render(tree, scene: scene.sceneID, variant: scene.variant), terminator: "")
            }
            await scene.leave()
        }
    }
}

/// The host for one-shot runs: nobody to ask, nowhere to go.
struct BatchHost: SceneHost {
    func confirm(_ confirmation: Confirmation) async -> Bool { false }
    func navigate(to intent: NavigationIntent) async {}
}
