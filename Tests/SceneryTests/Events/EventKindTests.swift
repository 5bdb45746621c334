import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// Events declared as values: names and payloads the compiler checks.
@Suite struct EventKindTests {
    struct Like: Codable, Sendable, Hashable {
        var blog: Int64
        var liked: Bool
    }

    static let like = EventKind("blog.like", payload: Like.self)
    static let refresh = EventKind("list.refresh")

    @Test func aControlSendsThePayloadAsKeysSceneFilesRead() {
        let descriptor = Self.like.descriptor(Like(blog: 7, liked: true))
        #expect(descriptor == EventDescriptor("blog.like", payload: ["blog": 7, "liked": true]))
        #expect(Self.refresh.descriptor() == EventDescriptor("list.refresh"))
    }

    @Test func aHandlerGetsThePayloadDecoded() throws {
        let event = Self.like.event(Like(blog: 7, liked: false), from: "row.7.like")
        #expect(try Self.like.payload(of: event) == Like(blog: 7, liked: false))
        // Another kind is not an error: it is simply not this one.
        #expect(try Self.like.payload(of: Event("blog.open", from: "row.7")) == nil)
    }

    @Test func aPayloadWithOtherKeysSaysWhatItCarries() {
        let forged = Event("blog.like", from: "row.7.like", payload: ["blog": "seven"])
        let error = #expect(throws: EventPayloadError.self) { try Self.like.payload(of: forged) }
        #expect(error?.message.hasPrefix("The event 'blog.like' carries [\"blog\"], which is not a Like:") == true)
    }

    @Test func aDescriptorTakesItsEventsAsKinds() {
        let descriptor = ModuleDescriptor(type: "Likes", summary: "Likes.", sends: [Self.like, Self.refresh], performs: [Self.like])
        #expect(descriptor.events == ["blog.like", "list.refresh"])
        #expect(descriptor.defaultActions == ["blog.like"])
    }

    @Test func aRouteIsValuesWithSentences() async throws {
        let registry = SceneRegistry.testing(TestService(), scenes: Fixtures.all)
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        let outcome = await scene.send(Event("user.open", from: "info/name"))
        #expect(outcome.route.map(\.action) == [.passed, .blocked])
        #expect(outcome.route.map(\.description) == ["module info: passed", "scene: blocked"])
        #expect(outcome.result == .cancelled(by: .scene))
        #expect(outcome.result.description == "cancelled by scene")
    }
}
