import Crypto
import Foundation
import Scenery

/// Signs and checks the sign-in cookie's value: `user.expiry.signature`, where the
/// signature is HMAC-SHA256 of `user.expiry` under the server's secret.
///
/// A value that was altered, signed with another secret, expired or malformed is not a
/// viewer: the request is treated as signed out.
struct SignedCookie: Sendable {
    private let secret: [UInt8]

    init(secret: [UInt8]) {
        self.secret = secret
    }

    private var key: SymmetricKey { SymmetricKey(data: secret) }

    /// A signed value for a user, valid until `expiry`.
    func value(for user: String, expiry: Date) -> String {
        let payload = "\(Self.encode(user)).\(Int(expiry.timeIntervalSince1970))"
        return payload + "." + Self.hex(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key))
    }

    /// The key a page keeps its viewer's unsent typed text under in the browser (the page
    /// script's session storage, `data-typed-key`): the same on every page of one viewer,
    /// another for anyone else (a signed-out visitor's is `nil`'s), and naming no one.
    func typedTextKey(for viewer: String?) -> String {
        let payload = "typed-text:" + (viewer.map(Self.encode) ?? "")
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key).prefix(12))
    }

    /// The user a value names, if it is intact and not expired at `now`.
    func user(from value: String, now: Date = Date()) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let expiry = Int(parts[1]), let signature = Self.bytes(fromHex: parts[2]) else { return nil }
        let payload = Data("\(parts[0]).\(parts[1])".utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: payload, using: key) else { return nil }
        guard Double(expiry) > now.timeIntervalSince1970 else { return nil }
        return Self.decode(parts[0])
    }

    /// User ids in cookie-safe form (percent-encoded, so any id survives).
    static func encode(_ user: String) -> String {
        user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    static func decode(_ text: Substring) -> String? {
        String(text).removingPercentEncoding
    }

    static func hex(_ code: some Sequence<UInt8>) -> String { Hex.text(code) }

    /// A signature's 32 bytes from its 64 hex digits, or `nil`.
    static func bytes(fromHex text: Substring) -> [UInt8]? {
        guard text.utf8.count == 64 else { return nil }
        return Hex.bytes(text)
    }
}
