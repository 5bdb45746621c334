import ArgumentParser
import Foundation
import Scenery

/// `scenery run`: assemble a scene for a context and print its rendering.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Assemble a scene for a viewer, wait for its modules, and print it.",
        discussion: "Example: scenery run user-profile --viewer 2 --arg user=1 --format html > profile.html")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, html
    }

    @OptionGroup var context: ContextOptions

    @Option(help: "Output format: text (for people), json (the view-tree format) or html (a complete page).")
    var format: Format = .text

    @Option(help: "Columns for text output.")
    var width: Int = 80

    @OptionGroup var options: SessionOptions

    func run() async throws {
        try await reportingFailures {
            let session = try options.session()
            let scene = try await session.open(context.scene, for: context.context, host: BatchHost())
            let tree = await scene.render()
            switch format {
            case .text: Output.write(TextRenderer(width: width).render(tree))
            case .json: Output.write(JSONRenderer().render(tree, scene: scene.sceneID, variant: scene.variant))
            case .html:
                let title = session.registry.definition(of: scene.sceneID)?.title ?? scene.sceneID
                Output.write(HTMLRenderer().render(tree, title: title))
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
