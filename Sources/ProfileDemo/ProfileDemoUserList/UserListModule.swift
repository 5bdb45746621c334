import ProfileDemoDomain
import Scenery
import SceneryLive

/// Followers, followings or friends of a user, in one cell layout with a presenter chosen
/// by the scene: `follow` (follow/unfollow buttons) or `friend` (friend requests).
///
/// Button taps bubble (`user.follow`, `user.unfollow`, `friend.request`, `friend.accept`,
/// `friend.withdraw`, `friend.remove`) so the scene may confirm; once let through, the row changes at once
/// and rolls back if the write fails. Selecting a row sends `user.open`.
///
/// ```json
/// { "id": "people", "type": "UserListModule", "params": { "user": "$user", "list": "friends", "presenter": "friend" } }
/// ```
public actor UserListModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "UserListModule",
        summary: "Followers, followings or friends, with follow or friend buttons.",
        parameters: [
            ParameterSpec("user", .userID, summary: "Whose list."),
            ParameterSpec("list", .string, default: "following", allowedValues: UserListKind.allCases.map(\.rawValue), summary: "Which list."),
            ParameterSpec("presenter", .string, default: "follow", allowedValues: ["follow", "friend"], summary: "Which buttons the cells show."),
            ParameterSpec("pageSize", .int, default: 20, range: 1...100, summary: "Users per page."),
            .message(
                "header", default: "{list, select, followers {Followers} following {Following} other {Friends}}",
                arguments: [MessageArgumentSpec("list", .text, summary: "Which list: followers, following or friends.")],
                summary: "The list's header (empty: the list's name)."),
            .message(
                "requestsHeader", default: "Requests",
                summary: "The header of the section of people asking to be friends (a user's own friend list only)."),
            .message("emptyText", default: "Nobody here yet.", summary: "Shown when the list is empty."),
            .message(
                "ownEmptyText",
                default:
                    "{list, select, followers {Nobody follows you yet: share the address of your profile.} following {You follow nobody yet: choose Follow on a profile to see their new blogs.} other {No friends yet: choose Add friend beside someone in a list of people.}}",
                arguments: [MessageArgumentSpec("list", .text, summary: "Which list: followers, following or friends.")],
                summary: "Shown to the list's own person when it is empty: what they can do."),
            .message("moreTitle", default: "Load more", summary: "The load-more button."),
        ] + UserCellWording.parameters,
        sends: UserListModule.actions + [UserEvents.open],
        performs: UserListModule.actions)

    /// The buttons' events: the relationship changes the module makes itself once the scene
    /// lets them through.
    static let actions = [
        UserEvents.follow, UserEvents.unfollow, UserEvents.requestFriendship, UserEvents.acceptFriendship, UserEvents.removeFriend,
        UserEvents.withdrawFriendRequest,
    ]

    private let user: UserID
    private let list: UserListKind
    private let presenter: any UserCellPresenter
    private let header: String
    private let requestsHeader: String
    private let emptyText: String
    /// What the list's own person sees of it empty: how to fill it.
    private let ownEmptyText: String
    private let moreTitle: String
    private let relationships: any RelationshipService
    private let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    private var viewer: UserID? { context.viewer.map { UserID($0) } }

    private var entries: PagedList<UserListEntry>
    /// The entries shown.
    public var state: LoadState<[UserListEntry]> { entries.state }
    /// Whether another page exists.
    public var hasMore: Bool { entries.hasMore }
    /// Says that what is shown may be out of date (a live change could not be fetched; it
    /// is tried again).
    public var notice: String? { liveEntries.staleNotice }
    /// The viewer's last action that could not be saved, said under its row.
    private var failedAction: (user: UserID, message: String)?
    /// The rows this viewer changed on this page: a live reload keeps them in place.
    private var actedOn: Set<UserID> = []
    /// The list, kept true while the module is visible; the viewer's writes to its rows.
    private let liveEntries: LiveQuery<UserListModule, ProfileChange>

    public init(
        parameters: ModuleParameters, context: ModuleContext, relationships: any RelationshipService, changes: (any ChangeFeed<ProfileChange>)? = nil
    ) throws {
        liveEntries = LiveQuery(changes, context: context) { module, _ in try await module.reload() }
        user = UserID(try parameters.string("user"))
        let listName = try parameters.string("list")
        guard let list = UserListKind(rawValue: listName) else {
            throw ParameterError(message: "'list' must be followers, following or friends, not '\(listName)'.")
        }
        self.list = list
        let wording = try UserCellWording(parameters: parameters)
        presenter = try parameters.string("presenter") == "friend" ? FriendCellPresenter(wording: wording) : FollowCellPresenter(wording: wording)
        entries = PagedList(pageSize: try parameters.int("pageSize"))
        let header = try parameters.message("header")(["list": .text(list.rawValue)])
        self.header = header.isEmpty ? list.rawValue.prefix(1).uppercased() + list.rawValue.dropFirst() : header
        requestsHeader = try parameters.text("requestsHeader")
        emptyText = try parameters.text("emptyText")
        ownEmptyText = try parameters.message("ownEmptyText")(["list": .text(list.rawValue)])
        moreTitle = try parameters.text("moreTitle")
        self.relationships = relationships
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        guard let fetch = entries.begin(request) else { return }
        if fetch.showsIndicator { await context.setNeedsRender() }
        try await run(fetch)
    }

    private func run(_ fetch: PagedList<UserListEntry>.Fetch) async throws {
        do {
            // The next page after the last person held, so that people added meanwhile
            // before them repeat no row.
            let request = entries.pageRequest(for: fetch) { PageCursor.users(after: $0.user) }
            let page = try await relationships.users(list, of: user, viewer: viewer, page: request)
            entries.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
        } catch {
            entries.fail(fetch)
            throw error
        }
    }

    /// Follows the relationships of the list's user (who is in it) and of the viewer (how
    /// each row reads for them) while visible; shown again after being hidden, it fetches
    /// its rows again.
    public func appear() async {
        var entities: Set<ProfileChange> = [.relationships(of: user)]
        if let viewer { entities.insert(.relationships(of: viewer)) }
        await liveEntries.follow(entities, for: self)
    }

    public func disappear() async { liveEntries.stop() }

    /// Someone changed who is in the list or how it reads: every row shown is fetched
    /// again; if that fails, the rows shown stay, with a notice.
    private func reload() async throws {
        guard state.hasResult else { return }
        let shown = entries.state.value ?? []
        try await run(entries.reload())
        // A row this viewer acted on stays where it was, as it was (the person just
        // unfollowed someone in a list of people they follow: the row says "Follow").
        for (index, entry) in shown.enumerated() where actedOn.contains(entry.id) { entries.insert(entry, at: index) }
        await context.setNeedsRender()
    }

    /// For the inspector: the list, what it follows, and how many people the viewer acted
    /// on here (followed, unfollowed, answered).
    public func inspectableState() -> [String: JSONValue] {
        var facts = entries.inspectableState.merging(liveEntries.inspectableState) { list, _ in list }
        facts["actedOn"] = .int(actedOn.count)
        return facts
    }

    public func render() -> ViewNode {
        state.render(id: "users", loadingMessage: "Loading…", emptyMessage: viewer == user ? ownEmptyText : emptyText) { entries in
            var children: [ViewNode] = [.list("list", sections: sections(of: entries))]
            if let more = self.entries.moreButton(title: moreTitle, module: context.id) { children.append(more) }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
    }

    /// The list's sections: on a user's own friend list, the people asking to be friends
    /// first ("Requests"), then the list. A row keeps its id in either, so accepting a
    /// request moves the row from one section to the other.
    private func sections(of entries: [UserListEntry]) -> [ViewNode.Section] {
        func rows(_ entries: [UserListEntry]) -> [ViewNode] {
            entries.map { entry in
                var cell = presenter.cell(for: entry, viewer: viewer)
                if failedAction?.user == entry.user.id { cell.failure = failedAction?.message }
                return cell.render()
            }
        }
        let requests = list == .friends && viewer == user ? entries.filter { $0.friendState == .incoming } : []
        let others = requests.isEmpty ? entries : entries.filter { $0.friendState != .incoming }
        var sections: [ViewNode.Section] = []
        if !requests.isEmpty { sections.append(.init(id: "requests", header: requestsHeader, rows: rows(requests))) }
        sections.append(.init(id: "all", header: header, rows: rows(others)))
        return sections
    }

    public func handle(_ event: Event) async -> EventDisposition {
        guard Self.change(for: event) != nil, let target = Self.person(in: event)?.user else { return .pass }
        // A write for this row in flight: ignore the second tap rather than race it.
        return liveEntries.isWriting(.relationships(of: target)) ? .handled : .pass
    }

    /// Changes the row at once, writes, and settles on the answer or rolls back.
    /// - Throws: The write's error, after rolling back and showing it (the route says the
    ///   action failed).
    public func perform(_ event: Event) async throws {
        guard let change = Self.change(for: event), let viewer, let target = Self.person(in: event)?.user,
            let original = entries.item(withID: target)
        else { return }
        // Its own write does not come back to it as a reload; another viewer's is fetched
        // once the write settles.
        try await liveEntries.write(.relationships(of: target), for: self) { () async throws(any Error) in
            entries.replace(Self.predicted(original, change))
            failedAction = nil
            await context.setNeedsRender()
            do {
                var settled = original
                switch change {
                case .follow(let following):
                    try await relationships.setFollowing(following, follower: viewer, followee: target)
                    settled.viewerFollows = following
                case .friendship(let friendship):
                    settled.friendState = try await relationships.changeFriendship(friendship, from: viewer, with: target)
                }
                entries.replace(settled)
                actedOn.insert(target)
            } catch let error as ProfileError where error.kind == .alreadyApplied {
                // Its page sent it twice and the first was applied: the row reads as predicted.
                actedOn.insert(target)
            } catch {
                entries.replace(original)
                // Said under the row, where the person tapped; the button shows the stored state.
                let name = original.user.name.isEmpty ? target.rawValue : original.user.name
                failedAction = (target, "Couldn't update \(name): \(SceneryError.messageForViewers(of: error))")
                await context.setNeedsRender()
                throw error
            }
            await context.setNeedsRender()
        }
    }

    enum Change {
        case follow(Bool)
        case friendship(FriendshipChange)
    }

    /// The person a relationship event is about, decoded as its kind declares.
    static func person(in event: Event) -> UserEvents.Person? {
        actions.lazy.compactMap { try? $0.payload(of: event) }.first
    }

    static func change(for event: Event) -> Change? {
        if UserEvents.follow.matches(event) { return .follow(true) }
        if UserEvents.unfollow.matches(event) { return .follow(false) }
        if UserEvents.requestFriendship.matches(event) { return .friendship(.request) }
        if UserEvents.acceptFriendship.matches(event) { return .friendship(.accept) }
        if UserEvents.removeFriend.matches(event) || UserEvents.withdrawFriendRequest.matches(event) { return .friendship(.remove) }
        return nil
    }

    static func predicted(_ entry: UserListEntry, _ change: Change) -> UserListEntry {
        var entry = entry
        switch change {
        case .follow(let following): entry.viewerFollows = following
        case .friendship(.request): entry.friendState = entry.friendState == .incoming ? .friends : .requested
        case .friendship(.accept): entry.friendState = .friends
        case .friendship(.remove): entry.friendState = .none
        }
        return entry
    }
}
