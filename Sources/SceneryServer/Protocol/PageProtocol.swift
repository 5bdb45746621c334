import Scenery

/// The page protocol, version 1: the messages a live page and `scenery serve` exchange
/// over the page socket (`/live?session=ID&since=N&protocol=1`), typed on both sides.
///
/// The page script (``ClientScript``) mirrors these types; the Serving guide documents them.
/// A client announces the version it speaks in the socket's address: a client that names
/// another version, or none (a page from before the protocol was versioned), is closed at
/// once with ``reloadCloseCode`` and a reason that says to load the page again, which
/// gives it the server's own script.
///
/// ```text
/// page → server  {"type":"event","node":"blogs/blog.26.like"}
/// page → server  {"type":"event","node":"tasks/new","action":"…","values":{"title":"Send the invitations"}}
/// server → page  {"type":"patch","sequence":4,"operations":[{"op":"replace","id":"blogs/blog.26.likes","html":"…"}]}
/// ```
enum PageProtocol {
    /// The version this server speaks.
    static let version = 1

    /// The close code that tells a page to load itself again (its scene is gone from this
    /// server, or it speaks another version of the protocol).
    static let reloadCloseCode = 4404

    /// The largest message number either end uses: 2^53 − 1, the largest integer a page
    /// script counts exactly. A page that names a larger one (or a negative one) as the last
    /// message it applied is refused where the number enters, so no counter can overflow.
    static let largestSequence = (1 << 53) - 1

    /// The message number a page's socket address names as the last it applied
    /// (`since=N`): 0 when it names none.
    ///
    /// - Throws: ``BadSequence`` when the text is not a whole number from 0 to
    ///   ``largestSequence``.
    static func sequence(fromQuery text: Substring?) throws(BadSequence) -> Int {
        guard let text else { return 0 }
        guard text.utf8.count <= 16, let number = Int(text), (0...largestSequence).contains(number) else { throw BadSequence() }
        return number
    }

    /// A `since` that is not a message number of the page protocol.
    struct BadSequence: Error, Equatable {
        /// In words for the page (a close reason: at most 123 bytes).
        var message: String { "since must be a message number from 0 to 2^53-1; load the page again." }
    }

    /// What a page sends.
    enum ClientMessage: Decodable, Equatable {
        /// The person activated the control with this id. `action` is the action's
        /// idempotency key: a page that sends an action again (its server went away before
        /// answering) sends the same key, and the action is applied once. A form's submit
        /// carries the text of each field by name (`values`).
        case event(node: NodeID, action: ActionKey? = nil, values: [String: String]? = nil)
        /// A long list was scrolled: where its window of rows should start now.
        case window(module: ModuleID, start: Int)
        /// The answer to a question the server asked (``ServerMessage/confirm(question:_:)``).
        case answer(question: Int, accept: Bool)
        /// The page's copy is off: send the whole scene.
        case resync
        /// How much of a module (or of a row of a module that counts rows) is on screen now,
        /// from 0 to 1: sent when it crosses the impression threshold either way.
        case visibility(node: NodeID, fraction: Double)

        private enum Key: String, CodingKey {
            case type, node, module, start, question, accept, fraction, action, values
            case legacyType = "t"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard let type = try container.decodeIfPresent(String.self, forKey: .type) else {
                if container.contains(.legacyType) { throw Refusal.legacy }
                throw Refusal.untyped
            }
            do {
                switch type {
                case "event":
                    let node = NodeID(try container.decode(String.self, forKey: .node))
                    var values: [String: String]?
                    if container.contains(.values) {
                        guard let text = try? container.decode([String: String].self, forKey: .values), text.count <= Self.largestFieldCount else {
                            throw Refusal.badValues
                        }
                        values = text
                    }
                    guard let text = try container.decodeIfPresent(String.self, forKey: .action) else {
                        self = .event(node: node, values: values)
                        return
                    }
                    guard let action = try? ActionKey(validating: text) else { throw Refusal.badActionKey }
                    self = .event(node: node, action: action, values: values)
                case "window":
                    self = .window(module: ModuleID(try container.decode(String.self, forKey: .module)), start: try container.decode(Int.self, forKey: .start))
                case "answer":
                    self = .answer(question: try container.decode(Int.self, forKey: .question), accept: try container.decode(Bool.self, forKey: .accept))
                case "resync": self = .resync
                case "visibility":
                    self = .visibility(
                        node: NodeID(try container.decode(String.self, forKey: .node)), fraction: try container.decode(Double.self, forKey: .fraction))
                default: throw Refusal.unknownType(type)
                }
            } catch is DecodingError {
                throw Refusal.incomplete(type)
            }
        }

        /// The most fields a form's submit may carry.
        static let largestFieldCount = 64

        /// Why a message is not one of the protocol's, in words for the page.
        enum Refusal: Error, Equatable {
            case legacy, untyped, badActionKey, badValues
            case unknownType(String)
            case incomplete(String)

            var message: String {
                switch self {
                case .legacy:
                    "This page speaks the page protocol from before version \(PageProtocol.version) (messages with \"t\"); load the page again."
                case .untyped: "A message names its \"type\"."
                case .badActionKey: "An event's \"action\" key is 8 to 64 letters, digits, '-' or '_'."
                case .badValues: "A form's \"values\" are text by field name, at most \(largestFieldCount) fields."
                case .unknownType: "Unknown message type."
                case .incomplete("event"): "An event must name a control (\"node\")."
                case .incomplete("window"): "A window names a module of this page and a row (\"module\", \"start\")."
                case .incomplete("answer"): "An answer names its \"question\" and whether to \"accept\"."
                case .incomplete("visibility"): "A visibility report names a \"node\" of this page and the \"fraction\" of it on screen."
                case .incomplete(let type): "A \(type.quoted) message lacks a field."
                }
            }
        }
    }

    /// What the server sends a page.
    enum ServerMessage: Encodable, Equatable {
        /// Operations on the page's DOM for one update of the scene, numbered.
        case patch(sequence: Int, operations: [DOMPlanner.Operation])
        /// The whole scene as HTML, numbered (after a resync, or a scene file changed).
        case reset(sequence: Int, html: String)
        /// A question for the person; answer with ``ClientMessage/answer(question:accept:)``.
        case confirm(question: Int, Confirmation)
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
        /// ``ResumeToken``), and the keys of the actions this server has finished with since
        /// the last one (the page stops keeping them to send again). Not numbered.
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

        /// The sequence number of a numbered message (kept for replay after a reconnect).
        var sequence: Int? {
            switch self {
            case .patch(let sequence, _), .reset(let sequence, _), .tree(let sequence, _), .patches(let sequence, _, _, _),
                .title(let sequence, _):
                sequence
            default: nil
            }
        }

        /// Whether the message is the whole scene (a page that gets it needs nothing sent
        /// before it).
        var isWholeScene: Bool {
            switch self {
            case .reset, .tree: true
            default: false
            }
        }

        /// The message as its JSON text.
        var text: String {
            (try? JSONValueEncoder().encode(self))?.compactJSON ?? #"{"type":"refused","message":"The server could not encode a message."}"#
        }

        private enum Key: String, CodingKey {
            case type, sequence, operations, html, question, title, message, confirm, cancel, url, text, action, destructive
            case format, version, scene, variant, root, module, node, patches, token, applied, texts, href
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .patch(let sequence, let operations):
                try container.encode("patch", forKey: .type)
                try container.encode(sequence, forKey: .sequence)
                try container.encode(operations, forKey: .operations)
            case .reset(let sequence, let html):
                try container.encode("reset", forKey: .type)
                try container.encode(sequence, forKey: .sequence)
                try container.encode(html, forKey: .html)
            case .confirm(let question, let confirmation):
                try container.encode("confirm", forKey: .type)
                try container.encode(question, forKey: .question)
                try container.encode(confirmation.title, forKey: .title)
                try container.encode(confirmation.message, forKey: .message)
                try container.encode(confirmation.confirmLabel, forKey: .confirm)
                try container.encode(confirmation.cancelLabel, forKey: .cancel)
                if confirmation.isDestructive { try container.encode(true, forKey: .destructive) }
            case .navigate(let url):
                try container.encode("navigate", forKey: .type)
                try container.encode(url, forKey: .url)
            case .errors(let text):
                try container.encode("errors", forKey: .type)
                try container.encode(text, forKey: .text)
            case .refused(let message, let action):
                try container.encode("refused", forKey: .type)
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(action?.rawValue, forKey: .action)
            case .resume(let token, let applied):
                try container.encode("resume", forKey: .type)
                try container.encode(token, forKey: .token)
                try container.encode(applied.map(\.rawValue), forKey: .applied)
            case .tree(let sequence, let document):
                try container.encode("tree", forKey: .type)
                try container.encode(sequence, forKey: .sequence)
                try container.encode(document.format, forKey: .format)
                try container.encode(document.version, forKey: .version)
                try container.encode(document.scene, forKey: .scene)
                try container.encode(document.variant, forKey: .variant)
                try container.encode(document.root, forKey: .root)
            case .announce(let texts):
                try container.encode("announce", forKey: .type)
                try container.encode(texts, forKey: .texts)
            case .theme(let href):
                try container.encode("theme", forKey: .type)
                try container.encode(href, forKey: .href)
            case .title(let sequence, let text):
                try container.encode("title", forKey: .type)
                try container.encode(sequence, forKey: .sequence)
                try container.encode(text, forKey: .text)
            case .patches(let sequence, let module, let node, let patches):
                try container.encode("patches", forKey: .type)
                try container.encode(sequence, forKey: .sequence)
                try container.encode(module, forKey: .module)
                try container.encode(node, forKey: .node)
                try container.encode(patches, forKey: .patches)
            }
        }
    }
}
