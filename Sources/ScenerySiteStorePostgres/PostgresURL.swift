import Foundation
import Scenery

/// A PostgreSQL database's address as people write it:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
///
/// ```swift
/// let url = try PostgresURL("postgres://scenery@127.0.0.1:5432/scenery")
/// url.redacted  // "postgres://scenery@127.0.0.1:5432/scenery"
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// Whether and how the connection is encrypted (`sslmode`).
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP (loopback, or a private network).
        case disable
        /// TLS when the server offers it (the default, as `libpq`'s).
        case prefer
        /// TLS or no connection.
        case require
    }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    /// Reads a `postgres://` or `postgresql://` URL.
    ///
    /// - Throws: `DataError` of kind `storage` naming what is missing or wrong and the form
    ///   expected.
    public init(_ text: String) throws(DataError) {
        let form = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        let redacted = Self.redact(text)
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["postgres", "postgresql"].contains(scheme)
        else {
            throw .storage("\(redacted.quoted) is not a PostgreSQL URL; write it as \(form).")
        }
        guard let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw .storage("The URL \(redacted.quoted) names no user; write it as \(form).")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .storage("The URL \(redacted.quoted) names no host; write it as \(form) (127.0.0.1 for this machine).")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw .storage("The URL \(redacted.quoted) names no database (the part after the last '/'); write it as \(form).")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                    throw .storage(
                        "The URL \(redacted.quoted) has sslmode=\(item.value ?? ""); use one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                tls = mode
            default:
                throw .storage("The URL \(redacted.quoted) has the parameter \(item.name.quoted), which scenery does not know; it knows sslmode.")
            }
        }
        self.user = user
        self.password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        self.host = host
        self.port = components.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.tls = tls
    }

    /// The URL without its password, for messages and logs.
    public var redacted: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)\(tls == .prefer ? "" : "?sslmode=\(tls.rawValue)")"
    }

    public var description: String { redacted }

    /// `text` with the password of its `user:password@` replaced, for a URL that does not parse.
    static func redact(_ text: String) -> String {
        guard let start = text.range(of: "://")?.upperBound, let at = text[start...].firstIndex(of: "@"),
            let colon = text[start..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
