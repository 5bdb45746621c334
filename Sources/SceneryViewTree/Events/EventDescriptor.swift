/// What a control sends when it is activated: an event name and its payload.
///
/// View trees are data, so a button carries the description of an event, never a
/// closure. The host turns a tap into an ``Event`` with ``Event/init(_:from:)-(EventDescriptor,_)``.
///
/// ```swift
/// ViewNode.button("like", title: "Like", sends: EventDescriptor("blog.like", payload: ["blog": 7]))
/// ```
public struct EventDescriptor: Sendable, Hashable, Codable {
    /// The event's name, such as `blog.like`.
    public var name: String
    /// Data the event carries, such as the id of the blog.
    public var payload: [String: JSONValue] {
        get { fields.dictionary }
        set { fields = Fields(newValue) }
    }

    /// The payload as kept: most controls send one or two fields (a blog's id, whether to
    /// like it), kept in a small box instead of a dictionary (about a third to a half of the
    /// memory), since a live page holds a descriptor per control.
    private var fields: Fields

    /// Creates a descriptor.
    public init(_ name: String, payload: [String: JSONValue] = [:]) {
        self.name = name
        self.fields = Fields(payload)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        fields = Fields(try container.decodeIfPresent([String: JSONValue].self, forKey: .payload) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if fields != .none { try container.encode(payload, forKey: .payload) }
    }

    private enum CodingKeys: String, CodingKey { case name, payload }
}

extension EventDescriptor {
    /// A payload in its canonical form: none, one or two fields, or a dictionary of three or
    /// more (so equal payloads are kept alike, and equality and hashing hold).
    private enum Fields: Sendable, Hashable {
        case none
        indirect case one(String, JSONValue)
        /// Two fields, in key order (so equal payloads are kept alike).
        indirect case two(String, JSONValue, String, JSONValue)
        case many([String: JSONValue])

        package init(_ payload: [String: JSONValue]) {
            switch payload.count {
            case 0: self = .none
            case 1: self = .one(payload.first!.key, payload.first!.value)
            case 2:
                let fields = payload.sorted { $0.key < $1.key }
                self = .two(fields[0].key, fields[0].value, fields[1].key, fields[1].value)
            default: self = .many(payload)
            }
        }

        package var dictionary: [String: JSONValue] {
            switch self {
            case .none: [:]
            case .one(let key, let value): [key: value]
            case .two(let first, let firstValue, let second, let secondValue): [first: firstValue, second: secondValue]
            case .many(let payload): payload
            }
        }
    }
}
