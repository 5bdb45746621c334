import Scenery
import SceneryLive

/// How the uses of one resume token are kept in the site's ledger, so that a token makes
/// its page again once — and again only while the page cannot have moved on.
///
/// A server that makes a page again from a token claims the token's nonce, then sends the
/// page a new token. If that server stops in between (a rolling restart: it wrote the new
/// token to a socket its stopping HTTP side closed), the page comes back with the token it
/// already used. So a used token is accepted again, up to ``retries`` more times, while no
/// token made after it was used; once one was (the page resumed with its new token: it
/// moved on), the old one makes nothing again.
///
/// Every use is an atomic claim of its own key (`<nonce>-again-<n>` for the retries), so
/// servers racing for one token make its page at most once per use; the key
/// `<nonce>-moved-on` records that the page moved on. No key holds a `:`, so none is ever a
/// page's action key (those are scoped to their viewer: ``ActionKey/scoped(toViewer:visitor:)``).
///
/// ```swift
/// let uses = try ResumeTokenUses(nonce: token.nonce)
/// guard let use = try await uses.nextUse(in: ledger) else { /* spent */ }
/// // … make the page …
/// guard let claimed = try await uses.claim(from: use, in: ledger) else { /* spent meanwhile */ }
/// ```
struct ResumeTokenUses: Sendable {
    /// How many more times a used token makes its page again while the page never moved on.
    static let retries = 3

    /// The token's uses in order: its nonce first, then `<nonce>-again-1…`.
    private let uses: [ActionKey]
    /// Claimed when a token made after this one is used.
    let movedOn: ActionKey

    /// The token's first use: its nonce.
    var first: ActionKey { uses[0] }

    /// The uses of the token whose nonce is `nonce`; throws when the nonce cannot be one
    /// (a server of the site makes 32 hex digits).
    init(nonce: String) throws(ActionKey.Invalid) {
        var uses = [try ActionKey(validating: nonce)]
        movedOn = try ActionKey(validating: nonce + "-moved-on")  // throws for a nonce of over 55 bytes
        for number in 1...Self.retries { uses.append(try ActionKey(validating: "\(nonce)-again-\(number)")) }
        self.uses = uses
    }

    /// The key the token's next use would claim; `nil` when the token is spent (its page
    /// moved on, or it was used as often as it may be). Reads only: the use is claimed once
    /// the page is made.
    func nextUse(in ledger: any ActionLedger) async throws -> ActionKey? {
        guard try await ledger.hasApplied(first) else { return first }
        guard try await !ledger.hasApplied(movedOn) else { return nil }
        for key in uses.dropFirst() where try await !ledger.hasApplied(key) { return key }
        return nil
    }

    /// Claims the token's next use, starting at `use` (what ``nextUse(in:)`` found): a use
    /// another server claimed meanwhile passes to the one after it, while the page has not
    /// moved on. Returns the use claimed; `nil` when none is left.
    func claim(from use: ActionKey, in ledger: any ActionLedger) async throws -> ActionKey? {
        for key in uses[(uses.firstIndex(of: use) ?? 0)...] {
            if key != first, try await ledger.hasApplied(movedOn) { return nil }
            if try await ledger.claim(key) { return key }
        }
        return nil
    }
}
