import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SceneryServerTesting
import Testing

@testable import SceneryServer

@Suite struct PageTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func theHomePageIsWhereAVisitorStartsWithPeopleToVisit() async throws {
        let withProfile = try ServerFixture { $0.personScene = "user-profile" }
        try await withProfile.server.application().test(.router) { client in
            let signedOut = try await client.execute(uri: "/", method: .get).text
            #expect(signedOut.contains("<h1>Welcome</h1>"))
            #expect(signedOut.contains(#"<a href="/sign-in">Sign in</a>"#))
            #expect(signedOut.contains(#"<li><a href="/scenes/user-profile?user=1">Alice Liddell</a></li>"#))
            #expect(signedOut.contains(#"<a href="/scenes">Every scene of this site, for developers</a>"#))
            #expect(!signedOut.contains("blog-detail"), "the scenes' index is a link away, not the home page")
            let bob = try await client.execute(uri: "/", method: .get, headers: [.cookie: withProfile.cookie(for: "2")]).text
            #expect(bob.contains(#"Welcome back, <strong>Bob Chen</strong>. <a href="/scenes/user-profile?user=2">Your page</a>"#))
            #expect(!bob.contains(#"<li><a href="/scenes/user-profile?user=2">"#), "not listed as someone to visit")
        }
        // Without a chosen scene: the first that takes one person (in the scenes' order).
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get).text
            #expect(page.contains(#"<li><a href="/scenes/follow-list?user=1">Alice Liddell</a></li>"#), "\(page)")
        }
    }

    /// Any address no page has: a page a person can read, with the site's header (signed in
    /// as who they are) and a way home, not an empty body the browser replaces.
    @Test(arguments: ["/no/such/page", "/scenes/user-profile/extra", "/assets/nothing.js", "/%E2%80%AE"])
    func anUnknownAddressIsAPageWithAWayHome(path: String) async throws {
        try await fixture.server.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: .get, headers: [.cookie: fixture.cookie(for: "2")])
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let text = response.text
            #expect(text.contains("<h1>Page not found</h1>"), "\(text)")
            #expect(text.contains(#"<a href="/">Back to the home page</a>"#))
            #expect(text.contains("Bob Chen"), "the header says who is signed in")
            #expect(response.headers[.contentSecurityPolicy] != nil)
        }
    }

    @Test func anUnknownAPIAddressKeepsItsPlainAnswer() async throws {
        try await fixture.server.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/nothing", method: .get)
            #expect(response.status == .notFound)
            #expect(!response.text.contains("<h1>"))
        }
    }

    @Test func aHomePageWithNoPersonSceneSaysNoOneIsThereToVisit() async throws {
        let fixture = try ServerFixture { $0.personScene = "blog-detail" }  // takes a blog, not a person
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get).text
            #expect(page.contains("No one to visit here yet."))
            #expect(!page.contains("<ul class=\"people\">"))
        }
    }

    @Test func theIndexListsTheScenesWithLinksForTheDemoUsers() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/scenes", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains(#"<a href="/scenes/user-profile?user=1">Alice Liddell</a>"#))
                #expect(response.text.contains(#"<form method="get" action="/scenes/blog-detail">"#))
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                #expect(!response.text.contains("<script>"), "no inline script")
            }
        }
    }

    @Test func aScenePageIsCompleteBeforeAnyScriptRuns() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/scenes/user-profile?user=3&lang=zh-Hans", method: .get) { response in
                #expect(response.status == .ok)
                let page = response.text
                #expect(page.contains(#"<html lang="zh-Hans">"#), "the scene's language")
                #expect(
                    page.contains(#"<h1 class="in-scene">李雷</h1>"#),
                    "the page names the person it is about (the module shows the name: the heading is for assistive technology)")
                #expect(page.contains("<title>李雷 · Scenery</title>"))
                #expect(page.contains("李雷"))
                #expect(page.contains(#"<script src="/assets/scenery.js" defer></script>"#))
                #expect(page.sessionID != nil)
                #expect(!page.contains("UserInfoModule</header>"), "no module labels without --debug")
                #expect(page.contains(#"data-node="info/followers""#), "controls say their node")
                #expect(!page.contains(#"data-node="blogs/refresh""#), "a live list has no Refresh")
                #expect(!page.contains("data-payload") && !page.contains("data-event"), "and nothing the page never sends")
            }
        }
    }

    @Test func theViewerComesOnlyFromTheSignedCookie() async throws {
        let owner = fixture.cookie(for: "1")
        try await fixture.server.application().test(.router) { client in
            // Signed in as Alice: her own profile has the drafts tab.
            try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: [.cookie: owner]) { response in
                #expect(response.text.contains("Signed in as </span><strong>Alice Liddell</strong>"))
                #expect(response.text.contains(#"data-node="sections#drafts""#))
            }
            // A viewer in the URL means nothing.
            try await client.execute(uri: "/scenes/user-profile?user=1&viewer=1", method: .get) { response in
                #expect(response.status == .badRequest, "viewer is not a parameter of the scene")
            }
            // A tampered cookie is signed out: no drafts tab.
            let tampered = owner.replacingOccurrences(of: "scenery-viewer=1.", with: "scenery-viewer=2.")
            try await client.execute(uri: "/scenes/user-profile?user=2", method: .get, headers: [.cookie: tampered]) { response in
                #expect(response.text.contains("Signed out"))
                #expect(!response.text.contains("sections#drafts"))
            }
        }
    }

    @Test func anotherViewerNeverGetsDraftsInAnyResponse() async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.router) { client in
            for uri in [
                "/scenes/user-profile?user=1", "/scenes/user-profile?user=1&lang=zh-Hans", "/", "/scenes", "/preview/user-profile?user=1",
                "/preview/user-profile/frame?arm.friends-layout=compact&as=2&user=1", "/scenes/user-profile?user=1&arm.friends-layout=compact",
                "/api/scenes/user-profile?user=1", "/api/scenes/user-profile?user=1&lang=zh-Hans", "/api/scenes/user-profile?user=1&arm.friends-layout=compact",
            ] {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: bob]) { response in
                    for title in ["Through the looking glass", "草稿：下一篇茶会", "DraftModule"] {
                        #expect(!response.text.contains(title), "\(uri) leaks \(title)")
                    }
                }
            }
        }
    }

    @Test func aWebSocketClientsOwnOriginNeitherCountsForNorAgainstARequest() async throws {
        // The default: the server's own origin only (the fixture allows test origins).
        let server = try ServerFixture { $0.allowedOrigins = nil }.server
        try await server.application().test(.router) { client async throws -> Void in
            func signIn(origins: [String]) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                for origin in origins { headers.append(HTTPField(name: .origin, value: origin)) }
                return try await client.execute(uri: "/sign-in", method: .post, headers: headers, body: ByteBuffer(string: "user=1")).status
            }
            #expect(try await signIn(origins: ["http://localhost"]) == .seeOther)
            #expect(try await signIn(origins: ["ws://localhost", "http://localhost"]) == .seeOther, "a WebSocket client's own beside the page's")
            #expect(try await signIn(origins: ["ws://localhost"]) == .forbidden, "no web origin")
            #expect(try await signIn(origins: ["wss://localhost", "http://evil.example"]) == .forbidden)
            #expect(try await signIn(origins: ["http://localhost", "https://evil.example"]) == .forbidden)
        }
    }

    @Test func signInSetsASignedHttpOnlySameSiteCookieAndSignOutClearsIt() async throws {
        try await fixture.server.application().test(.live) { client in
            let origin = ServerFixture.headers()
            var headers = origin
            headers[.contentType] = "application/x-www-form-urlencoded"
            let response = try await client.execute(
                uri: "/sign-in", method: .post, headers: headers, body: ByteBuffer(string: "user=1&next=%2Fscenes%2Fuser-profile%3Fuser%3D1"))
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/scenes/user-profile?user=1")
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("scenery-viewer=1."))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
            let out = try await client.execute(uri: "/sign-out", method: .post, headers: headers, body: ByteBuffer(string: "next=/"))
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            // Without the page's origin (a form on another site), nothing happens.
            let forged = try await client.execute(
                uri: "/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "user=1"))
            #expect(forged.status == .forbidden)
            #expect(forged.headers[.setCookie] == nil)
            let unknown = try await client.execute(uri: "/sign-in", method: .post, headers: headers, body: ByteBuffer(string: "user=99"))
            #expect(unknown.status == .badRequest)
            // Only local addresses to return to.
            let away = try await client.execute(uri: "/sign-in", method: .post, headers: headers, body: ByteBuffer(string: "user=1&next=%2F%2Fevil.example%2F"))
            #expect(away.headers[.location] == "/")
        }
    }

    @Test func aPageWhoseModulesNameNothingIsHeadedWithTheScenesTitle() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/scenes/user-blogs?user=1", method: .get) { response in
                #expect(response.text.contains("<h1>Blogs</h1>"), "BlogModule names nothing: the scene file's title")
            }
            try await client.execute(uri: "/scenes/blog-detail?blog=27", method: .get) { response in
                #expect(response.text.contains(#"<h1 class="in-scene">The pool of tears, part 3</h1>"#), "the blog's title, which the blog shows")
            }
        }
    }

    @Test func unknownScenesAndBadArgumentsGetAPageThatSaysWhy() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/scenes/user-profil?user=1", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text.contains("did you mean &#39;user-profile&#39;?"))
            }
            try await client.execute(uri: "/scenes/user-profile?user=%3Cscript%3E", method: .get) { response in
                #expect(!response.text.contains("<script>"), "escaped")
            }
        }
    }

    @Test(arguments: ["/scenes/user-profile?user=99", "/scenes/blog-detail?blog=99999", "/scenes/user-blogs?user=nobody"])
    func aMissingUserOrBlogIsOneNotFoundPageWithStatus404AndAWayBack(uri: String) async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text.contains("<h1>Not found</h1>"))
                #expect(response.text.components(separatedBy: "exists.").count == 2, "said once, not once per module")
                #expect(response.text.contains(#"<a href="/">Back to the home page</a>"#))
                #expect(!response.text.contains("data-session"), "no live page is kept for it")
            }
        }
        #expect(await fixture.server.openPages == 0)
    }

    @Test func aMissingArgumentIsSaidInAWebPagesWords() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/scenes/user-profile", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains("This page needs to know which user to show: add ?user=… to its address"))
                #expect(!response.text.contains("--arg"), "never a command's options on a web page")
            }
        }
    }

    @Test func theScriptAndStylesheetAreServedAsFiles() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/assets/scenery.js", method: .get) { response in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.text.contains("new WebSocket("))
            }
            try await client.execute(uri: "/assets/scenery.css", method: .get) { response in
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            }
        }
    }

    @Test(arguments: [
        "%2F%09%2Fevil.example", "/%09/evil.example", "/\t/evil.example", "/%0A/evil.example", "/%0D/evil.example", "%2F%5Cevil.example",
        "/\\evil.example", "//evil.example", "%2F%2Fevil.example", "%252F%252Fevil.example", "/%252F/evil.example", "https://evil.example",
        "evil.example", "/%00/evil.example", "%2F%E2%80%AE/evil", "",
    ])
    func aNextPageOffThisSiteSendsThePersonHome(next: String) async throws {
        #expect(SceneryServer.localPath(Substring(next)) == nil, "\(next)")
        try await fixture.server.application().test(.live) { client in
            var headers = ServerFixture.headers()
            headers[.contentType] = "application/x-www-form-urlencoded"
            let encoded = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try await client.execute(
                uri: "/sign-in", method: .post, headers: headers, body: ByteBuffer(string: "user=2&next=\(encoded)"))
            #expect(response.status == .seeOther)
            let location = response.headers[.location] ?? ""
            #expect(location == "/", "\(next) → \(location.debugDescription)")
            #expect(!location.contains("\t") && !location.contains("\\") && !location.hasPrefix("//"))
        }
    }

    @Test func theSignInFormCarriesOnlyAPathOfThisSite() async throws {
        try await fixture.server.application().test(.router) { client in
            let forged = try await client.execute(uri: "/sign-in?next=%2F%09%2Fevil.example", method: .get)
            #expect(forged.text.contains(#"name="next" value="/""#))
            #expect(!forged.text.contains("evil.example"))
            let local = try await client.execute(uri: "/sign-in?next=%2Fscenes%2Fuser-profile%3Fuser%3D1", method: .get)
            #expect(local.text.contains(#"name="next" value="/scenes/user-profile?user=1""#))
        }
    }
}
