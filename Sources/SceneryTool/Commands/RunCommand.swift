import ArgumentParser
import Foundation
import Scenery

/// `scenery run`: assemble a scene for a context and print its rendering.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Assemble a scene for a viewer, wait for its modules, and print it.",
        discussion: """
            JSON and HTML carry every tab's panel (the selected one marked); text shows the selected \
            tab, chosen with --select. Exits with 2 after printing if a module failed. \
            Example: scenery run user-profile --viewer 1 --arg user=1 --select sections=drafts
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, html
    }

    @OptionGroup var context: ContextOptions

    @Option(help: "Output format: text (for people), json (the view-tree format) or html (a complete page).")
    var format: Format = .text

    @Option(help: "The theme of an html page (a *.tokens.json beside the scenes: light, dark, high-contrast).")
    var theme: String?

    @Option(
        name: .customLong("select"),
        help: ArgumentHelp("Select a tab before printing, as switch=tab (see '\(ToolName.current) list'); repeat for several.", valueName: "switch=tab"))
    var selections: [String] = []

    @OptionGroup var width: WidthOption

    @OptionGroup var rows: RowsOption

    @OptionGroup var options: SessionOptions

    func validate() throws {
        for pair in selections where pair.split(separator: "=", omittingEmptySubsequences: false).count != 2 || pair.hasPrefix("=") || pair.hasSuffix("=") {
            throw ValidationError("'--select \(pair)' must have the form switch=tab, for example --select sections=drafts.")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let session = try await options.session(including: resources)
            let scene = try await session.open(context.scene, for: try context.checkedContext(in: session), host: BatchHost())
            let language = session.registry.language(of: scene.sceneID, for: context.locale)
            let theme = try self.theme.map { name in
                guard let found = session.registry.theme(named: name) else {
                    let names = session.registry.themes.map(\.name)
                    throw CommandFailure(
                        "No theme \(name.quoted); use one of \(names.isEmpty ? "none (add a <name>.tokens.json beside the scenes)" : names.joined(separator: ", ")).",
                        code: .usage)
                }
                return found
            }
            if let wanted = context.locale, !session.registry.canShow(scene.sceneID, in: wanted) {
                let available = session.registry.translatedLanguages
                Output.status(
                    "warning: the scenes have no \(wanted.quoted) translation, so \(scene.sceneID.quoted) shows in \(language.quoted); translations: \(available.isEmpty ? "none" : available.joined(separator: ", ")).\n"
                )
            }
            try await select(in: scene)
            try await rows.apply(to: scene)
            switch format {
            case .text:
                Output.write(TextRenderer(width: width.columns(), isRightToLeft: MessageLocale(language).isRightToLeft).render(await scene.render()))
                // Printed to a terminal, every shown module is seen (a document is not).
                await scene.recordImpressionsOfShownModules()
            case .json: Output.write(JSONRenderer().render(await scene.renderDocument(), scene: scene.sceneID, variant: scene.variant))
            case .html:
                let title = session.registry.title(of: scene.sceneID, in: language) ?? scene.sceneID
                Output.write(HTMLRenderer().render(await scene.renderDocument(), title: title, language: language, theme: theme ?? .standard))
            }
            let failures = ModuleFailures(await scene.render())
            await scene.leave()
            if let failures { throw CommandFailure(failures.description, code: .sceneryError) }
        }
    }

    /// The files beside the scenes this run shows: themes only for `--theme`, translations only
    /// for `--locale` (a scene in its own language with the standard look reads neither).
    var resources: SceneResources {
        var resources: SceneResources = []
        if theme != nil { resources.insert(.themes) }
        if context.locale != nil { resources.insert(.translations) }
        return resources
    }

    /// Selects the tabs `--select` names, or explains which exist.
    private func select(in scene: SceneInstance) async throws {
        let switches = scene.tabSwitches
        for pair in selections {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let tabSwitch = switches.first(where: { $0.id == parts[0] }) else {
                let known = switches.map(\.id)
                let hint = known.isEmpty ? "this variant of \(scene.sceneID.quoted) has no tab switch" : "its tab switches: \(known.joined(separator: ", "))"
                throw CommandFailure(
                    "No tab switch \(parts[0].quoted) in \(scene.sceneID.quoted)\(didYouMean(parts[0], in: known)); \(hint).", code: .usage)
            }
            guard tabSwitch.tabs.contains(parts[1]) else {
                throw CommandFailure(
                    "The tab switch \(tabSwitch.id.quoted) has no tab \(parts[1].quoted)\(didYouMean(parts[1], in: tabSwitch.tabs)); its tabs: \(tabSwitch.tabs.joined(separator: ", ")).",
                    code: .usage)
            }
            await scene.send(Event(.selectTab(parts[1], inSwitch: tabSwitch.id), from: NodeID(tabSwitch.id)))
        }
    }
}

/// The modules of a tree that failed to load, for the exit status.
struct ModuleFailures: CustomStringConvertible {
    let frames: [ViewNode.ModuleFrame]

    init?(_ tree: ViewNode) {
        frames = tree.allNodes.compactMap { node in
            if case .module(let frame) = node.kind, frame.status == .failed { frame } else { nil }
        }
        if frames.isEmpty { return nil }
    }

    var description: String {
        frames.map { frame in
            let message =
                frame.content.allNodes.lazy.compactMap { node -> String? in
                    if case .placeholder(let placeholder) = node.kind { placeholder.message } else { nil }
                }.first ?? "it could not load."
            return "The module '\(frame.module)' (\(frame.type)) failed: \(message)"
        }.joined(separator: "\n")
    }
}

/// The host for one-shot runs: nobody to ask, nowhere to go.
struct BatchHost: SceneHost {
    func confirm(_ confirmation: Confirmation) async -> Bool { false }
    func navigate(to intent: NavigationIntent) async {}
}
