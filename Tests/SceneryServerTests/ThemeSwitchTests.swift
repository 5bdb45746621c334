import Foundation
import HTTPTypes
import Hummingbird
import Scenery
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// A page is drawn with the site's themes (`Scenes/*.tokens.json`): the browser's
/// preferences choose unless the visitor chose in the theme switch (`?theme=`, kept in a
/// cookie); new themes restyle every open page in place.
@Suite struct ThemeSwitchTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func theThemesStylesheetFollowsTheBrowsersPreferences() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/assets/theme.css", method: .get) { response in
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                let css = String(buffer: response.body)
                #expect(css == fixture.server.registry.themeStylesheet)
                #expect(css.contains("@media (prefers-color-scheme:dark)"))
                #expect(css.contains("@media (prefers-contrast:more)"))
            }
            let page = try await client.execute(uri: "/scenes/user-profile?user=4", method: .get).text
            #expect(page.contains(#"<link rel="stylesheet" href="/assets/theme.css" id="scenery-theme">"#))
            #expect(page.contains(#"<html lang="en">"#), "no theme chosen: the browser's preference decides")
            #expect(page.contains(#"<a href="/scenes/user-profile?user=4&amp;theme=auto" aria-current="true">Auto</a>"#), "\(page)")
            #expect(page.contains(#"<a href="/scenes/user-profile?user=4&amp;theme=high-contrast">High contrast</a>"#))
        }
    }

    @Test func theThemeSwitchWinsIsKeptAndCanBeForgotten() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(uri: "/scenes/user-profile?user=4&theme=dark", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains(#"<html lang="en" data-theme="dark">"#))
                #expect(page.contains(#"&amp;theme=dark" aria-current="true">Dark</a>"#))
                #expect(!page.contains("theme=dark&amp;theme"), "the switch's links drop the old choice")
                let cookie = try #require(response.headers[.setCookie].flatMap { $0.contains("scenery-theme=dark") ? $0 : nil })
                #expect(cookie.contains("HttpOnly"))
            }
            let kept = try await client.execute(uri: "/scenes/user-profile?user=4", method: .get, headers: [.cookie: "scenery-theme=dark"]).text
            #expect(kept.contains(#"data-theme="dark""#))
            try await client.execute(uri: "/scenes/user-profile?user=4&theme=auto", method: .get, headers: [.cookie: "scenery-theme=dark"]) { response in
                #expect(!String(buffer: response.body).contains("data-theme"))
                let cookie = try #require(response.headers[.setCookie].flatMap { $0.contains("scenery-theme=") ? $0 : nil })
                #expect(cookie.contains("Max-Age=0"))
            }
        }
    }

    @Test(arguments: ["/", "/scenes", "/sign-in?next=/scenes", "/scenes/no-such-scene"])
    func everyPageOfTheSiteWearsTheChosenTheme(path: String) async throws {
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(uri: path, method: .get, headers: [.cookie: "scenery-theme=high-contrast"]).text
            #expect(page.contains(#"data-theme="high-contrast""#), "\(page.prefix(300))")
            #expect(page.contains(#"<nav class="themes" aria-label="Theme">"#))
        }
    }

    @Test(arguments: ["sepia", "\"><script>", "../dark", String(repeating: "x", count: 500)])
    func aThemeTheSiteDoesNotHaveIsIgnored(theme: String) async throws {
        try await fixture.server.application().test(.router) { client in
            let asked = theme.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await client.execute(uri: "/scenes/user-profile?user=4&theme=\(asked)", method: .get, headers: [.cookie: "scenery-theme=\(asked)"]) {
                response in
                let page = String(buffer: response.body)
                #expect(response.status == .ok, "the theme is the page's, not a scene argument")
                #expect(!page.contains("data-theme"))
                #expect(response.headers[.setCookie].map { !$0.contains("scenery-theme") } ?? true)
            }
        }
    }

    @Test(.timeLimit(.minutes(5))) func newThemesRestyleEveryOpenPageInPlace() async throws {
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(uri: "/scenes/user-profile?user=4", method: .get).text
            let id = try #require(page.firstMatch(of: /data-session="([^"]+)"/)).1
            let session = try #require(await fixture.server.sessions.session(String(id)))
            let socket = RecordingSocket()
            _ = await session.attach(since: 0, socket: socket)
            // The same themes: nothing to restyle.
            await fixture.server.reload(fixture.server.registry, changed: [], errors: nil)
            // A darker dark theme.
            var registry = fixture.server.registry
            let dark = try #require(registry.theme(named: "dark"))
            var colors = dark.colors
            colors[.surface] = Theme.Color(hex: "#000000")
            registry.addTheme(Theme(name: "dark", colors: colors, dimensions: dark.dimensions))
            await fixture.server.reload(registry, changed: [], errors: nil)
            // The first theme message the page gets names the new themes' version (one sent
            // for the unchanged reload would name the old).
            let version = SceneryServer.themeVersion(of: registry.themeStylesheet)
            var restyle: String?
            while restyle == nil, let next = await socket.first(1).first {
                if next.contains(#""type":"theme""#) { restyle = next }
            }
            #expect(restyle == #"{"href":"/assets/theme.css?v=\#(version)","type":"theme"}"#)
        }
    }
}
