import Foundation
import HTTPTypes
import Hummingbird
import Scenery

extension SceneryServer {
    /// The cookie that keeps a visitor's choice of language (the page's language switch).
    static let languageCookieName = "scenery-lang"
    /// The query parameter of the language switch: `/scenes/user-profile?user=1&lang=zh-Hans`.
    static let languageParameter = "lang"

    /// The language a request asks for, and whether the person chose it now:
    /// `?lang=` (the language switch; kept in a cookie), else the cookie, else the first
    /// language of `Accept-Language` (by weight) that the scene can be shown in. `nil`: the
    /// scene's own language. Anything that is not a language tag is ignored.
    func requestedLocale(of request: Request, sceneID: String) -> (locale: String?, chosen: String?) {
        if let asked = request.uri.queryParameters[Substring(Self.languageParameter)], let tag = Self.languageTag(asked) {
            return (tag, tag)
        }
        if let kept = request.cookies[Self.languageCookieName]?.value, let tag = Self.languageTag(Substring(kept)) {
            return (tag, nil)
        }
        guard let header = request.headers[.acceptLanguage] else { return (nil, nil) }
        for tag in Self.acceptedLanguages(header) where registry.canShow(sceneID, in: tag) {
            return (tag, nil)
        }
        return (nil, nil)
    }

    /// The languages a scene can be shown in: its own, then those of the registry's catalogs.
    func languages(of sceneID: String) -> [String] {
        let own = registry.language(of: sceneID) ?? "en"
        return [own] + registry.translatedLanguages.filter { $0.lowercased() != own.lowercased() }
    }

    /// The tags of an `Accept-Language` header, highest weight first (`q=0` left out; at
    /// most 16 read, so a long header costs nothing).
    static func acceptedLanguages(_ header: String) -> [String] {
        var weighted: [(tag: String, weight: Double, order: Int)] = []
        for (order, item) in header.split(separator: ",", maxSplits: 16, omittingEmptySubsequences: true).prefix(16).enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first, let tag = languageTag(Substring(first)) else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            if weight > 0 { weighted.append((tag, weight, order)) }
        }
        return weighted.sorted { ($0.weight, -$0.order) > ($1.weight, -$1.order) }.map(\.tag)
    }

    /// A BCP 47 tag as written, if it is one (letters and digits in hyphen-joined subtags of
    /// one to eight, at most 35 characters); `nil` for anything else (`*`, script, junk).
    static func languageTag(_ text: Substring) -> String? {
        let tag = text.trimmingCharacters(in: .whitespaces)
        guard (2...35).contains(tag.count) else { return nil }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        return tag
    }

    /// The cookie that keeps a chosen language for a year.
    static func languageCookie(_ tag: String) -> Cookie {
        Cookie(name: languageCookieName, value: tag, maxAge: 365 * 24 * 3600, path: "/", httpOnly: true, sameSite: .lax)
    }
}
