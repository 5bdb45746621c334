import Foundation
import Scenery

extension PageProtocol {
    /// What a page (or any client of the page socket) sends.
    ///
    /// ```swift
    /// let tap = PageProtocol.ClientMessage.event(node: "info/follow", action: .random())
    /// socket.send(try tap.jsonText())   // {"action":"…","node":"info/follow","type":"event"}
    /// ```
    public enum ClientMessage: Codable, Equatable, Sendable {
        /// The person activated the control with this id. `action` is the action's
        /// idempotency key: a page that sends an action again (its server went away before
        /// answering) sends the same key, and the action is applied once. A form's submit
        /// carries the text of each field by name (`values`).
        case event(node: NodeID, action: ActionKey? = nil, values: [String: String]? = nil)
        /// A long list was scrolled: where its window of rows should start now.
        case window(module: ModuleID, start: Int)
        /// The answer to a question the server asked (``ServerMessage/confirm(question:_:action:)``).
        case answer(question: Int, accept: Bool)
        /// The page's copy is off: send the whole scene.
        case resync
        /// How much of a module (or of a row of a module that counts rows) is on screen now,
        /// from 0 to 1: sent when it crosses the impression threshold either way.
        case visibility(node: NodeID, fraction: Double)
        /// Something went wrong in the client itself (its script, applying a patch, reading a
        /// message), for the scene's author: the server logs it with the scene file's line of
        /// the module that shows `node`, when the client knows the node. Nothing of it reaches
        /// another page.
        case problem(kind: ProblemKind, message: String, node: NodeID? = nil)
        /// Asks for the page's recent events, each with its route and how it ended — what the
        /// inspector lists. A server started for development (`scenery serve --inspect`)
        /// answers with ``ServerMessage/trace(events:)``; any other refuses it.
        case trace

        /// What went wrong in a client that reports a ``problem(kind:message:node:)``.
        public enum ProblemKind: String, Codable, CaseIterable, Sendable {
            /// The client's own code failed (a page script's uncaught error).
            case script
            /// A patch or a tree could not be drawn.
            case render
            /// A message from the server could not be read.
            case decode
        }

        /// The most fields a form's submit may carry.
        public static let largestFieldCount = 64

        /// The message type's name on the wire (`"event"`, `"answer"`, …).
        public var type: String {
            switch self {
            case .event: "event"
            case .window: "window"
            case .answer: "answer"
            case .resync: "resync"
            case .visibility: "visibility"
            case .problem: "problem"
            case .trace: "trace"
            }
        }

        /// Reads a message from its JSON text.
        ///
        /// - Throws: ``Refusal`` when the text is not a message of the protocol (with the
        ///   words a server sends back), or a `DecodingError` when it is not JSON at all.
        public init(jsonText text: String) throws {
            self = try JSONDecoder().decode(Self.self, from: Data(text.utf8))
        }

        /// The message as the JSON text a client sends (keys sorted, no spaces).
        public func jsonText() throws -> String {
            try JSONValueEncoder().encode(self).compactJSON
        }

        private enum Key: String, CodingKey {
            case type, node, module, start, question, accept, fraction, action, values, kind, message
            case legacyType = "t"
        }

        public init(from decoder: any Decoder) throws {
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
                case "trace": self = .trace
                case "visibility":
                    self = .visibility(
                        node: NodeID(try container.decode(String.self, forKey: .node)), fraction: try container.decode(Double.self, forKey: .fraction))
                case "problem":
                    guard let kind = ProblemKind(rawValue: try container.decode(String.self, forKey: .kind)) else { throw Refusal.incomplete(type) }
                    self = .problem(
                        kind: kind, message: try container.decode(String.self, forKey: .message),
                        node: try container.decodeIfPresent(String.self, forKey: .node).map { NodeID($0) })
                default: throw Refusal.unknownType(type)
                }
            } catch is DecodingError {
                throw Refusal.incomplete(type)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(type, forKey: .type)
            switch self {
            case .event(let node, let action, let values):
                try container.encode(node.rawValue, forKey: .node)
                try container.encodeIfPresent(action?.rawValue, forKey: .action)
                try container.encodeIfPresent(values, forKey: .values)
            case .window(let module, let start):
                try container.encode(module.rawValue, forKey: .module)
                try container.encode(start, forKey: .start)
            case .answer(let question, let accept):
                try container.encode(question, forKey: .question)
                try container.encode(accept, forKey: .accept)
            case .resync, .trace:
                break
            case .visibility(let node, let fraction):
                try container.encode(node.rawValue, forKey: .node)
                try container.encode(fraction, forKey: .fraction)
            case .problem(let kind, let message, let node):
                try container.encode(kind.rawValue, forKey: .kind)
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(node?.rawValue, forKey: .node)
            }
        }

        /// Why a message is not one of the protocol's, in words for the page.
        public enum Refusal: Error, Equatable, Sendable {
            /// A message of the protocol from before version 1 (typed with `"t"`).
            case legacy
            /// A message with no `"type"`.
            case untyped
            /// An event whose `"action"` key is not one (8 to 64 letters, digits, `-`, `_`).
            case badActionKey
            /// A submit whose `"values"` are not text by field name, or too many.
            case badValues
            /// A type the protocol does not have.
            case unknownType(String)
            /// A message of a known type that lacks a field or has one of the wrong kind.
            case incomplete(String)

            /// The refusal in words for the page (what a server sends back).
            public var message: String {
                switch self {
                case .legacy:
                    "This page speaks the page protocol from before version \(PageProtocol.version) (messages with \"t\"); load the page again."
                case .untyped: "A message names its \"type\"."
                case .badActionKey: "An event's \"action\" key is 8 to 64 letters, digits, '-' or '_'."
                case .badValues: "A form's \"values\" are text by field name, at most \(ClientMessage.largestFieldCount) fields."
                case .unknownType: "Unknown message type."
                case .incomplete("event"): "An event must name a control (\"node\")."
                case .incomplete("window"): "A window names a module of this page and a row (\"module\", \"start\")."
                case .incomplete("answer"): "An answer names its \"question\" and whether to \"accept\"."
                case .incomplete("visibility"): "A visibility report names a \"node\" of this page and the \"fraction\" of it on screen."
                case .incomplete("problem"): "A problem report names its \"kind\" (script, render or decode) and its \"message\"."
                case .incomplete(let type): "A \(type.quoted) message lacks a field."
                }
            }
        }
    }
}
