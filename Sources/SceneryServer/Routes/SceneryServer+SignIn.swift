import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import ServiceLifecycle

/// Signing in and out (a form, a signed cookie), and the same-origin check of a form.
extension SceneryServer {
    func signIn(_ request: Request, context: some RequestContext) async throws -> Response {
        guard sameOrigin(request) else { throw HTTPError(.forbidden, message: "Sign-in requests must come from this site's own pages.") }
        let form = try await form(of: request)
        guard let id = form["user"], let user = users.first(where: { $0.id == id }) else {
            return html(
                Pages.problem(title: "No such user", message: "Choose one of the users on the sign-in page.", viewer: nil, returnTo: "/"), status: .badRequest)
        }
        let expiry = Date().addingTimeInterval(Double(configuration.signInDuration.components.seconds))
        var response = Response(status: .seeOther, headers: [.location: Self.localPath(form["next"].map { Substring($0) }) ?? "/"])
        response.setCookie(
            Cookie(
                name: Self.cookieName, value: cookies.value(for: user.id, expiry: expiry), expires: expiry, path: "/", httpOnly: true,
                sameSite: .lax))
        return response
    }

    func signOut(_ request: Request, context: some RequestContext) async throws -> Response {
        guard sameOrigin(request) else { throw HTTPError(.forbidden, message: "Sign-out requests must come from this site's own pages.") }
        let form = try await form(of: request)
        var response = Response(status: .seeOther, headers: [.location: Self.localPath(form["next"].map { Substring($0) }) ?? "/"])
        response.setCookie(Cookie(name: Self.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }

    /// A URL-encoded form body (at most 4 KB). (How long it may take to arrive is the
    /// connection's ``Configuration/bodyTimeout``.)
    func form(of request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 4096)
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            if let name = decode(parts[0]), let value = decode(parts[1]) { fields[name] = value }
        }
        return fields
    }

    /// Whether a request comes from this site's own pages: it names an `Origin`, and every
    /// web origin it names is the server's own (or an allowed one).
    ///
    /// A browser names exactly one origin, its page's, always `http` or `https`; so a
    /// `ws:`/`wss:` origin, which only a non-browser WebSocket client names (such as
    /// swift-websocket's `WSClient`, beside the page's origin it is given), is left out of the
    /// check. It never counts for a request: one with no web origin is refused.
    func sameOrigin(_ request: Request) -> Bool {
        let origins = request.headers[values: .origin].filter { !$0.hasPrefix("ws://") && !$0.hasPrefix("wss://") }
        guard !origins.isEmpty else { return false }
        return origins.allSatisfy { origin in
            if let allowed = configuration.allowedOrigins { return allowed.contains(origin) }
            guard let host = request.head.authority else { return false }
            return origin == "http://\(host)" || origin == "https://\(host)"
        }
    }
}
