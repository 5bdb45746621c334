import Scenery

extension PageProtocol {
    /// One operation on an HTML page's DOM, by element id, as a ``ServerMessage/patch(sequence:operations:)``
    /// carries it (its JSON: `{"op": "replace", "id": …, "html": …}`). The server plans them
    /// from a scene update with its one HTML renderer; the page script only applies them.
    public enum DOMOperation: Codable, Equatable, Sendable {
        /// Take the element out, keeping it to attach elsewhere in the same patch.
        case detach(NodeID)
        /// Remove the element.
        case remove(NodeID)
        /// Insert new HTML as the `index`-th child of `parent`.
        case insert(parent: NodeID, index: Int, html: String)
        /// Put a detached element back as the `index`-th child of `parent`.
        case attach(NodeID, parent: NodeID, index: Int)
        /// Replace the element (and its subtree) with new HTML.
        case replace(NodeID, html: String)
        /// A section of a long list now holds another window of its rows: its first row
        /// index and row count change, its heading and the rows that stay do not.
        case window(NodeID, firstRow: Int?, totalRows: Int?)

        /// The element the operation acts on: the element itself, or an insert's parent.
        public var target: NodeID {
            switch self {
            case .detach(let id), .remove(let id), .attach(let id, _, _), .replace(let id, _), .window(let id, _, _): id
            case .insert(let parent, _, _): parent
            }
        }

        /// The HTML the operation puts in the page (an insert's or a replace's), else `nil`.
        public var html: String? {
            switch self {
            case .insert(_, _, let html), .replace(_, let html): html
            default: nil
            }
        }

        private enum Key: String, CodingKey {
            case op, id, parent, index, html, first, total
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let op = try container.decode(String.self, forKey: .op)
            func id(_ key: Key = .id) throws -> NodeID { NodeID(try container.decode(String.self, forKey: key)) }
            switch op {
            case "detach": self = .detach(try id())
            case "remove": self = .remove(try id())
            case "insert":
                self = .insert(
                    parent: try id(.parent), index: try container.decode(Int.self, forKey: .index), html: try container.decode(String.self, forKey: .html))
            case "attach": self = .attach(try id(), parent: try id(.parent), index: try container.decode(Int.self, forKey: .index))
            case "replace": self = .replace(try id(), html: try container.decode(String.self, forKey: .html))
            case "window":
                self = .window(
                    try id(), firstRow: try container.decodeIfPresent(Int.self, forKey: .first),
                    totalRows: try container.decodeIfPresent(Int.self, forKey: .total))
            default:
                throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "Unknown DOM operation \(op.quoted).")
            }
        }

        /// One field of the operation on the wire.
        private enum Member {
            case text(String)
            case number(Int?)
        }

        /// The operation's fields, in the sorted order of their keys: what both ``encode(to:)``
        /// and ``writeJSON(into:)`` write.
        private var members: [(key: Key, value: Member)] {
            switch self {
            case .detach(let id), .remove(let id): [(.id, .text(id.rawValue)), (.op, .text(op))]
            case .insert(let parent, let index, let html):
                [(.html, .text(html)), (.index, .number(index)), (.op, .text(op)), (.parent, .text(parent.rawValue))]
            case .attach(let id, let parent, let index):
                [(.id, .text(id.rawValue)), (.index, .number(index)), (.op, .text(op)), (.parent, .text(parent.rawValue))]
            case .replace(let id, let html): [(.html, .text(html)), (.id, .text(id.rawValue)), (.op, .text(op))]
            case .window(let id, let first, let total):
                [(.first, .number(first)), (.id, .text(id.rawValue)), (.op, .text(op)), (.total, .number(total))]
            }
        }

        /// The operation's name on the wire.
        private var op: String {
            switch self {
            case .detach: "detach"
            case .remove: "remove"
            case .insert: "insert"
            case .attach: "attach"
            case .replace: "replace"
            case .window: "window"
            }
        }

        /// Appends the operation as compact JSON with sorted keys: what ``encode(to:)`` gives
        /// through `JSONValueEncoder`, written directly.
        func writeJSON(into text: inout String) {
            text += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { text += "," }
                text += #""\#(member.key.rawValue)":"#
                switch member.value {
                case .text(let value): JSONValue.writeJSONString(value, into: &text)
                case .number(let value): text += value.map { String($0) } ?? "null"
                }
            }
            text += "}"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for member in members {
                switch member.value {
                case .text(let value): try container.encode(value, forKey: member.key)
                case .number(let value): try container.encode(value, forKey: member.key)
                }
            }
        }
    }
}
