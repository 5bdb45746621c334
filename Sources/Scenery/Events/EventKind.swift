import Foundation

/// An event a module sends, declared as a value: its name and the type of its payload.
///
/// Declaring events as kinds keeps names and payload keys in one place the compiler checks:
/// a control is given a payload value, and a handler gets the payload decoded. Scene files
/// keep using the name (`"on": "bin.restore"`) and the payload's keys (`$event.title`).
///
/// ```swift
/// actor RecycleBinModule: Module {
///     struct Restore: Codable, Sendable { var blog: Int64; var title: String }
///     static let restore = EventKind("bin.restore", payload: Restore.self)
///
///     static let descriptor = ModuleDescriptor(
///         type: "RecycleBinModule", summary: "…", sends: [restore], performs: [restore])
///
///     // in render():
///     .button("row.7.restore", title: "Restore", sends: Self.restore.descriptor(Restore(blog: 7, title: "March")))
///
///     func perform(_ event: Event) async {
///         guard let restore = try? Self.restore.payload(of: event) else { return }
///         await restoreBlog(restore.blog)
///     }
/// }
/// ```
public struct EventKind<Payload: Codable & Sendable>: AnyEventKind, Hashable {
    /// The event's name, as scene files write it.
    public let name: String

    /// Declares an event with this name and payload type.
    public init(_ name: String, payload: Payload.Type = Payload.self) {
        self.name = name
    }

    /// What a control sends for this event with `payload`.
    ///
    /// The payload is encoded with `JSONValueEncoder` (no text in between, so a control per
    /// row costs little); a value that does not encode to a JSON object (a bare number, say)
    /// is sent under the key `value`.
    public func descriptor(_ payload: Payload) -> EventDescriptor {
        EventDescriptor(name, payload: Self.encode(payload))
    }

    /// The event itself, from a node, for tests and hosts that send events directly.
    public func event(_ payload: Payload, from source: NodeID) -> Event {
        Event(name, from: source, payload: Self.encode(payload))
    }

    /// The keys `Payload` reads (its coding keys), found by decoding it once from a
    /// recording decoder.
    public var payloadKeys: Set<String>? { PayloadKeys.of(Payload.self) }

    /// Whether `event` is of this kind (by name).
    public func matches(_ event: Event) -> Bool {
        event.name == name
    }

    /// The payload of `event` decoded, or `nil` if the event is of another kind.
    /// - Throws: ``EventPayloadError`` if it is of this kind but its payload does not decode
    ///   (a scene rule or a host sent different keys).
    public func payload(of event: Event) throws(EventPayloadError) -> Payload? {
        guard matches(event) else { return nil }
        do {
            let data = try JSONEncoder().encode(event.payload)
            return try JSONDecoder().decode(Payload.self, from: data)
        } catch {
            throw EventPayloadError(
                event: name,
                message:
                    "The event \(name.quoted) carries \(event.payload.keys.sorted()), which is not a \(Payload.self): \(SceneryError.message(for: error)). Send it with the kind's descriptor(_:)."
            )
        }
    }

    private static func encode(_ payload: Payload) -> [String: JSONValue] {
        // A payload whose own encode(to:) throws sends no fields; the handler's
        // payload(of:) then says what is missing.
        guard let value = try? JSONValueEncoder().encode(payload) else { return [:] }
        if case .object(let members) = value { return members }
        return ["value": value]
    }
}

/// An event kind of any payload type: its name, for descriptors.
public protocol AnyEventKind: Sendable {
    /// The event's name.
    var name: String { get }
    /// The keys of its payload, for validating a scene rule's `$event.key` and `event.key`;
    /// `nil` when they are not known.
    var payloadKeys: Set<String>? { get }
}

extension AnyEventKind {
    public var payloadKeys: Set<String>? { nil }
}

/// The payload of an event does not decode as its kind's payload type.
public struct EventPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The event's name.
    public var event: String
    /// What is wrong, and how to fix it.
    public var message: String

    public var description: String { message }
}

/// The payload of an event that carries none.
public struct NoPayload: Codable, Sendable, Hashable {
    public init() {}
}

extension EventKind where Payload == NoPayload {
    /// Declares an event with no payload.
    public init(_ name: String) {
        self.name = name
    }

    /// What a control sends for this event.
    public func descriptor() -> EventDescriptor {
        EventDescriptor(name)
    }
}

extension ModuleDescriptor {
    /// Creates a descriptor whose events are declared as kinds.
    ///
    /// - Parameters:
    ///   - type: The name scene files use for the module type.
    ///   - summary: One sentence for tools (`scenery list`).
    ///   - version: The module's version, for scenes that require a newer one.
    ///   - parameters: The parameters scene files may give.
    ///   - sends: Every event the module's nodes send.
    ///   - performs: The events the module acts on itself in ``Module/perform(_:)`` once the
    ///     scene lets them through (see ``defaultActions``).
    ///   - ownerOnlyParameter: The user parameter that must be the viewer (private data).
    ///   - ownerOnlyActions: Actions only the user named by a parameter may take, by event
    ///     name (see ``ownerOnlyActions``).
    ///   - countsRowImpressions: Whether the rows of the module's lists count impressions of
    ///     their own (see ``countsRowImpressions``).
    public init(
        type: String, summary: String, version: Int = 1, parameters: [ParameterSpec] = [], sends: [any AnyEventKind],
        performs: [any AnyEventKind] = [], ownerOnlyParameter: String? = nil, ownerOnlyActions: [String: String] = [:],
        countsRowImpressions: Bool = false
    ) {
        self.init(
            type: type, summary: summary, version: version, parameters: parameters, events: Set(sends.map(\.name)),
            defaultActions: Set(performs.map(\.name)), ownerOnlyParameter: ownerOnlyParameter, ownerOnlyActions: ownerOnlyActions,
            countsRowImpressions: countsRowImpressions)
        for kind in sends {
            if let keys = kind.payloadKeys { payloadKeys[kind.name] = keys }
        }
    }
}
