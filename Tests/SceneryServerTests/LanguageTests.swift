import Foundation
import HTTPTypes
import Hummingbird
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// A page is shown in the viewer's language: the language switch (`?lang=`, kept in a
/// cookie), else the cookie, else `Accept-Language`; the page says its language (`lang`,
/// `dir`) and links to the others.
@Suite struct LanguageTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func acceptLanguageShowsTheProfileInChinese() async throws {
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(
                uri: "/scenes/user-profile?user=4", method: .get, headers: [.acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8"]
            ).text
            #expect(page.contains(#"<html lang="zh-Hans">"#), "\(page.prefix(200))")
            #expect(page.contains("个人简介: 这个人很懒, 什么也没有写~"))
            #expect(page.contains("作品: 2"))
            #expect(page.contains(#"<a href="/scenes/user-profile?user=4&amp;lang=en" lang="en" hreflang="en">English</a>"#), "\(page)")
            #expect(page.contains(#"hreflang="zh-Hans" aria-current="true">"#))
        }
    }

    @Test func theLanguageSwitchWinsAndIsKept() async throws {
        try await fixture.server.application().test(.router) { client in
            try await client.execute(
                uri: "/scenes/user-profile?user=4&lang=zh-Hans", method: .get, headers: [.acceptLanguage: "en"]
            ) { response in
                #expect(String(buffer: response.body).contains("作品: 2"))
                let cookie = try #require(response.headers[.setCookie].flatMap { $0.contains("scenery-lang=zh-Hans") ? $0 : nil })
                #expect(cookie.contains("HttpOnly"))
            }
            let kept = try await client.execute(
                uri: "/scenes/user-profile?user=4", method: .get, headers: [.cookie: "scenery-lang=zh-Hans", .acceptLanguage: "en"]
            ).text
            #expect(kept.contains("作品: 2"), "the cookie keeps the choice over Accept-Language")
            let english = try await client.execute(uri: "/scenes/user-profile?user=4&lang=en", method: .get, headers: [.cookie: "scenery-lang=zh-Hans"]).text
            #expect(english.contains("Blogs: 2"))
            #expect(!english.contains("lang=en&amp;lang"), "the switch's links drop the old choice")
        }
    }

    @Test(arguments: ["fr-FR,de;q=0.9", "*", "<script>", String(repeating: "x-", count: 100)])
    func aLanguageTheSiteCannotShowOrJunkFallsBackToTheScenesOwn(header: String) async throws {
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(
                uri: "/scenes/user-profile?user=4&lang=\(header.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")", method: .get,
                headers: [.acceptLanguage: header]
            ).text
            #expect(page.contains(#"<html lang="en">"#))
            #expect(page.contains("Blogs: 2"))
            #expect(!page.contains("<script>\""))
        }
    }

    @Test func aChosenLanguageTheSiteLacksIsLoggedOnce() async throws {
        try await fixture.server.application().test(.router) { client in
            for query in ["lang=fr", "lang=fr", "lang=FR", "lang=zh-Hans", "lang=de"] {
                let page = try await client.execute(uri: "/scenes/user-profile?user=4&\(query)", method: .get).text
                #expect(page.contains("<html lang="))
            }
            #expect(fixture.server.unshownLanguages == ["fr", "de"], "a language the site has is not noted; one it lacks is, once")
        }
    }

    @Test func aViewTreeClientIsToldTheLanguage() async throws {
        try await fixture.server.application().test(.router) { client in
            let chinese = try await client.execute(uri: "/api/scenes/user-profile?user=4", method: .get, headers: [.acceptLanguage: "zh"]).text
            #expect(chinese.contains(#""language":"zh-Hans""#))
            #expect(chinese.contains("作品: 2"))
            let english = try await client.execute(uri: "/api/scenes/user-profile?user=4", method: .get).text
            #expect(english.contains(#""language":"en""#))
        }
    }

    @Test func aRightToLeftLanguageLaysThePageOutRightToLeft() {
        let arabic = Pages.page(title: "ملف", language: "ar", viewer: nil, returnTo: "/", main: "")
        #expect(arabic.contains(#"<html lang="ar" dir="rtl">"#))
        let english = Pages.page(title: "Profile", language: "en", viewer: nil, returnTo: "/", main: "")
        #expect(english.contains(#"<html lang="en">"#))
    }

    @Test func acceptLanguageIsReadByWeight() {
        #expect(SceneryServer.acceptedLanguages("en;q=0.5, zh-Hans, pl;q=0.8, fr;q=0") == ["zh-Hans", "pl", "en"])
        #expect(SceneryServer.acceptedLanguages("") == [])
        #expect(SceneryServer.languageTag("zh-Hant-TW") == "zh-Hant-TW")
        #expect(SceneryServer.languageTag("a") == nil)
        #expect(SceneryServer.languageTag("en_US") == nil)
    }
}
