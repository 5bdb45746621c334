import Crypto
import Foundation
import Scenery

/// Issues signed-out visitors their anonymous ids (the unit experiments count) and checks
/// the ones they bring back.
///
/// An id is the server's, not the client's: the visitor cookie is `id.expiry.signature`,
/// signed under a key derived from the site's signing key (so no sign-in cookie is a
/// visitor cookie, and no visitor cookie signs anyone in). A cookie that is not one the
/// site signed is no id: the visitor is given a new one. One address gets at most
/// ``SceneryServer/Configuration/newVisitorsPerAddressPerHour`` new ids an hour; past that
/// a visitor from it gets none, sees every experiment's first arm and is counted in none,
/// so a client that mints ids cannot be counted as many people.
final class VisitorIssuer: Sendable {
    private let signer: SignedCookie
    private let limit: Int
    private let minted = Locked<[String: (windowStart: Date, count: Int)]>([:])

    /// Whether the last ``issue(to:now:)`` refused `address` for the first time this hour
    /// (the server logs that once, not at every page).
    private let refusedThisHour = Locked<Set<String>>([])

    /// How long a visitor id lasts: a year.
    static let lifetime: TimeInterval = 365 * 24 * 3600

    /// The most addresses whose counts are kept; past it, windows that ended are forgotten.
    static let addressesKept = 100_000

    init(secret: [UInt8], newPerAddressPerHour limit: Int) {
        signer = SignedCookie(secret: Array(SHA256.hash(data: Data("scenery.visitor-id".utf8) + secret)))
        self.limit = limit
    }

    /// The id a visitor cookie holds, if the site signed it and it has not expired.
    func id(fromCookie value: String, now: Date = Date()) -> String? {
        guard value.utf8.count <= 256, let id = signer.user(from: value, now: now), Self.isWellFormed(id) else { return nil }
        return id
    }

    /// A new id for a visitor from `address`, with its cookie value; `nil` when the address
    /// has had as many new ids this hour as it may.
    func issue(to address: String, now: Date = Date()) -> (id: String, cookie: String)? {
        let allowed = minted.withLock { minted -> Bool in
            if minted.count >= Self.addressesKept { minted = minted.filter { now.timeIntervalSince($0.value.windowStart) < 3600 } }
            var entry = minted[address] ?? (now, 0)
            if now.timeIntervalSince(entry.windowStart) >= 3600 {
                entry = (now, 0)
                _ = refusedThisHour.withLock { $0.remove(address) }
            }
            guard entry.count < limit, minted.count < Self.addressesKept || minted[address] != nil else { return false }
            entry.count += 1
            minted[address] = entry
            return true
        }
        guard allowed else { return nil }
        let id = UUID().uuidString.lowercased()
        return (id, signer.value(for: id, expiry: now.addingTimeInterval(Self.lifetime)))
    }

    /// Whether `address` was refused a new id for the first time this hour (true once).
    func isFirstRefusal(of address: String) -> Bool {
        refusedThisHour.withLock { refused in
            if refused.count >= Self.addressesKept { refused = [] }
            return refused.insert(address).inserted
        }
    }

    private static func isWellFormed(_ id: String) -> Bool {
        (8...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
    }
}
