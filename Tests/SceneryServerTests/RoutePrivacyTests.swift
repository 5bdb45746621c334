import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ProfileDemoStore
import Prometheus
import Scenery
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// Every route the server has, asked by everyone but the owner for the owner's private
/// data: none answers with it. The routes come from the server's router, so a route added
/// without requests here fails the first test: say there what of someone else's it could show.
///
/// The page socket (`/live`) is not a route of the router; `LiveSocketTests` holds that a
/// socket opened with another viewer's sign-in is closed, and `PreviewPrivacyTests` that a
/// preview socket drives only its own page.
@Suite(.timeLimit(.minutes(5))) struct RoutePrivacyTests {
    /// The titles of Alice's (user 1's) drafts in the demo data, and the drafts tab her
    /// profile has for her alone.
    static let secrets = ["Through the looking glass", "草稿：下一篇茶会", "Half written", "sections#drafts"]

    /// A scene of the signed-in viewer's own drafts, as an app may add: the one page that
    /// shows Alice's titles without a tap.
    static let myDrafts = #"{ "modules": [ { "id": "drafts", "type": "DraftModule", "params": { "owner": "$viewer" } } ] }"#

    /// The requests that ask each route for user 1's drafts; `{session}` is Alice's own page
    /// of her drafts.
    static let requests: [String: [Request]] = [
        "GET /": [.get("/")],
        "GET /scenes": [.get("/scenes")],
        "GET /assets/scenery.js": [.get("/assets/scenery.js")],
        "GET /assets/scenery.css": [.get("/assets/scenery.css")],
        "GET /assets/theme.css": [.get("/assets/theme.css")],
        "GET /assets/icon.svg": [.get("/assets/icon.svg")],
        "GET /assets/inspector.js": [.get("/assets/inspector.js")],
        "GET /sign-in": [.get("/sign-in?next=%2Fscenes%2Fuser-profile%3Fuser%3D1")],
        // Signing in as someone is the demo's sign-in (a user list); its answer is a redirect.
        "POST /sign-in": [.post("/sign-in", body: "user=2&next=%2Fscenes%2Fuser-profile%3Fuser%3D1")],
        "POST /sign-out": [.post("/sign-out", body: "")],
        "GET /scenes/{id}": [
            .get("/scenes/user-profile?user=1"), .get("/scenes/user-profile?user=1&lang=zh-Hans"),
            .get("/scenes/user-profile?user=1&arm.friends-layout=compact"), .get("/scenes/user-profile?user=1&as=1"),
            .get("/scenes/user-profile?user=1&viewer=1"), .get("/scenes/user-profile.json"), .get("/scenes/index.json"),
            .get("/scenes/my-drafts"), .get("/scenes/my-drafts?viewer=1"), .get("/scenes/my-drafts?owner=1"),
        ],
        "GET /api/scenes/{id}": [
            .get("/api/scenes/user-profile?user=1"), .get("/api/scenes/user-profile?user=1&lang=zh-Hans"),
            .get("/api/scenes/user-profile?user=1&as=1"), .get("/api/scenes/my-drafts?viewer=1"),
        ],
        "GET /metrics": [.get("/metrics")],
        "GET /pictures/{name}": [.get("/pictures/alice.svg"), .get("/pictures/..%2F..%2Fdemo.sqlite"), .get("/pictures/drafts.json")],
        "GET /inspect/{session}": [.get("/inspect/{session}?node=drafts"), .get("/inspect/{session}?node=drafts/draft.1")],
        "GET /preview/{id}": [
            .get("/preview/user-profile?user=1"), .get("/preview/user-profile?user=1&as=1"), .get("/preview/my-drafts?as=1"),
        ],
        "GET /preview/{id}/frame": [
            .get("/preview/user-profile/frame?as=1&user=1"), .get("/preview/user-profile/frame?as=2&user=1"),
            .get("/preview/user-profile/frame?arm.friends-layout=compact&as=1&user=1"), .get("/preview/my-drafts/frame?as=1"),
        ],
    ]

    struct Request: Sendable {
        let method: HTTPRequest.Method
        let uri: String
        let body: String?

        static func get(_ uri: String) -> Request { Request(method: .get, uri: uri, body: nil) }
        static func post(_ uri: String, body: String) -> Request { Request(method: .post, uri: uri, body: body) }
    }

    let fixture: ServerFixture

    /// The server with every route it can have (the preview, the inspector and the
    /// metrics), and the scene of one's own drafts.
    init() throws {
        let prometheus = PrometheusCollectorRegistry()
        fixture = try ServerFixture { configuration in
            configuration.enablesInspector = true
            configuration.pictureFolders = [DemoData.pictures].compactMap { $0 }
            configuration.telemetry = .init(metrics: PrometheusMetricsFactory(registry: prometheus), metricsPage: { prometheus.emitToString() })
        } register: { registry in
            let problems = registry.addScene(id: "my-drafts", source: Self.myDrafts)
            guard problems.isEmpty else { throw ValidationError(problems: problems) }
        }
    }

    struct ValidationError: Error { let problems: [Diagnostic] }

    @Test func everyRouteHasItsRequestsHere() {
        let routes = Set(fixture.server.router().routes.map(\.description))
        let asked = Set(Self.requests.keys)
        #expect(routes.subtracting(asked).isEmpty, "routes no request here asks: \(routes.subtracting(asked).sorted())")
        #expect(asked.subtracting(routes).isEmpty, "requests for routes the server no longer has: \(asked.subtracting(routes).sorted())")
    }

    @Test(arguments: [nil, "2"] as [String?])
    func noRouteShowsTheOwnersDraftsToAnyoneElse(requester: String?) async throws {
        try await fixture.server.application().test(.live) { client in
            // Alice's own pages: her drafts and her tab are there (the secrets are real), and
            // the page of her drafts is what the inspector is asked about.
            let profile = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: headers(as: "1"))
            #expect(profile.text.contains("sections#drafts"), "the owner has her drafts tab")
            let own = try await client.execute(uri: "/scenes/my-drafts", method: .get, headers: headers(as: "1"))
            #expect(own.text.contains("Through the looking glass"), "the owner sees her drafts")
            let session = try #require(own.text.sessionID)
            for (route, requests) in Self.requests.sorted(by: { $0.key < $1.key }) {
                for request in requests {
                    let uri = request.uri.replacingOccurrences(of: "{session}", with: session)
                    var fields = headers(as: requester)
                    if request.body != nil { fields[.contentType] = "application/x-www-form-urlencoded" }
                    let response = try await client.execute(
                        uri: uri, method: request.method, headers: fields, body: request.body.map { ByteBuffer(string: $0) })
                    for secret in Self.secrets {
                        #expect(!response.text.contains(secret), "\(route): \(request.method) \(uri) shows \(secret) to \(requester ?? "a visitor")")
                    }
                    for (name, value) in response.headers.map({ ($0.name.rawName, $0.value) }) {
                        #expect(!Self.secrets.contains { value.contains($0) }, "\(route): header \(name) of \(uri)")
                    }
                }
            }
        }
    }

    func headers(as viewer: String?) -> HTTPFields {
        ServerFixture.headers(cookie: viewer.map { fixture.cookie(for: $0) })
    }
}
