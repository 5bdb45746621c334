/// The keys an event's payload type reads, found by decoding it once from a decoder that
/// answers every question with a placeholder and writes down the keys it was asked for.
///
/// Validation uses them to check a scene rule's `$event.key` and `event.key` against the
/// payload its event declares. A payload type whose `init(from:)` does more than read keys
/// (it checks a value, say) yields the keys read before it stopped.
enum PayloadKeys {
    /// The top-level keys `Payload` reads, or `nil` when it reads no keyed container (a
    /// single value is sent under `value`).
    static func of<Payload: Decodable>(_ type: Payload.Type) -> Set<String>? {
        let recorder = KeyRecorder()
        _ = try? Payload(from: recorder)
        return recorder.log.usesKeys ? recorder.log.keys : (recorder.log.isSingleValue ? ["value"] : nil)
    }

    final class Log {
        fileprivate var keys: Set<String> = []
        fileprivate var usesKeys = false
        fileprivate var isSingleValue = false
    }

    /// A decoder at the top level records keys; nested ones (depth > 0) only answer.
    struct KeyRecorder: Decoder {
        let log: Log
        let depth: Int
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        init(log: Log = Log(), depth: Int = 0) {
            self.log = log
            self.depth = depth
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            if depth == 0 { log.usesKeys = true }
            return KeyedDecodingContainer(Keyed<Key>(decoder: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(decoder: self) }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            if depth == 0 { log.isSingleValue = true }
            return Single(decoder: self)
        }

        func nested() -> KeyRecorder { KeyRecorder(log: log, depth: depth + 1) }

        func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
            switch type {
            case is String.Type: return "" as! T
            case is Bool.Type: return false as! T
            case is Int.Type: return 0 as! T
            case is Int64.Type: return Int64(0) as! T
            case is Int32.Type: return Int32(0) as! T
            case is UInt.Type: return UInt(0) as! T
            case is Double.Type: return 0.0 as! T
            case is Float.Type: return Float(0) as! T
            default:
                guard depth < 8 else { throw Unkeyed.End() }  // a recursive payload type
                return try T(from: nested())
            }
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: KeyRecorder
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }

        func record(_ key: Key) { if decoder.depth == 0 { decoder.log.keys.insert(key.stringValue) } }

        func contains(_ key: Key) -> Bool {
            record(key)
            return true
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            record(key)
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            record(key)
            return try decoder.nested().placeholder(type)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            record(key)
            return try? decoder.nested().placeholder(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            record(key)
            return try decoder.nested().container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            record(key)
            return Unkeyed(decoder: decoder.nested())
        }

        func superDecoder() throws -> any Decoder { decoder.nested() }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            record(key)
            return decoder.nested()
        }
    }

    /// An empty array.
    struct Unkeyed: UnkeyedDecodingContainer {
        let decoder: KeyRecorder
        var codingPath: [any CodingKey] = []
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }

        struct End: Error {}

        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw End() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> { throw End() }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw End() }
        mutating func superDecoder() throws -> any Decoder { throw End() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: KeyRecorder
        var codingPath: [any CodingKey] = []

        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.nested().placeholder(type) }
    }
}
