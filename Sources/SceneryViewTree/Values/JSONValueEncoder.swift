import Foundation

/// Encodes an `Encodable` value straight into a ``JSONValue``, without text in between: what
/// `EventKind/descriptor(_:)` uses to turn a payload into the keys scene files read.
///
/// It agrees with `JSONDecoder`'s defaults, so `EventKind/payload(of:)` reads back what it
/// wrote: `Date` as seconds since 2001 (its own encoding), `Data` as Base64 text, `URL` as its
/// absolute string, `Decimal` as a number. A number that is not finite becomes `null`.
///
/// ```swift
/// struct Like: Codable { var blog: Int64; var liked: Bool }
/// try JSONValueEncoder().encode(Like(blog: 7, liked: true))   // .object(["blog": 7, "liked": true])
/// ```
package struct JSONValueEncoder: Sendable {
    package init() {}

    /// The value as JSON.
    /// - Throws: What the value's `encode(to:)` throws.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        let root = EncodingSlot()
        try root.store(value, codingPath: [])
        return root.value
    }
}

/// Where one value is being written: a leaf, or an object or array of further slots.
private final class EncodingSlot {
    package enum Content {
        case empty
        case leaf(JSONValue)
        case object([String: EncodingSlot])
        case array([EncodingSlot])
    }

    fileprivate var content: Content = .empty

    package var value: JSONValue {
        switch content {
        case .empty: .object([:])
        case .leaf(let value): value
        case .object(let members): .object(members.mapValues(\.value))
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    /// Stores a value, with the special cases `JSONEncoder` makes by default.
    package func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let json as JSONValue: content = .leaf(json)
        case let data as Data: content = .leaf(.string(data.base64EncodedString()))
        case let url as URL: content = .leaf(.string(url.absoluteString))
        case let decimal as Decimal: content = .leaf(Self.number(NSDecimalNumber(decimal: decimal).doubleValue))
        default: try value.encode(to: SlotEncoder(slot: self, codingPath: codingPath))
        }
    }

    package func member(_ key: String) -> EncodingSlot {
        var members: [String: EncodingSlot] = [:]
        if case .object(let existing) = content { members = existing }
        let slot = members[key] ?? EncodingSlot()
        members[key] = slot
        content = .object(members)
        return slot
    }

    package func appended() -> EncodingSlot {
        var elements: [EncodingSlot] = []
        if case .array(let existing) = content { elements = existing }
        let slot = EncodingSlot()
        elements.append(slot)
        content = .array(elements)
        return slot
    }

    package static func number(_ value: Double) -> JSONValue {
        value.isFinite ? .double(value) : .null
    }

    package static func integer(_ value: some BinaryInteger) -> JSONValue {
        Int(exactly: value).map(JSONValue.int) ?? .double(Double(value))
    }
}

private struct SlotEncoder: Encoder {
    package let slot: EncodingSlot
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object([:]) }
        return KeyedEncodingContainer(KeyedSlotContainer<Key>(slot: slot, codingPath: codingPath))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.content {} else { slot.content = .array([]) }
        return UnkeyedSlotContainer(slot: slot, codingPath: codingPath)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleSlotContainer(slot: slot, codingPath: codingPath)
    }
}

private struct KeyedSlotContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    package let slot: EncodingSlot
    package let codingPath: [any CodingKey]

    package mutating func encodeNil(forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(.null) }
    package mutating func encode(_ value: Bool, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(.bool(value)) }
    package mutating func encode(_ value: String, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(.string(value)) }
    package mutating func encode(_ value: Double, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.number(value)) }
    package mutating func encode(_ value: Float, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.number(Double(value))) }
    package mutating func encode(_ value: Int, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(.int(value)) }
    package mutating func encode(_ value: Int8, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: Int16, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: Int32, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: Int64, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt8, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt16, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt32, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt64, forKey key: Key) throws { slot.member(key.stringValue).content = .leaf(EncodingSlot.integer(value)) }

    package mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try slot.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = slot.member(key.stringValue)
        child.content = .object([:])
        return KeyedEncodingContainer(KeyedSlotContainer<NestedKey>(slot: child, codingPath: codingPath + [key]))
    }

    package mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = slot.member(key.stringValue)
        child.content = .array([])
        return UnkeyedSlotContainer(slot: child, codingPath: codingPath + [key])
    }

    package mutating func superEncoder() -> any Encoder {
        SlotEncoder(slot: slot.member("super"), codingPath: codingPath)
    }

    package mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedSlotContainer: UnkeyedEncodingContainer {
    package let slot: EncodingSlot
    package let codingPath: [any CodingKey]

    package var count: Int {
        if case .array(let elements) = slot.content { return elements.count }
        return 0
    }

    package mutating func encodeNil() throws { slot.appended().content = .leaf(.null) }
    package mutating func encode(_ value: Bool) throws { slot.appended().content = .leaf(.bool(value)) }
    package mutating func encode(_ value: String) throws { slot.appended().content = .leaf(.string(value)) }
    package mutating func encode(_ value: Double) throws { slot.appended().content = .leaf(EncodingSlot.number(value)) }
    package mutating func encode(_ value: Int) throws { slot.appended().content = .leaf(.int(value)) }
    package mutating func encode(_ value: Int64) throws { slot.appended().content = .leaf(EncodingSlot.integer(value)) }

    package mutating func encode(_ value: some Encodable) throws {
        try slot.appended().store(value, codingPath: codingPath)
    }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = slot.appended()
        child.content = .object([:])
        return KeyedEncodingContainer(KeyedSlotContainer<NestedKey>(slot: child, codingPath: codingPath))
    }

    package mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = slot.appended()
        child.content = .array([])
        return UnkeyedSlotContainer(slot: child, codingPath: codingPath)
    }

    package mutating func superEncoder() -> any Encoder {
        SlotEncoder(slot: slot.appended(), codingPath: codingPath)
    }
}

private struct SingleSlotContainer: SingleValueEncodingContainer {
    package let slot: EncodingSlot
    package let codingPath: [any CodingKey]

    package mutating func encodeNil() throws { slot.content = .leaf(.null) }
    package mutating func encode(_ value: Bool) throws { slot.content = .leaf(.bool(value)) }
    package mutating func encode(_ value: String) throws { slot.content = .leaf(.string(value)) }
    package mutating func encode(_ value: Double) throws { slot.content = .leaf(EncodingSlot.number(value)) }
    package mutating func encode(_ value: Float) throws { slot.content = .leaf(EncodingSlot.number(Double(value))) }
    package mutating func encode(_ value: Int) throws { slot.content = .leaf(.int(value)) }
    package mutating func encode(_ value: Int8) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: Int16) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: Int32) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: Int64) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt8) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt16) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt32) throws { slot.content = .leaf(EncodingSlot.integer(value)) }
    package mutating func encode(_ value: UInt64) throws { slot.content = .leaf(EncodingSlot.integer(value)) }

    package mutating func encode(_ value: some Encodable) throws {
        try slot.store(value, codingPath: codingPath)
    }
}
