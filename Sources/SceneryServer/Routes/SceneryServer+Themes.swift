import Foundation
import HTTPTypes
import Hummingbird
import Scenery

/// A page's theme: the one the visitor chose (`nil`: follow the browser's preferences) and
/// the ones the switch offers.
struct ThemeChoice: Sendable, Equatable {
    /// The chosen theme's name; `nil` lets `prefers-color-scheme` and `prefers-contrast` choose.
    var chosen: String?
    /// The themes the site has, by name.
    var available: [String] = []

    /// The choice of the request being answered (``ThemeMiddleware`` sets it), which every
    /// page drawn for it uses.
    @TaskLocal static var current = ThemeChoice()
}

/// Reads a request's theme choice (``SceneryServer/requestedTheme(of:)``) for every page drawn
/// in answer (``ThemeChoice/current``), and keeps a new choice in its cookie.
struct ThemeMiddleware<Context: RequestContext>: RouterMiddleware {
    let server: SceneryServer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let (choice, cookie) = server.requestedTheme(of: request)
        var response = try await ThemeChoice.$current.withValue(choice) { try await next(request, context) }
        if let cookie { response.setCookie(cookie) }
        return response
    }
}

extension SceneryServer {
    /// The cookie that keeps a visitor's choice of theme (the page's theme switch).
    static let themeCookieName = "scenery-theme"
    /// The query parameter of the theme switch: `?theme=dark`, or `?theme=auto` to follow the
    /// browser again.
    static let themeParameter = "theme"
    /// The value of ``themeParameter`` that forgets a choice.
    static let automaticTheme = "auto"
    /// Where the themes' CSS is served (``SceneRegistry/themeStylesheet``).
    static let themeStylesheetPath = "/assets/theme.css"

    /// The theme a request asks for, and the cookie to set when the visitor chose now
    /// (`.some(nil)`: forget the choice). A theme the site does not have is ignored.
    func requestedTheme(of request: Request) -> (choice: ThemeChoice, cookie: Cookie?) {
        let registry = self.registry
        let available = registry.themes.map(\.name)
        var choice = ThemeChoice(chosen: nil, available: available)
        if let asked = request.uri.queryParameters[Substring(Self.themeParameter)].map(String.init) {
            if asked == Self.automaticTheme { return (choice, Self.themeCookie(nil)) }
            if registry.theme(named: asked) != nil {
                choice.chosen = asked
                return (choice, Self.themeCookie(asked))
            }
        }
        if let kept = request.cookies[Self.themeCookieName]?.value, registry.theme(named: kept) != nil {
            choice.chosen = kept
        }
        return (choice, nil)
    }

    /// The cookie that keeps a chosen theme for a year, or (for `nil`) one that forgets it.
    static func themeCookie(_ name: String?) -> Cookie {
        Cookie(name: themeCookieName, value: name ?? "", maxAge: name == nil ? 0 : 365 * 24 * 3600, path: "/", httpOnly: true, sameSite: .lax)
    }

    /// A short fingerprint of the themes' CSS, so that a page fetches it again when it changes.
    static func themeVersion(of stylesheet: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stylesheet.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 36)
    }
}
