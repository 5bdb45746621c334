import Foundation
import Testing

@testable import Scenery

/// A descriptor keeps small payloads compactly; what it holds, compares and encodes is the
/// payload it was given, whatever the number of fields.
@Suite struct EventDescriptorTests {
    static let payloads: [[String: JSONValue]] = [
        [:],
        ["blog": 27],
        ["blog": 27, "liked": true],
        ["user": "3", "name": "Bob", "list": "friends"],
    ]

    @Test(arguments: payloads)
    func aDescriptorGivesBackItsPayload(payload: [String: JSONValue]) throws {
        let descriptor = EventDescriptor("blog.like", payload: payload)
        #expect(descriptor.payload == payload)
        let decoded = try JSONDecoder().decode(EventDescriptor.self, from: try JSONEncoder().encode(descriptor))
        #expect(decoded == descriptor)
        #expect(decoded.payload == payload)
    }

    @Test func equalPayloadsMakeEqualDescriptorsInAnyOrder() {
        var first: [String: JSONValue] = [:]
        first["liked"] = true
        first["blog"] = 27
        var second: [String: JSONValue] = [:]
        second["blog"] = 27
        second["liked"] = true
        let (a, b) = (EventDescriptor("blog.like", payload: first), EventDescriptor("blog.like", payload: second))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != EventDescriptor("blog.like", payload: ["blog": 27, "liked": false]))
    }

    @Test func changingThePayloadKeepsItCanonical() {
        var descriptor = EventDescriptor("blog.like", payload: ["blog": 27, "liked": true])
        descriptor.payload["liked"] = nil
        #expect(descriptor == EventDescriptor("blog.like", payload: ["blog": 27]))
        descriptor.payload["extra"] = "x"
        descriptor.payload["more"] = 1
        #expect(descriptor.payload.count == 3)
        #expect(descriptor == EventDescriptor("blog.like", payload: ["more": 1, "extra": "x", "blog": 27]))
    }
}
