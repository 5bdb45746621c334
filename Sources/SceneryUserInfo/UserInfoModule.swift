import ProfileDomain
import Scenery
import SceneryLive

/// A user's avatar, name, summary and counts, with a follow/unfollow button for other
/// viewers, and for the user themselves an editor of their summary.
///
/// Follow and unfollow pass the event up so the scene can confirm; once let through, the
/// module updates at once (optimistic) and rolls back if the write fails. Tapping the avatar
/// sends `user.open`; tapping the blog, friend or follower count sends `user.blogs`,
/// `user.friends` or `user.followers`, for the scene to navigate.
///
/// ```json
/// { "id": "info", "type": "UserInfoModule", "params": { "user": "$user", "emptyName": "匿名" } }
/// ```
public actor UserInfoModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "UserInfoModule",
        summary: "A user's avatar, name, summary and counts, with follow/unfollow.",
        parameters: [ParameterSpec("user", .userID, summary: "Whose profile to show.")] + UserInfoWording.parameters,
        sends: [
            UserEvents.follow, UserEvents.unfollow, UserEvents.open, UserEvents.blogs, UserEvents.friends, UserEvents.followers,
            UserEvents.saveSummary,
        ],
        performs: [UserEvents.follow, UserEvents.unfollow, UserEvents.saveSummary],
        ownerOnlyActions: [UserEvents.saveSummary.name: "user"])

    let user: UserID
    let wording: UserInfoWording
    let profiles: any ProfileService
    private let relationships: any RelationshipService
    let context: ModuleContext
    var viewer: UserID? { context.viewer.map { UserID($0) } }
    /// The owner's summary editor while open: what they typed, and what was wrong with it.
    var summaryEditor: SummaryEditor?

    /// The module's data.
    public internal(set) var state: LoadState<UserProfile> = .idle
    /// A message about the last failed action, or saying that what is shown may be out of
    /// date (a live change could not be fetched; it is tried again).
    public var notice: String? { noticeLine.text }
    var noticeLine = ModuleNotice()
    /// The viewer's last follow or unfollow that could not be saved, said under the button.
    var followFailure: String?
    /// The follow being written, and whether the profile changed meanwhile.
    private var writes = WritesInFlight<UserID>()
    /// The profile's live subscription, while the module is visible.
    let live: LiveChanges<ProfileChange>

    /// Creates the module from its parameters and services.
    public init(
        parameters: ModuleParameters, context: ModuleContext, profiles: any ProfileService, relationships: any RelationshipService,
        changes: (any ChangeFeed<ProfileChange>)? = nil
    ) throws {
        live = LiveChanges(changes)
        user = UserID(try parameters.string("user"))
        wording = try UserInfoWording(parameters: parameters)
        self.profiles = profiles
        self.relationships = relationships
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        if state.value == nil { state = .loading }
        state = .loaded(try await profiles.profile(of: user, viewer: viewer))
        noticeLine.show(nil)
    }

    /// Follows the profile's changes (counts, name) while visible; shown again after being
    /// hidden, it fetches the profile again.
    public func appear() async {
        let missed = live.follow([.profile(user)]) { [weak self] _ in await self?.profileChanged() }
        if missed { await profileChanged() }
    }

    public func disappear() async { live.stop() }

    /// Someone changed the profile: fetch it again (after a follow in flight settles).
    /// Fetched again while it changed during the fetch: another call may have shown a newer
    /// profile while this one was away (see `LiveChanges.changed(_:since:)`).
    private func profileChanged() async {
        for _ in 0..<3 {
            let mark = live.mark
            guard await fetchProfile(), live.changed(since: mark) else { return }
        }
    }

    /// Fetches the profile and shows it; whether the fetch was made and succeeded.
    private func fetchProfile() async -> Bool {
        guard state.value != nil, !writes.holdChange(to: user) else { return false }
        let fetched = await Result { try await profiles.profile(of: user, viewer: viewer) }
        let (fresh, noticeChanged) = noticeLine.settle(fetched, retrying: .profile(user), with: live)
        guard let fresh, !writes.contains(user), fresh != state.value else {
            if noticeChanged { await context.setNeedsRender() }
            return fresh != nil
        }
        state = .loaded(fresh)
        await context.setNeedsRender()
        return true
    }

    /// The page is about this person: their name (or the wording for an empty one).
    public func pageTitle() -> String? {
        state.value.map { UserInfoPresenter(profile: $0, viewer: viewer, wording: wording).name }
    }

    public func render() -> ViewNode {
        state.render(id: "info") { profile in
            let presenter = UserInfoPresenter(profile: profile, viewer: viewer, wording: wording)
            var children: [ViewNode] = [
                ViewNode.image("avatar", presenter.avatar, alt: presenter.avatarAlt)
                    .selectable(sending: UserEvents.open.descriptor(.init(user: user))),
                .text("name", presenter.name, role: .title),
                summaryNode(presenter),
                .stack(
                    "counts", axis: .horizontal,
                    [
                        .text("blogs", presenter.blogCount, role: .caption)
                            .selectable(sending: UserEvents.blogs.descriptor(.init(user: user))),
                        ViewNode.text("friends", presenter.friendCount, role: .caption)
                            .selectable(sending: UserEvents.friends.descriptor(.init(user: user))),
                        ViewNode.text("followers", presenter.followerCount, role: .caption)
                            .selectable(sending: UserEvents.followers.descriptor(.init(user: user))),
                    ]),
            ]
            if let title = presenter.followTitle {
                children.append(
                    .button(
                        "follow", title: title,
                        sends: presenter.followEvent.descriptor(.init(user: user, name: presenter.name)),
                        style: profile.viewerFollows == true ? .destructive : .primary))
            }
            // Under the button the person tapped; the button shows the stored state.
            if let followFailure { children.append(.text("follow.failure", followFailure, role: .status)) }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
    }

    public func handle(_ event: Event) async -> EventDisposition {
        if let disposition = await handleSummary(event) { return disposition }
        // A write in flight: ignore the second tap rather than race it.
        if UserEvents.follow.matches(event) || UserEvents.unfollow.matches(event) { return writes.contains(user) ? .handled : .pass }
        return .pass
    }

    /// Follows or unfollows at once, then writes; rolls back if the write fails.
    /// - Throws: The write's error, after rolling back and showing it (the route says the
    ///   action failed).
    public func perform(_ event: Event) async throws {
        if let edit = try? UserEvents.saveSummary.payload(of: event) { return await saveSummary(edit.summary) }
        let follow = UserEvents.follow.matches(event)
        guard follow || UserEvents.unfollow.matches(event), let viewer, viewer != user, let profile = state.value,
            (profile.viewerFollows == true) != follow, writes.begin(user)
        else { return }
        apply(following: follow)
        followFailure = nil
        await context.setNeedsRender()
        var failure: (any Error)?
        do {
            // Its own follow does not come back to it; another viewer's while it wrote does.
            try await live.writing { try await relationships.setFollowing(follow, follower: viewer, followee: user) }
        } catch let error as ProfileError where error.kind == .alreadyApplied {
            // Its page sent it twice and the first was applied: the follow is there.
        } catch {
            failure = error
            apply(following: !follow)
            let name = UserInfoPresenter(profile: profile, viewer: viewer, wording: wording).name
            followFailure = "Couldn't \(follow ? "follow" : "unfollow") \(name): \(SceneryError.messageForViewers(of: error))"
        }
        await context.setNeedsRender()
        // Another change came while writing: the count the page shows is fetched, not
        // guessed (a rollback never erases someone else's change).
        if writes.end(user) != nil { await profileChanged() }
        if let failure { throw failure }
    }

    private func apply(following: Bool) {
        guard var profile = state.value else { return }
        if profile.viewerFollows != following {
            profile.followerCount = max(0, profile.followerCount + (following ? 1 : -1))
        }
        profile.viewerFollows = following
        state = .loaded(profile)
    }
}
