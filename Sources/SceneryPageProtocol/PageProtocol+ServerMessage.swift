import Foundation
import Scenery

extension PageProtocol {
    /// What the server sends a page (or any client of the page socket).
    ///
    /// An HTML page gets ``patch(sequence:operations:)`` and ``reset(sequence:html:)``; a
    /// view-tree client (`/api/scenes/…`, then the socket) gets ``tree(sequence:document:)``
    /// and ``patches(sequence:module:node:patches:)`` instead. The rest go to both.
    ///
    /// ```swift
    /// let message = try PageProtocol.ServerMessage(jsonText: text)
    /// if case .confirm(let question, let confirmation, _) = message {
    ///     let accept = ask(confirmation.title)
    ///     socket.send(try PageProtocol.ClientMessage.answer(question: question, accept: accept).jsonText())
    /// }
    /// ```
    public enum ServerMessage: Codable, Equatable, Sendable {
        /// Operations on the page's DOM for one update of the scene, numbered.
        case patch(sequence: Int, operations: [DOMOperation])
        /// The whole scene as HTML, numbered (after a resync, or a scene file changed).
        case reset(sequence: Int, html: String)
        /// A question for the person; answer with ``ClientMessage/answer(question:accept:)``.
        /// `action` is the key of the action the question holds up: a server that went away
        /// took its question with it, and the next one, sent the action again, asks again —
        /// a client that kept the person's answer (or their open dialog) for that key answers
        /// with it, so the person answers once. `nil` from servers before it was sent.
        case confirm(question: Int, Confirmation, action: ActionKey? = nil)
        /// Go to another page.
        case navigate(url: String)
        /// A scene file has errors (the text `scenery validate` prints), or no longer (`nil`).
        case errors(String?)
        /// The last message was refused, and why; `action` is its key when it was an action
        /// (a refused form keeps what was typed: the page is told which submit it was).
        case refused(message: String, action: ActionKey? = nil)
        /// For a view-tree client: the whole scene as a view-tree document, numbered (at the
        /// start of a socket that missed too much, after a resync, a changed scene file).
        case tree(sequence: Int, document: ViewTreeDocument)
        /// What the page keeps to resume on another server if this one goes away (a signed
        /// token, sent back as `resume=` in the socket's address), and the keys of the actions
        /// this server has finished with since the last one (the page stops keeping them to
        /// send again). Not numbered.
        case resume(token: String, applied: [ActionKey])
        /// What the page is about changed (a module that names it, such as a profile's
        /// person, finished loading after the page was sent): the page's heading and title
        /// become `text`. Numbered, so a page that reconnects is told too. HTML pages only.
        case title(sequence: Int, text: String)
        /// What other people's changes just shown mean, as the modules word them ("New like
        /// on “Trip notes”"): never the viewer's own. Not numbered (a page that missed it
        /// missed news, not state); a page says a batch of them once.
        case announce(texts: [String])
        /// The site's themes changed (a token file was edited under `serve --watch`): the page
        /// loads its theme stylesheet again from `href`, and restyles without a reload. Not
        /// numbered (the next page load gets the new themes anyway). HTML pages only.
        case theme(href: String)
        /// For a view-tree client: one update of the scene as view-tree patches, numbered;
        /// `node` is the updated subtree's root (a module frame, a tab switch).
        case patches(sequence: Int, module: ModuleID?, node: NodeID, patches: [ViewPatch])
        /// The page's recent events, oldest first, each on one line with its route and how it
        /// ended (`blog.like from blogs/blog.26.like: module blogs: handled (handled by module
        /// blogs)`): the answer to ``ClientMessage/trace``, from a server started for
        /// development. The page's own, for its own viewer. Not numbered.
        case trace(events: [String])

        /// Every message type's name on the wire, in the order of the cases.
        public static let types = [
            "patch", "reset", "confirm", "navigate", "errors", "refused", "tree", "resume", "title", "announce", "theme", "patches", "trace",
        ]

        /// The message type's name on the wire (`"patches"`, `"confirm"`, …).
        public var type: String {
            switch self {
            case .patch: "patch"
            case .reset: "reset"
            case .confirm: "confirm"
            case .navigate: "navigate"
            case .errors: "errors"
            case .refused: "refused"
            case .tree: "tree"
            case .resume: "resume"
            case .title: "title"
            case .announce: "announce"
            case .theme: "theme"
            case .patches: "patches"
            case .trace: "trace"
            }
        }

        /// The sequence number of a numbered message (kept for replay after a reconnect).
        public var sequence: Int? {
            switch self {
            case .patch(let sequence, _), .reset(let sequence, _), .tree(let sequence, _), .patches(let sequence, _, _, _),
                .title(let sequence, _):
                sequence
            default: nil
            }
        }

        /// Whether the message is the whole scene (a page that gets it needs nothing sent
        /// before it).
        public var isWholeScene: Bool {
            switch self {
            case .reset, .tree: true
            default: false
            }
        }

        /// The message as its JSON text (keys sorted, no spaces).
        public var text: String {
            // The messages a change sends every page it reaches are written directly: the
            // same text as the encoder's (a test compares them), without its containers.
            switch self {
            case .patch(let sequence, let operations): return EncodedPatch(operations).text(sequence: sequence)
            case .announce(let texts):
                var text = #"{"texts":["#
                for (index, announcement) in texts.enumerated() {
                    if index > 0 { text += "," }
                    JSONValue.writeJSONString(announcement, into: &text)
                }
                return text + #"],"type":"announce"}"#
            default: break
            }
            return (try? JSONValueEncoder().encode(self))?.compactJSON
                ?? #"{"type":"refused","message":"The server could not encode a message."}"#
        }

        /// Reads a message from its JSON text.
        ///
        /// - Throws: ``UnknownMessage`` for a type this version does not have, or a
        ///   `DecodingError` when the text is not JSON or lacks a field.
        public init(jsonText text: String) throws {
            self = try JSONDecoder().decode(Self.self, from: Data(text.utf8))
        }

        /// A message whose type this version of the protocol does not have: the server is of
        /// another version.
        public struct UnknownMessage: Error, Equatable, CustomStringConvertible {
            /// The type the message named, or `nil` when it named none.
            public var type: String?

            /// A message that named `type` (or no type: `nil`).
            public init(type: String?) {
                self.type = type
            }

            public var description: String {
                "The server sent a message of type \((type ?? "none").quoted), which page protocol \(PageProtocol.version) does not have; is the server of another version?"
            }
        }

        private enum Key: String, CodingKey {
            case type, sequence, operations, html, question, title, message, confirm, cancel, url, text, action, destructive
            case format, version, scene, variant, root, module, node, patches, token, applied, texts, href, events
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let type = try container.decodeIfPresent(String.self, forKey: .type)
            func sequence() throws -> Int { try container.decode(Int.self, forKey: .sequence) }
            func keys(_ texts: [String]) throws -> [ActionKey] {
                try texts.map { text in
                    do {
                        return try ActionKey(validating: text)
                    } catch {
                        throw DecodingError.dataCorruptedError(forKey: .action, in: container, debugDescription: "\(text.quoted) is not an action key.")
                    }
                }
            }
            switch type {
            case "patch": self = .patch(sequence: try sequence(), operations: try container.decode([DOMOperation].self, forKey: .operations))
            case "reset": self = .reset(sequence: try sequence(), html: try container.decode(String.self, forKey: .html))
            case "confirm":
                let confirmation = Confirmation(
                    title: try container.decode(String.self, forKey: .title), message: try container.decodeIfPresent(String.self, forKey: .message),
                    confirmLabel: try container.decode(String.self, forKey: .confirm), cancelLabel: try container.decode(String.self, forKey: .cancel),
                    isDestructive: try container.decodeIfPresent(Bool.self, forKey: .destructive) ?? false)
                let action = try container.decodeIfPresent(String.self, forKey: .action).map { try keys([$0])[0] }
                self = .confirm(question: try container.decode(Int.self, forKey: .question), confirmation, action: action)
            case "navigate": self = .navigate(url: try container.decode(String.self, forKey: .url))
            case "errors": self = .errors(try container.decodeIfPresent(String.self, forKey: .text))
            case "refused":
                let action = try container.decodeIfPresent(String.self, forKey: .action).map { try keys([$0])[0] }
                self = .refused(message: try container.decode(String.self, forKey: .message), action: action)
            case "tree": self = .tree(sequence: try sequence(), document: try ViewTreeDocument(from: decoder))
            case "resume":
                self = .resume(token: try container.decode(String.self, forKey: .token), applied: try keys(container.decode([String].self, forKey: .applied)))
            case "title": self = .title(sequence: try sequence(), text: try container.decode(String.self, forKey: .text))
            case "announce": self = .announce(texts: try container.decode([String].self, forKey: .texts))
            case "theme": self = .theme(href: try container.decode(String.self, forKey: .href))
            case "patches":
                self = .patches(
                    sequence: try sequence(), module: try container.decodeIfPresent(String.self, forKey: .module).map { ModuleID($0) },
                    node: NodeID(try container.decode(String.self, forKey: .node)), patches: try container.decode([ViewPatch].self, forKey: .patches))
            case "trace": self = .trace(events: try container.decode([String].self, forKey: .events))
            default:
                throw UnknownMessage(type: type)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(type, forKey: .type)
            switch self {
            case .patch(let sequence, let operations):
                try container.encode(sequence, forKey: .sequence)
                try container.encode(operations, forKey: .operations)
            case .reset(let sequence, let html):
                try container.encode(sequence, forKey: .sequence)
                try container.encode(html, forKey: .html)
            case .confirm(let question, let confirmation, let action):
                try container.encode(question, forKey: .question)
                try container.encodeIfPresent(action?.rawValue, forKey: .action)
                try container.encode(confirmation.title, forKey: .title)
                try container.encode(confirmation.message, forKey: .message)
                try container.encode(confirmation.confirmLabel, forKey: .confirm)
                try container.encode(confirmation.cancelLabel, forKey: .cancel)
                if confirmation.isDestructive { try container.encode(true, forKey: .destructive) }
            case .navigate(let url):
                try container.encode(url, forKey: .url)
            case .errors(let text):
                try container.encode(text, forKey: .text)
            case .refused(let message, let action):
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(action?.rawValue, forKey: .action)
            case .resume(let token, let applied):
                try container.encode(token, forKey: .token)
                try container.encode(applied.map(\.rawValue), forKey: .applied)
            case .tree(let sequence, let document):
                try container.encode(sequence, forKey: .sequence)
                try container.encode(document.format, forKey: .format)
                try container.encode(document.version, forKey: .version)
                try container.encode(document.scene, forKey: .scene)
                try container.encode(document.variant, forKey: .variant)
                try container.encode(document.root, forKey: .root)
            case .announce(let texts):
                try container.encode(texts, forKey: .texts)
            case .theme(let href):
                try container.encode(href, forKey: .href)
            case .title(let sequence, let text):
                try container.encode(sequence, forKey: .sequence)
                try container.encode(text, forKey: .text)
            case .patches(let sequence, let module, let node, let patches):
                try container.encode(sequence, forKey: .sequence)
                try container.encode(module, forKey: .module)
                try container.encode(node, forKey: .node)
                try container.encode(patches, forKey: .patches)
            case .trace(let events):
                try container.encode(events, forKey: .events)
            }
        }
    }
}
