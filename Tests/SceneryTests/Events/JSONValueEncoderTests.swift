import Foundation
import Testing

@testable import Scenery

/// Payloads encoded straight to JSON values read back with JSONDecoder's defaults.
@Suite struct JSONValueEncoderTests {
    struct Everything: Codable, Hashable {
        enum Kind: String, Codable { case draft, published }
        struct Tag: Codable, Hashable { var name: String }
        var id: Int64
        var small: UInt8
        var ratio: Double
        var title: String
        var flag: Bool
        var missing: String?
        var present: String?
        var kind: Kind
        var tags: [Tag]
        var matrix: [[Int]]
        var lookup: [String: Int]
        var when: Date
        var bytes: Data
        var link: URL
        var amount: Decimal
    }

    let value = Everything(
        id: 9_007_199_254_740_993, small: 255, ratio: 0.25, title: "“Tea” \\ party", flag: true, missing: nil, present: "here", kind: .published,
        tags: [.init(name: "a"), .init(name: "b")], matrix: [[1, 2], [], [3]], lookup: ["x": 1], when: Date(timeIntervalSinceReferenceDate: 86_400.5),
        bytes: Data([0, 1, 254]), link: URL(string: "https://example.com/a?b=c")!, amount: Decimal(string: "12.5")!)

    @Test func encodesWhatJSONDecoderReadsBack() throws {
        let json = try JSONValueEncoder().encode(value)
        let decoded = try JSONDecoder().decode(Everything.self, from: JSONEncoder().encode(json))
        #expect(decoded == value)
    }

    @Test func encodesTheShapesScenesRead() throws {
        guard case .object(let members) = try JSONValueEncoder().encode(value) else {
            Issue.record("not an object")
            return
        }
        #expect(members["id"] == .int(9_007_199_254_740_993))
        #expect(members["missing"] == nil)
        #expect(members["kind"] == "published")
        #expect(members["tags"] == .array([.object(["name": "a"]), .object(["name": "b"])]))
        #expect(members["bytes"] == .string(Data([0, 1, 254]).base64EncodedString()))
        #expect(members["link"] == "https://example.com/a?b=c")
        #expect(members["amount"] == .double(12.5))
        #expect(try JSONValueEncoder().encode(Double.nan) == .null)
        #expect(try JSONValueEncoder().encode(UInt64.max) == .double(Double(UInt64.max)))
        #expect(try JSONValueEncoder().encode([1, 2]) == .array([1, 2]))
    }
}
