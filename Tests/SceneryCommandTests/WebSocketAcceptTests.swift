import Testing

@testable import SceneryTool

/// The handshake proof `scenery connect` checks before it trusts a page socket.
@Suite struct WebSocketAcceptTests {
    @Test func theAcceptValueIsTheOneTheProtocolSpecifies() {
        // RFC 6455 §1.3's example.
        #expect(WebSocketAccept.value(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
    ])
    func sha1MatchesTheStandardsVectors(message: String, digest: String) {
        let hex = WebSocketAccept.sha1(Array(message.utf8)).map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == digest)
    }
}
