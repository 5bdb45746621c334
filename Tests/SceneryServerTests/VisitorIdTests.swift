import Foundation
import HTTPTypes
import Hummingbird
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// Signed-out visitors' ids, the unit an experiment counts, are the server's: a client
/// cannot choose one, nor mint many.
@Suite(.timeLimit(.minutes(5))) struct VisitorIdTests {
    static func visitorCookie(in response: HTTPTestResponse) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("\(SceneryServer.visitorCookieName)=") }
            .map { String($0.dropFirst(SceneryServer.visitorCookieName.count + 1).prefix { $0 != ";" }) }
    }

    @Test func aVisitorIdTheClientChoseIsNotTakenAndOneTheServerIssuedIs() async throws {
        let fixture = try ServerFixture()
        try await fixture.server.application().test(.router) { client in
            let chosen = "\(SceneryServer.visitorCookieName)=aaaaaaaa-chosen-by-me"
            let first = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: [.cookie: chosen])
            let issued = try #require(Self.visitorCookie(in: first), "a chosen id is replaced by one the server signs")
            #expect(!issued.contains("aaaaaaaa-chosen-by-me"))
            let again = try await client.execute(
                uri: "/scenes/user-profile?user=1", method: .get, headers: [.cookie: "\(SceneryServer.visitorCookieName)=\(issued)"])
            #expect(Self.visitorCookie(in: again) == nil, "the server's own id is kept")
        }
    }

    @Test func oneAddressGetsOnlySoManyNewVisitorIdsAnHour() async throws {
        let fixture = try ServerFixture {
            $0.newVisitorsPerAddressPerHour = 5
            $0.maxPagesPerAddress = 100
        }
        try await fixture.server.application().test(.router) { client in
            var issued = 0
            for _ in 0..<12 {
                let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get)
                #expect(page.status == .ok, "the page is served either way")
                if Self.visitorCookie(in: page) != nil { issued += 1 }
            }
            #expect(issued == 5, "a client that throws its cookie away is counted as five people at most, not twelve")
        }
    }

    @Test func aVisitorCookieIsNoSignInAndNoSignInCookieIsAVisitorId() {
        let issuer = VisitorIssuer(secret: Array(repeating: 7, count: 32), newPerAddressPerHour: 10)
        let signIn = SignedCookie(secret: Array(repeating: 7, count: 32))
        let issued = issuer.issue(to: "127.0.0.1")
        #expect(issued != nil)
        #expect(issued.map { issuer.id(fromCookie: $0.cookie) == $0.id } == true)
        #expect(issued.map { signIn.user(from: $0.cookie) } == .some(nil), "a visitor cookie signs no one in")
        let bobsCookie = signIn.value(for: "2", expiry: Date().addingTimeInterval(3600))
        #expect(issuer.id(fromCookie: bobsCookie) == nil)
        #expect(issuer.id(fromCookie: "not-a-cookie") == nil)
        if let cookie = issued?.cookie {
            var tampered = Array(cookie.utf8)
            tampered[2] = tampered[2] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
            #expect(issuer.id(fromCookie: String(decoding: tampered, as: UTF8.self)) == nil)
        }
    }
}
