import ProfileDemoDomain
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
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    var viewer: UserID? { context.viewer.map { UserID($0) } }
    /// The owner's summary editor while open: what they typed, and what was wrong with it.
    private(set) var summaryEditor: SummaryEditor?

    /// The module's data.
    public private(set) var state: LoadState<UserProfile> = .idle
    /// Says that what is shown may be out of date (a live change could not be fetched; it
    /// is tried again).
    public var notice: String? { liveProfile.staleNotice }
    /// The viewer's last follow or unfollow that could not be saved, said under the button.
    private var followFailure: String?
    /// The profile, kept true while the module is visible; its writes.
    let liveProfile: LiveQuery<UserInfoModule, ProfileChange>

    /// Creates the module from its parameters and services.
    public init(
        parameters: ModuleParameters, context: ModuleContext, profiles: any ProfileService, relationships: any RelationshipService,
        changes: (any ChangeFeed<ProfileChange>)? = nil
    ) throws {
        liveProfile = LiveQuery(changes, context: context) { module, _ in try await module.fetchProfile() }
        user = UserID(try parameters.string("user"))
        wording = try UserInfoWording(parameters: parameters)
        self.profiles = profiles
        self.relationships = relationships
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        if state.value == nil { state = .loading }
        state = .loaded(try await profiles.profile(of: user, viewer: viewer))
    }

    /// Follows the profile's changes (counts, name) while visible; shown again after being
    /// hidden, it fetches the profile again.
    public func appear() async { await liveProfile.follow([.profile(user)], for: self) }

    public func disappear() async { liveProfile.stop() }

    /// Someone changed the profile: fetch it again and show it.
    private func fetchProfile() async throws {
        guard state.value != nil else { return }
        let fresh = try await profiles.profile(of: user, viewer: viewer)
        guard fresh != state.value else { return }
        state = .loaded(fresh)
        await context.setNeedsRender()
    }

    /// The page is about this person: their name (or the wording for an empty one).
    /// For the inspector: whether the profile loaded, what it follows, and whether the
    /// summary's editor is open.
    public func inspectableState() -> [String: JSONValue] {
        var facts = liveProfile.inspectableState
        facts["loaded"] = .bool(state.value != nil)
        facts["editingSummary"] = .bool(summaryEditor != nil)
        return facts
    }

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
        if UserEvents.follow.matches(event) || UserEvents.unfollow.matches(event) {
            return liveProfile.isWriting(.profile(user)) ? .handled : .pass
        }
        return .pass
    }

    /// Follows or unfollows at once, then writes; rolls back if the write fails.
    /// - Throws: The write's error, after rolling back and showing it (the route says the
    ///   action failed).
    public func perform(_ event: Event) async throws {
        if let edit = try? UserEvents.saveSummary.payload(of: event) { return await saveSummary(edit.summary) }
        let follow = UserEvents.follow.matches(event)
        guard follow || UserEvents.unfollow.matches(event), let viewer, viewer != user, let shown = state.value,
            (shown.viewerFollows == true) != follow
        else { return }
        // Its own follow does not come back to it; another viewer's while it wrote is
        // fetched after (a rollback never erases someone else's change).
        try await liveProfile.write(.profile(user), for: self) { () async throws(any Error) in
            apply(following: follow)
            followFailure = nil
            await context.setNeedsRender()
            do {
                try await relationships.setFollowing(follow, follower: viewer, followee: user)
            } catch let error as ProfileError where error.kind == .alreadyApplied {
                // Its page sent it twice and the first was applied: the follow is there.
            } catch {
                apply(following: !follow)
                let name = UserInfoPresenter(profile: shown, viewer: viewer, wording: wording).name
                followFailure = "Couldn't \(follow ? "follow" : "unfollow") \(name): \(SceneryError.messageForViewers(of: error))"
                await context.setNeedsRender()
                throw error
            }
            await context.setNeedsRender()
        }
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

// MARK: - The summary's editor

extension UserInfoModule {
    /// Opens or closes the owner's editor; `nil` for any other event.
    func handleSummary(_ event: Event) async -> EventDisposition? {
        if UserEvents.editSummary.matches(event) {
            guard viewerIsOwner, let profile = state.value else { return .handled }
            summaryEditor = SummaryEditor(text: profile.user.summary)
        } else if UserEvents.cancelSummary.matches(event) {
            summaryEditor = nil
        } else {
            return nil
        }
        await context.setNeedsRender()
        return .handled
    }

    /// Saves the summary the owner's form sent: checked again here, written once; the
    /// editor closes when it is saved and keeps the text, with what went wrong, when not.
    func saveSummary(_ text: String) async {
        guard viewerIsOwner, let viewer else { return }
        guard case .form(let form) = summaryForm(SummaryEditor(text: "")).kind else { return }
        let problems = form.problems(in: ["summary": text])
        guard problems.isEmpty else {
            summaryEditor = SummaryEditor(text: text, fieldError: problems.fields["summary"], formError: problems.form.first)
            return await context.setNeedsRender()
        }
        do {
            try await liveProfile.write(for: self) { try await profiles.setSummary(text, of: user, by: viewer) }
            summaryEditor = nil
            if var profile = state.value {
                profile.user.summary = text
                state = .loaded(profile)
            }
        } catch let error as ProfileError where error.kind == .alreadyApplied {
            summaryEditor = nil  // its page sent it twice: the first save is there
        } catch {
            summaryEditor = SummaryEditor(
                text: text, formError: "Couldn't save the summary: \(SceneryError.messageForViewers(of: error)) Your text is kept here; save again.")
        }
        await context.setNeedsRender()
    }
}
