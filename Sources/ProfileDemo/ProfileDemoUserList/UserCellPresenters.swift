import Foundation
import ProfileDemoDomain
import Scenery

/// Turns a user-list entry into a cell. One layout, several presenters: the follow list
/// and the friend list differ in button titles and actions, not in layout (seed 002's
/// HHFollowCellViewModel and HHFriendCellViewModel).
public protocol UserCellPresenter: Sendable {
    /// The cell for an entry, seen by `viewer` (no button for signed-out viewers or for
    /// the viewer's own row).
    func cell(for entry: UserListEntry, viewer: UserID?) -> UserCell
}

/// Wording shared by the presenters.
public struct UserCellWording: Sendable, Hashable {
    public var emptyName = "Anonymous"
    public var emptySummary = ""
    public var followTitle = "+ Follow"
    public var followingTitle = "Following"
    public var addFriendTitle = "Add friend"
    public var requestedTitle = "Requested"
    public var acceptTitle = "Accept"
    public var friendsTitle = "Friends"

    public init() {}

    static let parameters: [ParameterSpec] = {
        let defaults = UserCellWording()
        return [
            .message("emptyName", default: defaults.emptyName, summary: "Name when empty."),
            .message("followTitle", default: defaults.followTitle, summary: "Follow button (not following)."),
            .message("followingTitle", default: defaults.followingTitle, summary: "Follow button (following; tap unfollows)."),
            .message("addFriendTitle", default: defaults.addFriendTitle, summary: "Friend button (no relation)."),
            .message("requestedTitle", default: defaults.requestedTitle, summary: "Friend button (request sent; tap withdraws)."),
            .message("acceptTitle", default: defaults.acceptTitle, summary: "Friend button (request received)."),
            .message("friendsTitle", default: defaults.friendsTitle, summary: "Friend button (friends; tap unfriends)."),
        ]
    }()

    public init(parameters: ModuleParameters) throws {
        emptyName = try parameters.text("emptyName")
        followTitle = try parameters.text("followTitle")
        followingTitle = try parameters.text("followingTitle")
        addFriendTitle = try parameters.text("addFriendTitle")
        requestedTitle = try parameters.text("requestedTitle")
        acceptTitle = try parameters.text("acceptTitle")
        friendsTitle = try parameters.text("friendsTitle")
    }

    func name(_ user: User) -> String {
        let name = user.name.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? emptyName : name
    }

    func baseCell(_ entry: UserListEntry, action: UserCell.Action?) -> UserCell {
        UserCell(
            user: entry.user.id, name: name(entry.user), subtitle: entry.user.summary,
            avatar: .person(named: entry.user.name, picture: entry.user.avatarURL),
            action: action)
    }
}

/// Follow-list cells: "+ Follow" sends `user.follow`; "Following" sends `user.unfollow`.
public struct FollowCellPresenter: UserCellPresenter {
    public var wording: UserCellWording

    public init(wording: UserCellWording = UserCellWording()) { self.wording = wording }

    public func cell(for entry: UserListEntry, viewer: UserID?) -> UserCell {
        guard let viewer, viewer != entry.user.id else { return wording.baseCell(entry, action: nil) }
        let action =
            entry.viewerFollows
            ? UserCell.Action(title: wording.followingTitle, event: UserEvents.unfollow)
            : UserCell.Action(title: wording.followTitle, event: UserEvents.follow, style: .primary)
        return wording.baseCell(entry, action: action)
    }
}

/// Friend-list cells: "Add friend" sends `friend.request`, "Accept" sends `friend.accept`,
/// "Requested" sends `friend.withdraw` (take back a request) and "Friends" sends
/// `friend.remove` (end a friendship), so a scene can ask the right question for each.
public struct FriendCellPresenter: UserCellPresenter {
    public var wording: UserCellWording

    public init(wording: UserCellWording = UserCellWording()) { self.wording = wording }

    public func cell(for entry: UserListEntry, viewer: UserID?) -> UserCell {
        guard let viewer, viewer != entry.user.id else { return wording.baseCell(entry, action: nil) }
        let action: UserCell.Action =
            switch entry.friendState {
            case .none: UserCell.Action(title: wording.addFriendTitle, event: UserEvents.requestFriendship, style: .primary)
            case .requested: UserCell.Action(title: wording.requestedTitle, event: UserEvents.withdrawFriendRequest)
            case .incoming: UserCell.Action(title: wording.acceptTitle, event: UserEvents.acceptFriendship, style: .primary)
            case .friends: UserCell.Action(title: wording.friendsTitle, event: UserEvents.removeFriend)
            }
        return wording.baseCell(entry, action: action)
    }
}
