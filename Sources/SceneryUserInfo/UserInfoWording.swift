import Scenery

/// The wording of a user-info block; every piece is a module parameter, so a scene can
/// say "作品: %d" where another says "Blogs: %d".
public struct UserInfoWording: Sendable, Hashable {
    public var emptyName = "Anonymous"
    public var summaryFormat = "%@"
    public var emptySummary = "This user hasn't written anything yet."
    public var blogCountFormat = "Blogs: %d"
    public var friendCountFormat = "Friends: %d"
    public var followerCountFormat = "Followers: %d"
    public var followTitle = "Follow"
    public var unfollowTitle = "Unfollow"
    public var avatarAltFormat = "Avatar of %@"
    /// The owner's button that opens the summary editor.
    public var editSummaryTitle = "Edit summary"
    /// The summary field's label.
    public var summaryLabel = "Summary"
    /// The summary editor's save button.
    public var saveSummaryTitle = "Save summary"
    /// The summary editor's cancel button.
    public var cancelTitle = "Cancel"

    public init() {}

    /// The parameters, with the English defaults.
    static let parameters: [ParameterSpec] = {
        let defaults = UserInfoWording()
        return [
            ParameterSpec("emptyName", .string, default: .string(defaults.emptyName), summary: "Shown when the name is empty."),
            ParameterSpec("summaryFormat", .string, default: .string(defaults.summaryFormat), summary: "Wording around the summary (%@)."),
            ParameterSpec("emptySummary", .string, default: .string(defaults.emptySummary), summary: "Shown when the summary is empty."),
            ParameterSpec("blogCountFormat", .string, default: .string(defaults.blogCountFormat), summary: "Blog count (%d)."),
            ParameterSpec("friendCountFormat", .string, default: .string(defaults.friendCountFormat), summary: "Friend count (%d)."),
            ParameterSpec("followerCountFormat", .string, default: .string(defaults.followerCountFormat), summary: "Follower count (%d)."),
            ParameterSpec("followTitle", .string, default: .string(defaults.followTitle), summary: "The follow button."),
            ParameterSpec("unfollowTitle", .string, default: .string(defaults.unfollowTitle), summary: "The unfollow button."),
            ParameterSpec("avatarAltFormat", .string, default: .string(defaults.avatarAltFormat), summary: "Avatar description (%@ is the name)."),
            ParameterSpec("editSummaryTitle", .string, default: .string(defaults.editSummaryTitle), summary: "The owner's edit-summary button."),
            ParameterSpec("summaryLabel", .string, default: .string(defaults.summaryLabel), summary: "The summary field's label."),
            ParameterSpec("saveSummaryTitle", .string, default: .string(defaults.saveSummaryTitle), summary: "The summary editor's save button."),
            ParameterSpec("cancelTitle", .string, default: .string(defaults.cancelTitle), summary: "The summary editor's cancel button."),
        ]
    }()

    /// The wording a scene file gave.
    public init(parameters: ModuleParameters) throws {
        emptyName = try parameters.string("emptyName")
        summaryFormat = try parameters.string("summaryFormat")
        emptySummary = try parameters.string("emptySummary")
        blogCountFormat = try parameters.string("blogCountFormat")
        friendCountFormat = try parameters.string("friendCountFormat")
        followerCountFormat = try parameters.string("followerCountFormat")
        followTitle = try parameters.string("followTitle")
        unfollowTitle = try parameters.string("unfollowTitle")
        avatarAltFormat = try parameters.string("avatarAltFormat")
        editSummaryTitle = try parameters.string("editSummaryTitle")
        summaryLabel = try parameters.string("summaryLabel")
        saveSummaryTitle = try parameters.string("saveSummaryTitle")
        cancelTitle = try parameters.string("cancelTitle")
    }
}
