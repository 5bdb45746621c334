/// Something that happened in a scene: a tap, a selection, a request to retry.
///
/// An event carries a name, the id of the node it came from and a payload. It bubbles
/// from the cell to its module, then to the scene (which applies the scene file's event
/// rules), then to the host.
///
/// ```swift
/// let outcome = await scene.send(Event("blog.like", from: "blogs/row.7/like", payload: ["blog": 7]))
/// ```
public struct Event: Sendable, Hashable, Codable {
    /// The event's name, such as `user.unfollow`.
    public var name: String
    /// The node the event came from, qualified by its module (`info/follow`).
    public var source: NodeID
    /// Data the event carries.
    public var payload: [String: JSONValue]

    /// Creates an event.
    public init(_ name: String, from source: NodeID, payload: [String: JSONValue] = [:]) {
        self.name = name
        self.source = source
        self.payload = payload
    }

    /// Creates the event a control sends: its descriptor, from the control's node.
    public init(_ descriptor: EventDescriptor, from source: NodeID) {
        self.init(descriptor.name, from: source, payload: descriptor.payload)
    }

    /// A copy with another name and extra payload, for a level that transforms the event.
    public func renamed(_ name: String, adding payload: [String: JSONValue] = [:]) -> Event {
        Event(name, from: source, payload: self.payload.merging(payload) { _, new in new })
    }
}

/// The names of the events the runtime itself understands.
///
/// Renderers attach these to the controls they draw (retry on an error block, a tab in
/// a switch); the scene handles them before any module sees them.
package enum SceneEvents {
    /// Retry a module that failed to load. Payload: `module`.
    package static let retry = "scenery.retry"
    /// Reload a module from the start. Payload: `module`.
    package static let refresh = "scenery.refresh"
    /// Load the next page of a module. Payload: `module`.
    package static let loadMore = "scenery.loadMore"
    /// Select a tab of a tab switch. Payload: `tabs` (the switch id), `tab`.
    package static let selectTab = "scenery.selectTab"

    /// Whether the name is one of the runtime's own events.
    package static func isBuiltIn(_ name: String) -> Bool { name.hasPrefix("scenery.") }
}
