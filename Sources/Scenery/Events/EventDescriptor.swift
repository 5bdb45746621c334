/// What a control sends when it is activated: an event name and its payload.
///
/// View trees are data, so a button carries the description of an event, never a
/// closure. The host turns a tap into an ``Event`` with ``Event/init(_:from:)``.
///
/// ```swift
/// ViewNode.button("like", title: "Like", sends: EventDescriptor("blog.like", payload: ["blog": 7]))
/// ```
public struct EventDescriptor: Sendable, Hashable, Codable {
    /// The event's name, such as `blog.like`.
    public var name: String
    /// Data the event carries, such as the id of the blog.
    public var payload: [String: JSONValue]

    /// Creates a descriptor.
    public init(_ name: String, payload: [String: JSONValue] = [:]) {
        self.name = name
        self.payload = payload
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        payload = try container.decodeIfPresent([String: JSONValue].self, forKey: .payload) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if !payload.isEmpty { try container.encode(payload, forKey: .payload) }
    }

    private enum CodingKeys: String, CodingKey { case name, payload }
}
