import Foundation
import ProfileDemoDomain
import Scenery

/// Everything a user-info block shows, formatted: pure values, testable without rendering.
///
/// ```swift
/// let presenter = UserInfoPresenter(profile: profile, viewer: "2", wording: UserInfoWording())
/// presenter.name            // "Anonymous" for an empty name
/// presenter.followTitle     // "Unfollow" when viewer 2 follows the user, nil for the user themselves
/// ```
public struct UserInfoPresenter: Sendable, Hashable {
    public let profile: UserProfile
    public let viewer: UserID?
    public let wording: UserInfoWording

    public init(profile: UserProfile, viewer: UserID?, wording: UserInfoWording) {
        self.profile = profile
        self.viewer = viewer
        self.wording = wording
    }

    /// The name, or the default for an empty one.
    public var name: String {
        let name = profile.user.name.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? wording.emptyName : name
    }

    /// The summary in its wording, or the default for an empty one.
    public var summary: String {
        let summary = profile.user.summary.trimmingCharacters(in: .whitespacesAndNewlines)
        return wording.summaryFormat(["summary": .text(summary.isEmpty ? wording.emptySummary : summary)])
    }

    public var blogCount: String { wording.blogCountFormat(["count": .integer(profile.blogCount)]) }
    public var friendCount: String { wording.friendCountFormat(["count": .integer(profile.friendCount)]) }
    public var followerCount: String { wording.followerCountFormat(["count": .integer(profile.followerCount)]) }

    /// The avatar: the user's picture (with their initials where it does not load), their
    /// initials, or a generic symbol for a nameless person.
    public var avatar: ViewNode.ImageSource { .person(named: profile.user.name, picture: profile.user.avatarURL) }

    public var avatarAlt: String { wording.avatarAltFormat(["name": .text(name)]) }

    /// Whether the viewer may follow or unfollow: signed in and someone else.
    public var showsFollowButton: Bool { viewer != nil && viewer != profile.user.id }

    /// The follow button's title, or `nil` when there is no button.
    public var followTitle: String? {
        guard showsFollowButton else { return nil }
        return profile.viewerFollows == true ? wording.unfollowTitle : wording.followTitle
    }

    /// The event the follow button sends.
    public var followEvent: EventKind<UserEvents.Person> { profile.viewerFollows == true ? UserEvents.unfollow : UserEvents.follow }
}
