import Crypto
import Foundation
import Scenery

/// What a page needs to be made again on another server of the site when its own goes
/// away: its scene, arguments and viewer, the tabs it selected, the pages it loaded, where
/// its long lists' windows were, and the keys of its recent actions.
///
/// The server sends it to the page (``PageProtocol/ServerMessage/resume(token:applied:)``)
/// as `base64url(JSON).signature`, the signature an HMAC-SHA256 under a key derived from
/// the site's signing key, so only a server of the site can make one and the page cannot
/// change it. A server that gets a socket for a session it does not know checks the token
/// (``verify(_:secret:now:lifetime:)``), then the socket's viewer and that the token was
/// not used before, and makes the page again from it.
struct ResumeToken: Codable, Equatable, Sendable {
    /// The page's session id (kept: the page and the server go on under the same id).
    var session: String
    var viewer: String?
    var visitor: String?
    var scene: String
    var arguments: [String: JSONValue]
    /// The selected tab of each tab switch the person changed, by switch id.
    var tabs: [String: String] = [:]
    /// How many more pages each module loaded.
    var pagesLoaded: [String: Int] = [:]
    /// Where each long list's window starts.
    var windows: [String: Int] = [:]
    /// The keys of the page's newest actions this server finished with.
    var actions: [String] = []
    /// When the token was made (seconds since 1970).
    var issued: Int
    /// Makes each token one of a kind: a server that resumes a page claims it, so it
    /// resumes a page once (``ResumeTokenUses``).
    var nonce: String
    /// The nonce of the token this page was last made again from, if it was: a server that
    /// uses this token records that the page moved on from that one, which then makes
    /// nothing again. Absent for a page never made again.
    var origin: String? = nil
    /// The language the page was asked in: the page comes back in it on another server.
    var locale: String? = nil
    /// Whether the page reads view trees and their patches (`scenery connect`, a native
    /// client), not HTML: the page comes back in the same format. Absent for HTML pages.
    var readsViewTree: Bool? = nil

    /// The most action keys a token carries.
    static let keptActions = 32

    /// The longest text a server reads as a token.
    static let largestText = 6_144

    /// The token as the page keeps it: `base64url(JSON).hex(HMAC)`.
    func signed(with secret: [UInt8]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = Self.base64URL((try? encoder.encode(self)) ?? Data())
        return body + "." + SignedCookie.hex(HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: Self.key(from: secret)))
    }

    /// Why a token does not resume a page.
    enum Refusal: Error, Equatable {
        case malformed, forged, expired, otherViewer, used

        /// Why, in words short enough for a WebSocket close reason (at most 123 bytes).
        var reason: String {
            switch self {
            case .malformed: "This page's resume token is not one; load the page again."
            case .forged: "This page's resume token was not signed by this site; load the page again."
            case .expired: "This page was away too long to resume; load the page again."
            case .otherViewer: "This page belongs to another sign-in; load it again."
            case .used: "This page's resume token was used before; load the page again."
            }
        }
    }

    /// The token a page sent, if it is intact, signed with `secret` and no older than
    /// `lifetime` at `now`.
    static func verify(_ text: String, secret: [UInt8], now: Date = Date(), lifetime: Duration) throws(Refusal) -> ResumeToken {
        guard text.utf8.count <= largestText else { throw .malformed }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = SignedCookie.bytes(fromHex: parts[1]) else { throw .malformed }
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(parts[0].utf8), using: key(from: secret)) else {
            throw .forged
        }
        guard let data = data(fromBase64URL: parts[0]), let token = try? JSONDecoder().decode(ResumeToken.self, from: data) else {
            throw .malformed
        }
        let age = now.timeIntervalSince1970 - Double(token.issued)
        guard age <= Double(lifetime.components.seconds), age > -60 else { throw .expired }
        return token
    }

    /// The token's signing key: derived from the site's key, so a token is never a valid
    /// sign-in cookie or the other way round.
    private static func key(from secret: [UInt8]) -> SymmetricKey {
        SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("scenery resume token 1".utf8), using: SymmetricKey(data: secret)))
    }

    /// Base64 with the URL-safe alphabet (`-`, `_`) and no padding: byte by byte, as a page
    /// is served (Foundation's string replacing cost a page's GET about a twentieth of its time).
    static func base64URL(_ data: Data) -> String {
        let bytes = data.base64EncodedData().compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of URL-safe Base64 with or without padding; `nil` for anything else
    /// (standard Base64's `+` and `/` included).
    static func data(fromBase64URL text: Substring) -> Data? {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"): return nil
            default: bytes.append(byte)
            }
        }
        bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        return Data(base64Encoded: Data(bytes))
    }
}
