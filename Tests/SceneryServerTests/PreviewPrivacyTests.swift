import Foundation
import HTTPTypes
import Hummingbird
import SceneryServerTesting
import Testing
import WSClient

@testable import SceneryServer

/// The preview is an authoring tool: off unless asked for, on this machine only, and a
/// frame shows a scene as its author or signed out, never as someone else.
@Suite(.timeLimit(.minutes(5))) struct PreviewPrivacyTests {
    let fixture: ServerFixture
    static let drafts = ["Through the looking glass", "草稿：下一篇茶会", "sections#drafts"]

    init() throws { fixture = try ServerFixture() }

    func expectNoDrafts(_ text: String, _ comment: Comment) {
        for title in Self.drafts { #expect(!text.contains(title), comment) }
    }

    @Test func thePreviewIsOffUnlessTheServerIsStartedForAuthoring() async throws {
        let plain = try ServerFixture { $0.enablesPreview = false }
        try await plain.server.application().test(.live) { client in
            for uri in ["/preview/user-profile?user=1", "/preview/user-profile/frame?as=1&user=1"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.cookie: plain.cookie(for: "1")])
                #expect(response.status == .notFound, "\(uri)")
            }
            let index = try await client.execute(uri: "/scenes", method: .get)
            #expect(!index.text.contains("preview every variant"))
        }
    }

    @Test func thePreviewIsNeverServedOnAnAddressOthersReach() async throws {
        var configuration = SceneryServer.Configuration(host: "0.0.0.0", port: 0)
        configuration.enablesPreview = true
        #expect {
            try configuration.validate()
        } throws: { error in
            "\(error)".contains("served on a loopback address only")
        }
        let server = SceneryServer(registry: fixture.server.registry, users: [], configuration: configuration)
        await #expect(throws: SceneryServer.ConfigurationError.self) { try await server.run() }
        for host in ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"] {
            #expect(SceneryServer.Configuration.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.2", "::", "example.com", "127.0.0.1.example.com", "1127.0.0.1"] {
            #expect(!SceneryServer.Configuration.isLoopback(host), "\(host)")
        }
    }

    @Test func aRequestFromAnotherMachineIsRefused() async throws {
        // The router test framework has no socket, so no loopback address: as from afar.
        try await fixture.server.application().test(.router) { client in
            let response = try await client.execute(uri: "/preview/user-profile?user=1", method: .get, headers: [.cookie: fixture.cookie(for: "1")])
            #expect(response.status == .forbidden)
            #expect(response.text.contains("The preview answers requests from this machine only"))
            let frame = try await client.execute(
                uri: "/preview/user-profile/frame?as=1&user=1", method: .get, headers: [.cookie: fixture.cookie(for: "1")])
            #expect(frame.status == .forbidden)
            expectNoDrafts(frame.text, "no frame from afar")
            #expect(try await !client.execute(uri: "/scenes", method: .get).text.contains("preview every variant"))
        }
    }

    /// Behind a trusted proxy every request comes from the proxy's loopback address: the
    /// client the proxy names decides, and a request that names none is refused.
    @Test func behindATrustedProxyTheClientItNamesDecides() async throws {
        let proxied = try ServerFixture { $0.trustedProxies = ["127.0.0.1", "::1"] }
        let forwarded = try #require(HTTPField.Name("X-Forwarded-For"))
        try await proxied.server.application().test(.live) { client in
            for from in ["203.0.113.9", "127.0.0.1, 203.0.113.9", nil] as [String?] {
                var headers: HTTPFields = [.cookie: proxied.cookie(for: "1")]
                if let from { headers[forwarded] = from }
                let page = try await client.execute(uri: "/preview/user-profile?user=1", method: .get, headers: headers)
                #expect(page.status == .forbidden, "forwarded for \(from ?? "nobody")")
                let frame = try await client.execute(uri: "/preview/user-profile/frame?as=1&user=1&arm.friends-layout=compact", method: .get, headers: headers)
                #expect(frame.status == .forbidden, "forwarded for \(from ?? "nobody")")
                expectNoDrafts(frame.text, "no frame for \(from ?? "nobody")")
                let index = try await client.execute(uri: "/scenes", method: .get, headers: headers)
                #expect(!index.text.contains("preview every variant"), "no preview links for \(from ?? "nobody")")
            }
            // An author on this machine, through the proxy.
            let local: HTTPFields = [.cookie: proxied.cookie(for: "1"), forwarded: "203.0.113.9, 127.0.0.1"]
            #expect(try await client.execute(uri: "/preview/user-profile?user=1", method: .get, headers: local).status == .ok)
            #expect(try await client.execute(uri: "/scenes", method: .get, headers: local).text.contains("preview every variant"))
        }
    }

    @Test func signedOutThePreviewShowsOnlyTheSignedOutVariant() async throws {
        try await fixture.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/preview/user-profile?user=1", method: .get)
            #expect(page.status == .ok)
            #expect(page.text.contains("Sign in to see the owner&#39;s and another viewer&#39;s variants") || page.text.contains("Sign in to see the owner's"))
            #expect(page.text.components(separatedBy: "<iframe").count == 4, "signed out, then the experiment's two arms signed out")
            #expect(page.text.contains("/preview/user-profile/frame?as=&amp;user=1"))
            #expect(page.text.contains("/preview/user-profile/frame?arm.friends-layout=compact&amp;as=&amp;user=1"))
            #expect(!page.text.contains("as=1"), "never as anyone")
            let frame = try await client.execute(uri: "/preview/user-profile/frame?as=&user=1", method: .get)
            #expect(frame.status == .ok)
            expectNoDrafts(frame.text, "the signed-out frame")
        }
    }

    @Test(arguments: [nil, "2"] as [String?])
    func aFrameAsSomeoneElseIsRefused(signedInAs viewer: String?) async throws {
        try await fixture.server.application().test(.live) { client in
            for scene in ["user-profile/frame?as=1&user=1", "user-profile/frame?as=1&user=1&lang=zh-Hans"] {
                let response = try await client.execute(
                    uri: "/preview/\(scene)", method: .get, headers: viewer.map { [.cookie: fixture.cookie(for: $0)] } ?? [:])
                #expect(response.status == .forbidden)
                #expect(response.text.contains("not as viewer &#39;1&#39;") || response.text.contains("not as viewer '1'"), "\(response.text)")
                #expect(response.text.sessionID == nil, "no page session was made")
                expectNoDrafts(response.text, "a forged as=1 for \(scene)")
            }
        }
    }

    @Test func theOwnersFrameShowsTheAuthorsOwnData() async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/preview/user-profile?user=1", method: .get, headers: [.cookie: bob])
            #expect(page.text.contains("/preview/user-profile/frame?as=2&amp;user=2"), "the owner's variant, on Bob's own profile")
            #expect(page.text.contains("/preview/user-profile/frame?as=2&amp;user=1"), "another viewer's: Bob on Alice's profile")
            #expect(page.text.contains("/preview/user-profile/frame?as=&amp;user=1"), "signed out")
            #expect(!page.text.contains("as=1"), "never as Alice")
            let own = try await client.execute(uri: "/preview/user-profile/frame?as=2&user=2", method: .get, headers: [.cookie: bob])
            #expect(own.text.contains(#"data-node="sections#drafts""#), "Bob sees his own drafts tab")
            let others = try await client.execute(uri: "/preview/user-profile/frame?as=2&user=1", method: .get, headers: [.cookie: bob])
            expectNoDrafts(others.text, "Bob on Alice's profile")
        }
    }

    @Test func thePreviewShowsEachArmOfAnExperimentSideBySide() async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/preview/user-profile?user=1", method: .get, headers: [.cookie: bob])
            // friends-layout takes in viewers of someone else's profile: Bob on Alice's.
            #expect(
                page.text.contains("Arm &#39;carousel&#39; of friends-layout (another viewer)")
                    || page.text.contains("Arm 'carousel' of friends-layout (another viewer)"), "\(page.text)")
            #expect(page.text.contains("/preview/user-profile/frame?arm.friends-layout=compact&amp;as=2&amp;user=1"), "\(page.text)")
            let compact = try await client.execute(
                uri: "/preview/user-profile/frame?arm.friends-layout=compact&as=2&user=1", method: .get, headers: [.cookie: bob])
            #expect(compact.status == .ok)
            #expect(!compact.text.contains("list carousel"), "the compact arm shows rows")
            let carousel = try await client.execute(
                uri: "/preview/user-profile/frame?arm.friends-layout=carousel&as=2&user=1", method: .get, headers: [.cookie: bob])
            #expect(carousel.text.contains("list carousel"))
            expectNoDrafts(compact.text, "an arm is no way into the owner's variant")
            // Outside the preview, an arm is no query parameter: it is refused as an unknown argument.
            let page2 = try await client.execute(uri: "/scenes/user-profile?user=1&arm.friends-layout=compact", method: .get, headers: [.cookie: bob])
            #expect(page2.status == .badRequest)
            #expect(page2.text.contains("has no parameter"))
        }
    }

    @Test func aPreviewSocketDrivesOnlyItsOwnPageAndViewer() async throws {
        let bob = fixture.cookie(for: "2")
        let sockets = LiveSocketTests(fixture: fixture)
        try await fixture.server.application().test(.live) { client in
            // Bob's frame of Alice's profile: the drafts tab of another scene or viewer is refused.
            let frame = try await client.execute(uri: "/preview/user-profile/frame?as=2&user=1", method: .get, headers: [.cookie: bob])
            let session = try #require(frame.text.sessionID)
            let tapped = try await sockets.talk(
                client, session: session, cookie: bob, send: [.event(node: "sections#drafts"), .resync]
            ) { !$0.of("reset").isEmpty }
            #expect(tapped.of("refused").count == 1, "\(tapped.all)")
            for message in tapped.all { expectNoDrafts(message.compactJSON, "Bob's preview socket") }
            // A blog page's preview session cannot be used for the profile's controls.
            let blog = try await client.execute(uri: "/preview/blog-detail/frame?as=&blog=26", method: .get, headers: [.cookie: bob])
            let blogSession = try #require(blog.text.sessionID)
            let crossed = try await sockets.talk(client, session: blogSession, cookie: bob, send: [.event(node: "sections#drafts")]) {
                !$0.of("refused").isEmpty
            }
            #expect(crossed.of("refused").first?["message"] == "That control is not on this page.")
            // Alice's own frame, with another sign-in on the socket: closed, nothing sent.
            let alice = fixture.cookie(for: "1")
            let own = try await client.execute(uri: "/preview/user-profile/frame?as=1&user=1", method: .get, headers: [.cookie: alice])
            let ownSession = try #require(own.text.sessionID)
            let (stolen, close) = try await sockets.converse(
                client, session: ownSession, cookie: bob, [.send(.event(node: "sections#drafts")), .waitUntil { _ in false }])
            #expect(stolen.all.isEmpty)
            if let close { #expect(close.closeCode == .policyViolation) }
        }
    }
}
