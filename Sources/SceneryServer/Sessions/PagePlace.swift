import Foundation
import Scenery

/// Where a page is, as a resume token keeps it: the tab each switch shows, how many more
/// pages each list loaded, where each long list's window starts, the actions the page's
/// server finished with (and those the page has not heard of yet), and the token the page
/// was made again from, if it was.
///
/// The session changes it as events run (``remember(_:)``, ``moveWindow(of:to:)``,
/// ``finish(_:)``); a resume token is made from it (``token(session:viewer:visitor:scene:arguments:locale:readsViewTree:)``)
/// and a page made again starts from one (``init(resumingFrom:)``).
///
/// ```swift
/// var place = PagePlace()
/// place.remember(Event(.selectTab("drafts", inSwitch: "sections"), from: "sections"))  // true
/// place.finish(key)
/// place.takeUnannounced()  // [key]: sent to the page with its next token
/// ```
struct PagePlace {
    /// The selected tab of each tab switch the person changed, by switch id.
    private(set) var tabs: [String: String] = [:]
    /// How many more pages each module loaded.
    private(set) var pagesLoaded: [ModuleID: Int] = [:]
    private var windowStarts: [ModuleID: Int] = [:]
    /// The keys of the newest actions finished with (a page that sends one again is answered,
    /// not run again), and those the page has not heard of yet.
    private var finished = RecentKeys<ActionKey>(capacity: 256)
    private var unannounced: [ActionKey] = []
    /// The nonce of the resume token the page was made again from, if it was: an action the
    /// page sends may have been applied by the server that went away, and the tokens it is
    /// given next name it (``ResumeToken/origin``).
    let resumedFrom: String?

    /// A new page's place: its first tabs, pages and windows.
    init() {
        resumedFrom = nil
    }

    /// The place a resume token kept, for a page made again from it.
    init(resumingFrom token: ResumeToken) {
        resumedFrom = token.nonce
        tabs = token.tabs
        pagesLoaded = Dictionary(uniqueKeysWithValues: token.pagesLoaded.map { (ModuleID($0.key), $0.value) })
        windowStarts = Dictionary(uniqueKeysWithValues: token.windows.map { (ModuleID($0.key), $0.value) })
        for text in token.actions {
            if let key = try? ActionKey(validating: text) { finished.insert(key) }
        }
    }

    /// Whether the page was made again from a resume token.
    var isResumed: Bool { resumedFrom != nil }

    /// Keeps what an event that ran changed of the place (a tab, a page loaded); returns
    /// whether it was such an event.
    @discardableResult
    mutating func remember(_ event: Event) -> Bool {
        switch event.builtIn {
        case .selectTab(let tab, let switchID)?:
            tabs[switchID] = tab
        case .loadMore(let module)?:
            pagesLoaded[module, default: 0] += 1
        case .refresh(let module)?, .retry(let module)?:
            // A refresh or a retry starts the list again from its first page.
            pagesLoaded[module] = nil
        case nil:
            return false
        }
        return true
    }

    /// Where `module`'s window starts, if the page moved it (or was made again with it moved).
    func windowStart(of module: ModuleID) -> Int? { windowStarts[module] }

    mutating func moveWindow(of module: ModuleID, to start: Int) { windowStarts[module] = start }

    /// Records that the session finished with `action`; the page hears of it with its next token.
    mutating func finish(_ action: ActionKey) {
        finished.insert(action)
        if !unannounced.contains(action) { unannounced.append(action) }
    }

    func hasFinished(_ action: ActionKey) -> Bool { finished.contains(action) }

    /// The actions finished with that the page has not heard of, which it now does.
    mutating func takeUnannounced() -> [ActionKey] {
        defer { unannounced = [] }
        return unannounced
    }

    /// The place as a resume token for page `session` (signed by the caller), with a nonce of
    /// its own, issued at `now`.
    func token(
        session: String, viewer: String?, visitor: String?, scene: String, arguments: [String: JSONValue], locale: String?, readsViewTree: Bool,
        issuedAt now: Date = Date()
    ) -> ResumeToken {
        ResumeToken(
            session: session, viewer: viewer, visitor: visitor, scene: scene, arguments: arguments, tabs: tabs,
            pagesLoaded: Dictionary(uniqueKeysWithValues: pagesLoaded.map { ($0.key.rawValue, $0.value) }),
            windows: Dictionary(uniqueKeysWithValues: windowStarts.map { ($0.key.rawValue, $0.value) }),
            actions: finished.newest(ResumeToken.keptActions).map(\.rawValue), issued: Int(now.timeIntervalSince1970),
            nonce: ActionKey.random().rawValue, origin: resumedFrom, locale: locale, readsViewTree: readsViewTree ? true : nil)
    }
}
