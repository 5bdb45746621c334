/// What each module of a scene has changed: how many changes it has had, and what its
/// changes meant to people, waiting to go with its next update.
///
/// A rendering notes a module's count before it renders; if the count moved meanwhile, the
/// module changed while it was away and is rendered again. An announcement ("Alice liked
/// your post") waits for the update that shows its change, at most
/// ``keptAnnouncements`` a module (the newest), each once.
///
/// ```swift
/// var changes = ModuleChanges()
/// let seen = changes.count(of: "blogs")
/// changes.changed("blogs", announcing: "Alice liked “Tea”")
/// changes.count(of: "blogs") != seen                 // true: render again
/// changes.takeAnnouncements(of: "blogs")             // ["Alice liked “Tea”"], once
/// ```
struct ModuleChanges: Sendable {
    private var counts: [ModuleID: Int] = [:]
    private var announcements: [ModuleID: [String]] = [:]

    /// How many announcements of one module wait for its next update at most (the newest).
    static let keptAnnouncements = 8

    /// How many changes `module` has had.
    func count(of module: ModuleID) -> Int {
        counts[module, default: 0]
    }

    /// `module` changed.
    mutating func changed(_ module: ModuleID) {
        counts[module, default: 0] += 1
    }

    /// Keeps `announcement` for `module`'s next update (once, the newest few).
    mutating func announce(_ announcement: String, for module: ModuleID) {
        var waiting = announcements[module, default: []]
        if !waiting.contains(announcement) { waiting.append(announcement) }
        announcements[module] = Array(waiting.suffix(Self.keptAnnouncements))
    }

    /// The announcements waiting for `module`'s update, taken: `nil` when none waits.
    mutating func takeAnnouncements(of module: ModuleID) -> [String]? {
        announcements.removeValue(forKey: module)
    }

    /// Drops what waits for `module`: its change showed nothing to announce.
    mutating func dropAnnouncements(of module: ModuleID) {
        announcements[module] = nil
    }
}
