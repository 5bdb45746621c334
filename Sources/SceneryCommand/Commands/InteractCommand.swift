import ArgumentParser
import Foundation
import Scenery

/// `scenery interact`: a scene, live. Lists the actions with short handles and reads
/// commands as plain lines, so it works for a person and for a script piped into it.
struct InteractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interact",
        abstract: "Run a scene live: type an action's number to like, follow, select, refresh, load more or switch tabs.",
        discussion: """
            Commands: a number (or a control's id) activates it; 'back' returns to the previous \
            scene; 'show' prints the scene again; 'help'; 'quit'. Confirmations are asked as \
            'Unfollow Alice? [y/N]'. Example: printf '3\\ny\\nquit\\n' | scenery interact user-profile --viewer 2 --arg user=1
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var context: ContextOptions

    @Option(help: "text (for people) or json (a stream of JSON lines for a client: the tree, then patches).")
    var format: Format = .text

    @Option(help: "Columns for text output.")
    var width: Int = 80

    @OptionGroup var options: SessionOptions

    func run() async throws {
        try await reportingFailures {
            let session = try options.session()
            let input = LineReader()
            let json = format == .json
            let host = InteractiveHost(input: input, json: json)
            var stack = [try await session.open(context.scene, for: context.context, host: host)]
            var actions = await show(stack[stack.count - 1])
            while true {
                if !json { Output.write("> ") }
                guard let line = await input.next() else {
                    if !json { Output.line() }
                    break
                }
                let command = line.trimmingCharacters(in: .whitespaces)
                guard let scene = stack.last else { break }
                switch command.lowercased() {
                case "":
                    continue
                case "quit", "q", "exit":
                    for scene in stack.reversed() { await scene.leave() }
                    return
                case "help", "?", "h":
                    Output.line(Self.help)
                case "show", "s":
                    actions = await show(scene)
                case "back", "b":
                    guard stack.count > 1 else {
                        Output.line("This is the first scene; there is nothing to go back to.")
                        continue
                    }
                    await scene.leave()
                    stack.removeLast()
                    await stack[stack.count - 1].appear()
                    actions = await show(stack[stack.count - 1])
                default:
                    guard let action = Self.action(for: command, in: actions) else {
                        if json {
                            StreamLine.write(["type": "error", "message": .string("No action '\(command)'.")])
                        } else {
                            Output.line("No action '\(TerminalText.sanitized(command))'. Type a number from the list, or back, show, help, quit.")
                        }
                        continue
                    }
                    _ = host.takeUpdates()
                    let outcome = await scene.send(action.event)
                    if json {
                        StreamLine.route(outcome)
                        for update in host.takeUpdates() where !update.patches.isEmpty { StreamLine.patches(update) }
                    } else {
                        Output.line("· " + outcome.route.map { TerminalText.sanitized($0.description) }.joined(separator: " → "))
                    }
                    if let intent = outcome.navigations.last {
                        do {
                            await scene.disappear()
                            let next = try await session.open(intent.scene, for: SceneContext(viewer: context.viewer, arguments: intent.arguments), host: host)
                            stack.append(next)
                        } catch {
                            await scene.appear()
                            Output.line("Cannot open '\(intent.scene)': \(SceneryError.message(for: error))")
                        }
                    }
                    if json, outcome.navigations.isEmpty {
                        actions = await stack[stack.count - 1].render().actions
                    } else {
                        actions = await show(stack[stack.count - 1])
                    }
                }
            }
            for scene in stack.reversed() { await scene.leave() }
        }
    }

    static let help = """
        Type the number of an action (or its id) to activate it.
          back   return to the previous scene
          show   print the scene again
          help   this text
          quit   leave
        """

    /// Prints the scene and its numbered actions (or, as JSON, the tree); returns the actions.
    private func show(_ scene: SceneInstance) async -> [ViewAction] {
        let tree = await scene.render()
        let actions = tree.actions
        if format == .json {
            StreamLine.tree(tree, scene: scene)
            return actions
        }
        Output.line("══ \(TerminalText.sanitized(scene.sceneID)) (\(TerminalText.sanitized(scene.variant))) ══")
        Output.write(TextRenderer(width: width).render(tree))
        Output.line("Actions:")
        let number = String(actions.count).count
        for (index, action) in actions.enumerated() {
            let handle = String(repeating: " ", count: number - String(index + 1).count) + String(index + 1)
            var title = TerminalText.sanitized(action.title).replacingOccurrences(of: "\n", with: " ")
            // A button inside a selectable row ("blogs/blog.27.like" in "blogs/blog.27") names its row.
            if let row = actions.first(where: { action.id.rawValue.hasPrefix($0.id.rawValue + ".") }) {
                title += " · " + TerminalText.sanitized(row.title).replacingOccurrences(of: "\n", with: " ")
            }
            let shortTitle = title.count > 40 ? String(title.prefix(39)) + "…" : title
            Output.line("  \(handle)  \(TerminalText.padded(shortTitle, to: 40))  \(TerminalText.sanitized(action.id.rawValue))")
        }
        return actions
    }

    static func action(for command: String, in actions: [ViewAction]) -> ViewAction? {
        if let number = Int(command), actions.indices.contains(number - 1) { return actions[number - 1] }
        return actions.first { $0.id.rawValue == command }
    }
}
