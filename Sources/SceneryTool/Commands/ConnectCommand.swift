import ArgumentParser
import Foundation
import Scenery

/// `scenery connect`: a scene on a running `scenery serve`, in the terminal, over the
/// view-tree protocol: the second client of the page socket, and the one a native host
/// would be (`/api/scenes/ID`, then `/live`).
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Open a scene on a running 'scenery serve' and use it live from the terminal (view-tree patches, not HTML).",
        discussion: """
            Signs in as --viewer, opens the scene, prints it with numbered actions, and prints what \
            changes as it happens: your taps, and what other people change on the server. Commands: a \
            number (or a control's id) taps it; 'type FIELD TEXT' fills a form's field, and the form's \
            number submits it (checked by the field's rules first, as a browser does); 'show' prints the \
            whole scene; 'quit'. A confirmation is \
            asked as '? Unfollow Alice Liddell? [y/N]'. \
            Example: printf '3\\ny\\nquit\\n' | scenery connect http://127.0.0.1:8080 user-profile --viewer 2 --arg user=1
            """)

    @Argument(help: "The server's address, as 'scenery serve' prints it (http://HOST:PORT).")
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
            throw ValidationError("\(server.quoted) is not a server address; give the one 'scenery serve' prints, such as http://127.0.0.1:8080.")
        }
    }

    /// What the loop waits for: a line typed, or a message from the server.
    private enum Input: Sendable {
        case line(String?)
        /// A message of the socket of the scene shown `generation`-th (older ones are stale).
        case message(WebSocketClient.Message, generation: Int)
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
            // whole run) and the current scene's socket messages.
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
            var iterator = inputs.makeAsyncIterator()
            var generation = 0
            var reopensInARow = 0
            while case (let next?, let typed) = try await show(path, client: &client, generation: generation, feed: feed, inputs: &iterator) {
                // A server that closes every socket saying "open it again" (or navigates
                // forever) is not followed for ever, nor at once.
                reopensInARow = typed ? 0 : reopensInARow + 1
                guard reopensInARow <= Self.largestReopensInARow else {
                    throw CommandFailure(
                        "The server at \(client.origin) sent this client to another scene, or had it open the scene again, \(reopensInARow) times in a row with nothing typed; stopping. Is the server restarting? Try again in a minute.",
                        code: .sceneryError)
                }
                if reopensInARow > 1 { try await Task.sleep(for: .milliseconds(250 << min(reopensInARow - 2, 4))) }
                path = next
                generation += 1
            }
        }
    }

    /// Shows one scene until the person quits (`nil`) or the server navigates or closes the
    /// socket saying to open the scene again (the next path); and whether the person typed
    /// a command meanwhile.
    private func show(
        _ path: String, client: inout LiveSceneClient, generation: Int, feed: AsyncStream<Input>.Continuation,
        inputs: inout AsyncStream<Input>.Iterator
    ) async throws -> (next: String?, typed: Bool) {
        var typed = false
        let opened = try client.open(path)
        var tree = PatchableTree(opened.document.root)
        var sequence = opened.sequence
        let socket = try client.connect(session: opened.session, since: sequence)
        defer { socket.close() }
        // What each number typed stands for: the action printed with it last.
        var numbering = printWhole(tree.root, scene: opened.document.scene ?? scene, variant: opened.document.variant)
        reportShownModules(of: tree.root, on: socket)
        let reading = Task {
            for await message in socket.messages { feed.yield(.message(message, generation: generation)) }
        }
        defer { reading.cancel() }
        var question: Int?
        // What was typed into each field, until its form is sent: it stays in this client.
        var typedText: [NodeID: String] = [:]
        while let next = await inputs.next() {
            if case .message(_, let from) = next, from != generation { continue }  // a scene shown before
            switch next {
            case .line(nil):
                return (nil, typed)
            case .line(let text?):
                let command = text.trimmingCharacters(in: .whitespaces)
                typed = typed || !command.isEmpty
                if let asked = question {
                    question = nil
                    let accept = ["y", "yes"].contains(command.lowercased())
                    socket.send(#"{"type":"answer","question":\#(asked),"accept":\#(accept)}"#)
                    continue
                }
                switch command {
                case "": continue
                case "quit", "q", "exit": return (nil, typed)
                case "show":
                    numbering = printWhole(tree.root, scene: opened.document.scene ?? scene, variant: opened.document.variant)
                    InteractCommand.printFields(of: tree.root, typed: typedText)
                case let typing where typing.hasPrefix("type "):
                    Output.line(InteractCommand.type(typing.dropFirst(5), in: tree.root, into: &typedText))
                default:
                    guard let action = InteractCommand.action(for: command, in: tree.root.actions, numbering: numbering) else {
                        Output.line("No action \(command.quoted); type a number from the list, 'type FIELD TEXT', 'show' or 'quit'.")
                        continue
                    }
                    var message: [String: JSONValue] = ["type": "event", "node": .string(action.id.rawValue)]
                    switch InteractCommand.submission(of: action, in: tree.root, typed: &typedText) {
                    case .failure(let problems)?:
                        Output.line("· not sent: \(TerminalText.sanitized(problems.description))")
                        continue
                    case .success(let event)?:
                        // The form's (or field's) text by field name, as the page script sends it.
                        let names = Set(tree.root.node(withID: action.id)?.textFields.map(\.field.name) ?? [])
                        message["values"] = .object(event.payload.filter { names.contains($0.key) })
                    case nil:
                        break
                    }
                    socket.send(JSONValue.object(message).compactJSON)
                }
            case .message(.closed(let code, let reason), _):
                if code == 4404 {
                    Output.line("· \(TerminalText.sanitized(reason)) Opening it again.")
                    return (path, typed)
                }
                throw CommandFailure("The server closed the scene's socket\(reason.isEmpty ? "" : ": \(TerminalText.sanitized(reason))").", code: .sceneryError)
            case .message(.text(let text), _):
                guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), let type = message["type"]?.stringValue else {
                    continue
                }
                switch type {
                case "tree":
                    guard let document = try? JSONDecoder().decode(ViewTreeDocument.self, from: Data(text.utf8)) else { continue }
                    tree = PatchableTree(document.root)
                    sequence = message["sequence"]?.intValue ?? sequence
                    numbering = printWhole(tree.root, scene: document.scene ?? scene, variant: document.variant)
                    reportShownModules(of: tree.root, on: socket)
                case "patches":
                    guard let number = message["sequence"]?.intValue, number > sequence else { continue }
                    guard number == sequence + 1, let encoded = message["patches"],
                        let patches = try? JSONDecoder().decode([ViewPatch].self, from: Data(encoded.compactJSON.utf8))
                    else {
                        socket.send(#"{"type":"resync"}"#)
                        continue
                    }
                    do {
                        try tree.apply(patches)
                    } catch {
                        socket.send(#"{"type":"resync"}"#)
                        continue
                    }
                    sequence = number
                    let changed = message["node"]?.stringValue.map { NodeID($0) } ?? "scene"
                    let whole = tree.root
                    if let node = whole.node(withID: changed) {
                        Output.write(renderer.render(node))
                        numbering.merge(InteractCommand.printActions(of: node, in: whole))
                    }
                case "announce":
                    // Other people's changes, as the modules word them: labelled as such.
                    guard case .array(let texts)? = message["texts"] else { continue }
                    for case .string(let text) in texts.prefix(8) {
                        Output.line("» \(TerminalText.sanitized(String(text.prefix(300))))")
                    }
                case "confirm":
                    question = message["question"]?.intValue
                    let title = TerminalText.sanitized(message["title"]?.stringValue ?? "Are you sure?")
                    let detail = message["message"]?.stringValue.map { " " + TerminalText.sanitized($0) } ?? ""
                    Output.line("? \(title)\(detail) [y/N]")
                case "navigate":
                    guard let url = message["url"]?.stringValue, url.hasPrefix("/scenes/") else { continue }
                    Output.line("→ \(TerminalText.sanitized(url))")
                    return (url, typed)
                case "refused":
                    Output.line("· refused: \(TerminalText.sanitized(message["message"]?.stringValue ?? ""))")
                case "errors":
                    if let errors = message["text"]?.stringValue { Output.line("· the scene file has errors:\n\(TerminalText.sanitized(errors))") }
                default:
                    continue
                }
            }
        }
        return (nil, typed)
    }

    /// A printed module is on screen: the server counts its impression (and an experiment's
    /// exposure) as it does for a browser's.
    private func reportShownModules(of tree: ViewNode, on socket: WebSocketClient) {
        for node in tree.allNodes {
            guard case .module(let frame) = node.kind else { continue }
            socket.send(JSONValue.object(["type": "visibility", "node": .string(frame.module.rawValue), "fraction": 1]).compactJSON)
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
        return InteractCommand.printActions(of: tree, in: tree)
    }
}
