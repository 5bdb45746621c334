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
            Commands: a number (or a control's id) activates it and prints what changed; 'type FIELD TEXT' \
            fills a form's field, and the form's number submits it; changes made \
            elsewhere (another viewer, another process) are printed as they arrive; 'show' prints \
            the whole scene; 'ids' lists the actions with their controls' ids; 'back' returns to the previous scene; 'resync' sends the whole tree again \
            (JSON); 'help'; 'quit'. Confirmations are asked as 'Unfollow Alice? [y/N]'. Colour is used \
            on a terminal unless NO_COLOR is set. Example: printf '3\\ny\\nquit\\n' | scenery interact user-profile --viewer 2 --arg user=1

            It runs the scene in this process, on this machine's database. To use a live page \
            of a running '\(ToolName.current) serve' instead, with other people's changes as they happen: \
            scenery connect http://HOST:PORT SCENE --viewer ID --arg name=value.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var context: ContextOptions

    @Option(help: "text (for people) or json (a stream of JSON lines for a client: the tree, then numbered patches).")
    var format: Format = .text

    @OptionGroup var width: WidthOption

    @OptionGroup var actionList: ActionListOption

    @OptionGroup var rows: RowsOption

    @OptionGroup var options: SessionOptions

    /// Not an option of `interact`: named so that a person who looks for it is sent to
    /// `connect`, which uses a running server.
    @Option(name: .customLong("server"), help: .hidden)
    var server: String?

    func validate() throws {
        if let server {
            throw ValidationError(
                "interact runs a scene in this process; to use a live page of the server at \(server), run: scenery connect \(server) SCENE [--viewer ID] [--arg name=value]"
            )
        }
    }

    /// A scene on the navigation stack and the host that mirrors it.
    struct Page {
        let scene: SceneInstance
        let host: InteractiveHost
        /// The theme that colours the text (`--theme`), if any.
        var theme: Theme?
    }

    @Option(help: "Colour the text with a theme's semantic colours (light, dark, high-contrast); only on a terminal without NO_COLOR.")
    var theme: String?

    func run() async throws {
        try await reportingFailures {
            let session = try await options.session()
            let input = LineReader()
            let json = format == .json
            let viewerContext = try await context.checkedContext(in: session)
            var stack = [try await open(context.scene, for: viewerContext, session: session, input: input)]
            // What each number typed stands for: as printed (JSON clients count the tree's actions).
            var numbering = await showWhole(stack[0])
            var prompts = true
            // What was typed into fields, by field id, until their form is submitted.
            var typed: [NodeID: String] = [:]
            var leave = LeaveGuard()
            while true {
                if prompts, !json { Output.write("> ") }
                prompts = true
                let line: String
                switch await input.nextInput() {
                case .line(let typed):
                    line = typed
                case .end:
                    if !json { Output.line() }
                    for page in stack.reversed() { await page.scene.leave() }
                    return
                case .woken:
                    // The scene changed while waiting (someone else's change): print it, or
                    // wait on without a new prompt if an action's output already showed it.
                    guard let page = stack.last, page.host.hasUnprintedChanges else {
                        prompts = false
                        continue
                    }
                    if !json { Output.line("\n· changed elsewhere") }
                    await showChanges(page, numbering: &numbering)
                    continue
                }
                let command = line.trimmingCharacters(in: .whitespaces)
                guard let page = stack.last else { break }
                switch command.lowercased() {
                case "":
                    continue
                case "quit", "q", "exit":
                    if let warning = leave.warning(typed, in: page.host.tree ?? .stack("", []), leavingWith: "quit") {
                        Self.printProblem(warning, json: json)
                        continue
                    }
                    for page in stack.reversed() { await page.scene.leave() }
                    return
                case "help", "?", "h":
                    Output.line(Self.help)
                case "show", "s", "resync":
                    numbering = await showWhole(page)
                case "ids" where !json:
                    if let tree = page.host.tree { numbering = Self.printActions(of: tree, in: tree, style: .ids) }
                case "back", "b":
                    guard stack.count > 1 else {
                        Output.line("This is the first scene; there is nothing to go back to.")
                        continue
                    }
                    if let warning = leave.warning(typed, in: page.host.tree ?? .stack("", []), leavingWith: "back") {
                        Self.printProblem(warning, json: json)
                        continue
                    }
                    leave.reset()
                    await page.scene.leave()
                    stack.removeLast()
                    await stack[stack.count - 1].scene.appear()
                    numbering = await showWhole(stack[stack.count - 1])
                case "trace":
                    Self.printTrace(page.host.traceLines, json: json)
                case _ where command.lowercased().hasPrefix("inspect "):
                    let id = NodeID(String(command.dropFirst("inspect ".count)).trimmingCharacters(in: .whitespaces))
                    Self.printInspection(await page.scene.inspect(id), of: id, json: json)
                case _ where command.hasPrefix("type "):
                    leave.reset()
                    let message = Self.type(command.dropFirst(5), in: page.host.tree ?? .stack("", []), into: &typed)
                    if json {
                        StreamLine.write(["type": "typed", "message": .string(message)])
                    } else {
                        Output.line(message)
                    }
                default:
                    let actions = page.host.tree?.actions ?? []
                    guard var action = Self.action(for: command, in: actions, numbering: json ? nil : numbering) else {
                        if json {
                            StreamLine.write(["type": "error", "message": .string("No action \(command.quoted).")])
                        } else {
                            Output.line("No action '\(TerminalText.sanitized(command))'. Type a number from the list, or show, back, help, quit.")
                        }
                        continue
                    }
                    // A form sends what was typed, checked first as a browser does.
                    if let tree = page.host.tree, let submission = Self.submission(of: action, in: tree, typed: &typed) {
                        switch submission {
                        case .success(let event): action.event = event
                        case .failure(let problems):
                            Self.printProblem("Not sent: \(problems)", json: json)
                            continue
                        }
                    }
                    page.host.beginEvent()
                    let outcome = await page.scene.send(action.event)
                    page.host.endEvent(outcome)
                    if json {
                        StreamLine.route(outcome)
                    } else {
                        Output.line("· " + outcome.route.map { TerminalText.sanitized($0.description) }.joined(separator: " → "))
                    }
                    await showChanges(page, numbering: &numbering)
                    if let intent = outcome.navigations.last {
                        do {
                            await page.scene.disappear()
                            let next = try await open(
                                intent.scene,
                                for: SceneContext(
                                    viewer: context.viewer, arguments: intent.arguments, anonymousID: context.context.anonymousID,
                                    armOverrides: context.context.armOverrides, locale: context.locale), session: session, input: input)
                            stack.append(next)
                            numbering = await showWhole(next)
                        } catch {
                            await page.scene.appear()
                            Output.line("Cannot open \(intent.scene.quoted): \(SceneryError.message(for: error))")
                        }
                    }
                }
            }
            for page in stack.reversed() { await page.scene.leave() }
        }
    }

    static let help = """
        Type the number of an action (or its id) to activate it; what changed is printed.
          type FIELD TEXT   fill a form's field (then the form's number submits it)
          show     print the whole scene
          ids      list the actions with their controls' ids
          inspect ID   the module that shows a control or node: its scene file line, variant, arms
          trace    this scene's recent events, each with its route and how it ended
          back     return to the previous scene
          resync   send the whole tree again (--format json)
          help     this text
          quit     leave (with typed text not sent, the first quit or back says so and stays)
        """

    private func open(_ sceneID: String, for context: SceneContext, session: SceneSession, input: LineReader) async throws -> Page {
        let host = InteractiveHost(input: input, json: format == .json)
        let scene = try await session.open(sceneID, for: context, host: host)
        try await rows.apply(to: scene)
        var theme: Theme?
        if let name = self.theme {
            guard let found = session.registry.theme(named: name) else {
                let names = session.registry.themes.map(\.name)
                throw CommandFailure("No theme \(name.quoted); use one of \(names.isEmpty ? "none" : names.joined(separator: ", ")).", code: .usage)
            }
            theme = found
        }
        return Page(scene: scene, host: host, theme: theme)
    }

    private func renderer(for page: Page) -> TextRenderer {
        let color = Output.outputIsTerminal && Environment.value("NO_COLOR") == nil
        return TextRenderer(
            width: width.columns(), usesColor: color, isRightToLeft: context.locale.map { MessageLocale($0).isRightToLeft } ?? false,
            theme: page.theme)
    }

    /// Prints the whole scene and its numbered actions (or, as JSON, the tree) and makes it
    /// the host's copy.
    @discardableResult
    private func showWhole(_ page: Page) async -> ActionNumbering {
        let (tree, sequence) = await page.host.attach(to: page.scene)
        _ = page.host.takeUpdates()
        if format == .json {
            StreamLine.tree(tree, scene: page.scene, sequence: sequence)
            return ActionNumbering()
        }
        // What a terminal prints is on screen: every shown module counts as seen.
        await page.scene.recordImpressionsOfShownModules()
        let renderer = renderer(for: page)
        Output.line("══ \(TerminalText.sanitized(page.scene.sceneID)) (\(TerminalText.sanitized(page.scene.variant))) ══")
        Output.write(renderer.render(tree))
        let numbering = Self.printActions(of: tree, in: tree, style: actionList.style, width: width.columns())
        Self.printFields(of: tree, typed: [:])
        return numbering
    }

    /// Prints what the last action changed: the patches (JSON), or the module frames and
    /// tab switches that got updates, with their actions (text).
    private func showChanges(_ page: Page, numbering: inout ActionNumbering) async {
        if page.host.needsResync {
            numbering = await showWhole(page)
            return
        }
        let updates = page.host.takeUpdates()
        if format == .json {
            for update in updates { StreamLine.patches(update) }
            return
        }
        guard let tree = page.host.tree else { return }
        var shown: [NodeID] = []
        for update in updates {
            let id = update.module.map { NodeID($0.rawValue) } ?? update.node.id
            if !shown.contains(id) { shown.append(id) }
        }
        // A tab switch holds module frames: print it, not them again.
        let changed = shown.compactMap { tree.node(withID: $0) }
        let outermost = changed.filter { node in !changed.contains { $0.id != node.id && $0.node(withID: node.id) != nil } }
        await page.scene.recordImpressionsOfShownModules()
        let renderer = renderer(for: page)
        for node in outermost {
            Output.write(renderer.render(node))
            numbering.merge(Self.printActions(of: node, in: tree, style: actionList.style, width: width.columns()))
        }
    }
}
