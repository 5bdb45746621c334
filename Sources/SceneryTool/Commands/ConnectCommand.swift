import ArgumentParser
import Foundation
import Scenery
import SceneryPageProtocol

/// `scenery connect`: a scene on a running `scenery serve`, in the terminal, over the
/// view-tree protocol: the second client of the page socket, and the one a native host
/// would be (`/api/scenes/ID`, then `/live`).
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Open a scene on a running '\(ToolName.current) serve' and use it live from the terminal (view-tree patches, not HTML).",
        discussion: """
            Signs in as --viewer, opens the scene, prints it with numbered actions, and prints what \
            changes as it happens: your taps, and what other people change on the server (marked \
            '· changed elsewhere', and '»' for what it means). Commands: a number (or a control's id) \
            taps it; 'type FIELD TEXT' fills a form's field, and the form's number submits it (checked by \
            the field's rules first, as a browser does); 'show' prints the whole scene; 'ids' lists the actions with their controls' ids; 'trace' the page's recent events (a server started with --inspect); 'back' returns to \
            the scene before; 'help'; 'quit' (which, like the end of piped input, waits for the \
            server's answers to what was sent; a question left to answer is answered no). A confirmation is asked as '? Unfollow Alice Liddell? [y/N]'. \
            A lost connection is opened again by itself, with the page's resume token, and an action not \
            yet answered is sent again under its key, so it is done once. \
            Example: printf '3\\ny\\nquit\\n' | scenery connect http://127.0.0.1:8080 user-profile --viewer 2 --arg user=1
            """)

    @Argument(help: "The server's address, as '\(ToolName.current) serve' prints it (http://HOST:PORT).")
    var server: String

    @Argument(help: "The scene id.")
    var scene: String

    @Option(help: "Sign in as this user of the server; leave out to view signed out.")
    var viewer: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("A scene argument as name=value; repeat for several.", valueName: "name=value"))
    var arguments: [String] = []

    @Option(help: "Seconds the server may take to answer in full (a socket that hears nothing for twice as long is taken as lost).")
    var timeout: Int = 30

    @Option(
        help: ArgumentHelp(
            "The language to read the scene in (BCP 47, such as zh-Hans), when the server has it; the server keeps it for the scenes it navigates to.",
            valueName: "tag"))
    var locale: String?

    @OptionGroup var width: WidthOption

    @OptionGroup var actionList: ActionListOption

    /// How many times in a row the client opens a scene again (the server closed its socket
    /// saying to, or navigated) with nothing typed in between, before it gives up.
    static let largestReopensInARow = 5

    func validate() throws {
        for pair in arguments where !pair.contains("=") || pair.hasPrefix("=") {
            throw ValidationError("--arg \(pair.quoted) must have the form name=value, for example --arg user=1.")
        }
        guard (1...3_600).contains(timeout) else {
            throw ValidationError("--timeout \(timeout) must be from 1 to 3600 seconds.")
        }
        guard let url = URL(string: server), url.scheme == "http", url.host() != nil else {
            throw ValidationError("\(server.quoted) is not a server address; give the one '\(ToolName.current) serve' prints, such as http://127.0.0.1:8080.")
        }
    }

    /// What the loop waits for: a line typed, or a message from the server.
    private enum Input: Sendable {
        case line(String?)
        /// A message of the `socket`-th socket the client opened (older ones are stale).
        case message(WebSocketClient.Message, socket: Int)
    }

    /// How many times in a row the client opens a lost socket again before it gives up,
    /// waiting a little longer each time (from a quarter of a second to 5 s; about 20 s in all).
    static let largestReconnectsInARow = 8

    /// How long the client waits before its next try after `failures` in a row (a lost
    /// socket, a scene opened again with nothing typed): a quarter of a second, doubling,
    /// at most 5 s. One pace for both, so a restarting server is not asked faster one way.
    static func pause(afterFailuresInARow failures: Int) -> Duration {
        .milliseconds(min(250 << min(max(failures - 1, 0), 5), 5_000))
    }

    func run() async throws {
        try await reportingFailures {
            var client = try LiveSceneClient(server: URL(string: server)!)
            client.timeout = .seconds(timeout)
            if let viewer { try client.signIn(as: viewer) }
            var query = URLComponents()
            query.queryItems = arguments.map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return URLQueryItem(name: parts[0], value: parts.count > 1 ? parts[1] : "")
            }
            // The server's language switch; it keeps the choice (a cookie) for later scenes.
            if let locale { query.queryItems?.append(URLQueryItem(name: "lang", value: locale)) }
            var path =
                "/scenes/\(scene.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? scene)" + (query.percentEncodedQuery.map { "?\($0)" } ?? "")
            // One stream for everything the loop waits on: typed lines (one reader for the
            // whole run) and the current socket's messages.
            let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
            let input = LineReader()
            let typing = Task {
                while true {
                    let line = await input.next()
                    feed.yield(.line(line))
                    if line == nil { return }
                }
            }
            defer { typing.cancel() }
            var loop = Loop(feed: feed, inputs: inputs.makeAsyncIterator())
            // The scenes navigated through, for 'back'.
            var visited: [String] = []
            var reopensInARow = 0
            while let outcome = try await show(path, client: &client, loop: &loop) {
                switch outcome {
                case .back:
                    guard let previous = visited.popLast() else { continue }
                    path = previous
                    reopensInARow = 0
                    continue
                case .next(let next, let typed, let navigated):
                    // A server that closes every socket saying "open it again" (or navigates
                    // forever) is not followed for ever, nor at once.
                    reopensInARow = typed ? 0 : reopensInARow + 1
                    guard reopensInARow <= Self.largestReopensInARow else {
                        throw CommandFailure(
                            "The server at \(client.origin) sent this client to another scene, or had it open the scene again, \(reopensInARow) times in a row with nothing typed; stopping. Is the server restarting? Try again in a minute.",
                            code: .sceneryError)
                    }
                    if reopensInARow > 1 { try await Task.sleep(for: Self.pause(afterFailuresInARow: reopensInARow - 1)) }
                    if navigated { visited.append(path) }
                    path = next
                }
            }
        }
    }

    /// The stream the loop reads, and the number of the socket whose messages count.
    private struct Loop {
        let feed: AsyncStream<Input>.Continuation
        var inputs: AsyncStream<Input>.Iterator
        var socketNumber = 0

        /// Reads the socket's messages into the stream, under a new number (so messages of
        /// the sockets before it are dropped); the task ends with the socket.
        mutating func listen(to socket: WebSocketClient) -> Task<Void, Never> {
            socketNumber += 1
            let number = socketNumber
            let feed = self.feed
            return Task {
                for await message in socket.messages { feed.yield(.message(message, socket: number)) }
            }
        }
    }

    /// Why a scene stopped showing.
    private enum Outcome {
        /// Show another scene (the server navigated, or said to open this one again);
        /// `typed` says whether the person typed a command meanwhile.
        case next(String, typed: Bool, navigated: Bool)
        /// The person typed 'back'.
        case back
    }

    static let help = """
        Type the number of an action (or its id) to activate it; what changed is printed, and what \
        other people change is marked '· changed elsewhere' (and '»' for what it means).
          type FIELD TEXT   fill a form's field (then the form's number submits it)
          show     print the whole scene
          ids      list the actions with their controls' ids
          trace    the page's recent events and their routes (a server started with --inspect)
          back     return to the previous scene
          help     this text
          quit     leave, once the server answered what was sent (with typed text not sent, the
                   first quit or back says so and stays)
        """

    /// Shows one scene until the person quits (`nil`), goes back, or the server navigates
    /// or closes the socket saying to open the scene again. A socket lost otherwise (the
    /// server restarted, a proxy dropped it) is opened again with the page's resume token,
    /// and the actions not yet answered are sent again under their keys.
    private func show(_ path: String, client: inout LiveSceneClient, loop: inout Loop) async throws -> Outcome? {
        var typed = false
        let opened = try client.open(path)
        var page = PageConnection(
            session: opened.session, tree: opened.document.root, sequence: opened.sequence,
            socket: try client.connect(session: opened.session, since: opened.sequence))
        defer { page.socket.close() }
        let sceneName = opened.document.scene ?? scene
        // What each number typed stands for: the action printed with it last.
        var numbering = printWhole(opened.document.root, scene: sceneName, variant: opened.document.variant)
        reportShownModules(of: opened.document.root, on: &page)
        var reading = loop.listen(to: page.socket)
        defer { reading.cancel() }
        var reconnectsInARow = 0
        // Message types of a newer server this client cannot read, said once each.
        var unreadTypes: Set<String> = []
        // What was typed into each field, until its form is sent: it stays in this client.
        var typedText: [NodeID: String] = [:]
        var leave = InteractCommand.LeaveGuard()
        // Set once the person quits (or their input ends) while actions wait for the server's
        // answer: the client leaves when the last is answered, as `interact` finishes an action.
        var quitting = false
        prompt()
        while let next = await loop.inputs.next() {
            if case .message(_, let from) = next, from != loop.socketNumber { continue }  // a socket before this one
            switch next {
            case .line(nil):
                guard page.isWaitingForAnswers else { return nil }
                quitting = true
                if page.client.question != nil {
                    // Nobody is left to answer: no, as an unanswered question means.
                    Output.line("· leaving: answered no")
                    page.answer(false)
                }
            case .line(_) where quitting:
                continue
            case .line(let text?):
                let command = text.trimmingCharacters(in: .whitespaces)
                typed = typed || !command.isEmpty
                defer { prompt() }
                if page.client.question != nil {
                    page.answer(["y", "yes"].contains(command.lowercased()))
                    continue
                }
                let tree = page.mirror.tree ?? opened.document.root
                switch command.lowercased() {
                case "": continue
                case "quit", "q", "exit", "back", "b":
                    let leaving = ["back", "b"].contains(command.lowercased()) ? "back" : "quit"
                    if let warning = leave.warning(typedText, in: tree, leavingWith: leaving) {
                        Output.line(TerminalText.sanitized(warning))
                        continue
                    }
                    if leaving == "back" { return .back }
                    guard page.isWaitingForAnswers else { return nil }
                    quitting = true
                    Output.line("· waiting for the server's answer to \(page.client.waitingCount) action(s) before leaving…")
                case "help", "h", "?": Output.line(Self.help)
                case "show", "s":
                    numbering = printWhole(tree, scene: sceneName, variant: opened.document.variant)
                    InteractCommand.printFields(of: tree, typed: typedText)
                case "ids":
                    numbering = InteractCommand.printActions(of: tree, in: tree, style: .ids)
                case "trace": page.send(.trace)
                case let typing where typing.hasPrefix("type "):
                    leave.reset()
                    Output.line(InteractCommand.type(command.dropFirst(5), in: tree, into: &typedText))
                default:
                    guard let action = InteractCommand.action(for: command, in: tree.actions, numbering: numbering) else {
                        Output.line("No action \(command.quoted); type a number from the list, 'type FIELD TEXT', 'show', 'back', 'help' or 'quit'.")
                        continue
                    }
                    var values: [String: String]?
                    switch InteractCommand.submission(of: action, in: tree, typed: &typedText) {
                    case .failure(let problems)?:
                        Output.line("· not sent: \(TerminalText.sanitized(problems.description))")
                        continue
                    case .success(let event)?:
                        // The form's (or field's) text by field name, as the page script sends it.
                        let names = Set(tree.node(withID: action.id)?.textFields.map(\.field.name) ?? [])
                        values = event.payload.filter { names.contains($0.key) }.compactMapValues(\.stringValue)
                    case nil:
                        break
                    }
                    if !page.send(.event(node: action.id, values: values)) {
                        Output.line("· not sent: \(page.client.largestPending) actions are still waiting for the server's answer; wait a moment.")
                    }
                }
            case .message(.closed(let code, let reason), _) where !Self.isWorthReconnecting(code):
                if code == PageProtocol.reloadCloseCode {
                    Output.line("· \(TerminalText.sanitized(reason)) Opening it again.")
                    return .next(path, typed: typed, navigated: false)
                }
                throw CommandFailure("The server closed the scene's socket\(reason.isEmpty ? "" : ": \(TerminalText.sanitized(reason))").", code: .sceneryError)
            case .message(.lost, _), .message(.closed, _):
                // Lost, not sent away: the page resumes (on this server, or from its token on
                // one that lost it), and the actions not answered are sent again.
                reconnectsInARow += 1
                guard reconnectsInARow <= Self.largestReconnectsInARow else {
                    throw CommandFailure(
                        "The connection to \(client.origin) was lost, and \(Self.largestReconnectsInARow) tries to connect again failed; is the server running? Start '\(ToolName.current) connect' again once it is.",
                        code: .sceneryError)
                }
                if reconnectsInARow == 1 { Output.line("· the connection was lost; connecting again…") }
                try await Task.sleep(for: Self.pause(afterFailuresInARow: reconnectsInARow))
                do {
                    try page.reconnect(with: client)
                } catch {
                    // Not back yet: the stream says so again, and the next try waits longer.
                    loop.feed.yield(.message(.lost, socket: loop.socketNumber))
                    continue
                }
                reading.cancel()
                reading = loop.listen(to: page.socket)
                Output.line("· connected again\(page.isWaitingForAnswers ? "; \(page.client.waitingCount) action(s) sent again" : "")")
            case .message(.text(let text), _):
                let message: PageProtocol.ServerMessage
                do {
                    message = try PageProtocol.ServerMessage(jsonText: text)
                } catch let unknown as PageProtocol.ServerMessage.UnknownMessage {
                    if unreadTypes.count < 16, unreadTypes.insert(unknown.type ?? "").inserted {
                        Output.line("· \(TerminalText.sanitized(unknown.description))")
                        // The scene's author hears of it too, once a type.
                        page.send(.problem(kind: .decode, message: unknown.description))
                    }
                    continue
                } catch {
                    if unreadTypes.count < 16, unreadTypes.insert("").inserted {
                        page.send(.problem(kind: .decode, message: "A message of the server could not be read: \(String(describing: error).prefix(300))"))
                    }
                    continue
                }
                if case .resume = message { reconnectsInARow = 0 }
                let ownChange = page.isWaitingForAnswers
                switch page.take(message) {
                case .updated(let node):
                    if !ownChange { Output.line("· changed elsewhere") }
                    Output.write(renderer.render(node))
                    numbering.merge(
                        InteractCommand.printActions(of: node, in: page.mirror.tree ?? node, style: actionList.style, width: width.columns()))
                case .whole(let document):
                    numbering = printWhole(document.root, scene: document.scene ?? sceneName, variant: document.variant)
                    reportShownModules(of: document.root, on: &page)
                case .none:
                    break
                }
                switch message {
                case .announce(let texts):
                    // Other people's changes, as the modules word them: labelled as such.
                    for text in texts.prefix(8) { Output.line("» \(TerminalText.sanitized(String(text.prefix(300))))") }
                case .trace(let events):
                    InteractCommand.printTrace(events, json: false)
                case .confirm(_, let confirmation, let action):
                    Self.ask(confirmation, holdingUp: action, on: &page, leaving: quitting)
                case .navigate(let url):
                    guard url.hasPrefix("/scenes/") else { continue }
                    Output.line("→ \(TerminalText.sanitized(url))")
                    return .next(url, typed: typed, navigated: true)
                case .refused(let reason, _):
                    Output.line("· refused: \(TerminalText.sanitized(reason))")
                case .errors(let errors?):
                    Output.line("· the scene file has errors:\n\(TerminalText.sanitized(errors))")
                default:
                    break
                }
            }
            if quitting, !page.isWaitingForAnswers { return nil }
        }
        return nil
    }

    /// Whether a socket the server closed with `code` is worth opening again by itself, as
    /// the page script does: a normal close (the server let the page's socket go: it shut
    /// down, or the client read too slowly), going away, a restart or overload. Not "load the
    /// page again" (4404, handled apart), a refusal of what this client sent (1002–1010), or
    /// this client's own refusal of what came (no code).
    static func isWorthReconnecting(_ code: Int?) -> Bool {
        guard let code else { return false }
        return !(1002...1010).contains(code) && code != PageProtocol.reloadCloseCode
    }

    /// Writes the prompt when a person types at a terminal (never into a pipe, where it
    /// would run into the lines a script reads).
    private func prompt() {
        if Output.inputIsTerminal { Output.write("> ") }
    }

    /// A printed module is on screen: the server counts its impression (and an experiment's
    /// exposure) as it does for a browser's.
    private func reportShownModules(of tree: ViewNode, on page: inout PageConnection) {
        for node in tree.allNodes {
            guard case .module(let frame) = node.kind else { continue }
            page.send(.visibility(node: NodeID(frame.module.rawValue), fraction: 1))
        }
    }

    private var renderer: TextRenderer {
        TextRenderer(
            width: width.columns(), usesColor: Output.outputIsTerminal && Environment.value("NO_COLOR") == nil,
            isRightToLeft: locale.map { MessageLocale($0).isRightToLeft } ?? false)
    }

    private func printWhole(_ tree: ViewNode, scene: String, variant: String?) -> ActionNumbering {
        Output.line("══ \(TerminalText.sanitized(scene)) (\(TerminalText.sanitized(variant ?? "default"))) on \(TerminalText.sanitized(server)) ══")
        Output.write(renderer.render(tree))
        return InteractCommand.printActions(of: tree, in: tree, style: actionList.style, width: width.columns())
    }
}
