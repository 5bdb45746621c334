import Scenery

/// The wording of a user-info block; every piece is a message parameter, so a scene (or a
/// translation) can say "作品: {count}" where another says "Blogs: {count}".
public struct UserInfoWording: Sendable, Hashable {
    public var emptyName = "Anonymous"
    /// Wording around the summary (`{summary}`).
    public var summaryFormat: LocalizedMessage = "{summary}"
    public var emptySummary = "This user hasn't written anything yet."
    /// The blog count (`{count}`).
    public var blogCountFormat: LocalizedMessage = "Blogs: {count}"
    /// The friend count (`{count}`).
    public var friendCountFormat: LocalizedMessage = "Friends: {count}"
    /// The follower count (`{count}`).
    public var followerCountFormat: LocalizedMessage = "Followers: {count}"
    public var followTitle = "Follow"
    public var unfollowTitle = "Unfollow"
    /// The avatar's description (`{name}`).
    public var avatarAltFormat: LocalizedMessage = "Avatar of {name}"
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
        let count = [MessageArgumentSpec("count", .number, summary: "The count.")]
        return [
            .message("emptyName", default: defaults.emptyName, summary: "Shown when the name is empty."),
            .message(
                "summaryFormat", default: defaults.summaryFormat.message.source,
                arguments: [MessageArgumentSpec("summary", .text, summary: "The summary, or emptySummary.")], summary: "Wording around the summary."),
            .message("emptySummary", default: defaults.emptySummary, summary: "Shown when the summary is empty."),
            .message("blogCountFormat", default: defaults.blogCountFormat.message.source, arguments: count, summary: "Blog count."),
            .message("friendCountFormat", default: defaults.friendCountFormat.message.source, arguments: count, summary: "Friend count."),
            .message("followerCountFormat", default: defaults.followerCountFormat.message.source, arguments: count, summary: "Follower count."),
            .message("followTitle", default: defaults.followTitle, summary: "The follow button."),
            .message("unfollowTitle", default: defaults.unfollowTitle, summary: "The unfollow button."),
            .message(
                "avatarAltFormat", default: defaults.avatarAltFormat.message.source,
                arguments: [MessageArgumentSpec("name", .text, summary: "The user's name.")], summary: "Avatar description."),
            .message("editSummaryTitle", default: defaults.editSummaryTitle, summary: "The owner's edit-summary button."),
            .message("summaryLabel", default: defaults.summaryLabel, summary: "The summary field's label."),
            .message("saveSummaryTitle", default: defaults.saveSummaryTitle, summary: "The summary editor's save button."),
            .message("cancelTitle", default: defaults.cancelTitle, summary: "The summary editor's cancel button."),
        ]
    }()

    /// The wording a scene file gave, in the scene's language.
    public init(parameters: ModuleParameters) throws {
        emptyName = try parameters.text("emptyName")
        summaryFormat = try parameters.message("summaryFormat")
        emptySummary = try parameters.text("emptySummary")
        blogCountFormat = try parameters.message("blogCountFormat")
        friendCountFormat = try parameters.message("friendCountFormat")
        followerCountFormat = try parameters.message("followerCountFormat")
        followTitle = try parameters.text("followTitle")
        unfollowTitle = try parameters.text("unfollowTitle")
        avatarAltFormat = try parameters.message("avatarAltFormat")
        editSummaryTitle = try parameters.text("editSummaryTitle")
        summaryLabel = try parameters.text("summaryLabel")
        saveSummaryTitle = try parameters.text("saveSummaryTitle")
        cancelTitle = try parameters.text("cancelTitle")
    }
}
