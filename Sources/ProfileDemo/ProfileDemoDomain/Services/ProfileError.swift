import Scenery

/// What went wrong in a profile service: the `DataError` of Scenery's stores, under the
/// name the profile demo has always used.
///
/// ```swift
/// do {
///     try await blogs.setLiked(true, blog: 26, by: viewer)
/// } catch let error as ProfileError where error.kind == .conflict {
///     // another writer held the data: try again
/// }
/// ```
public typealias ProfileError = DataError

extension DataError {
    /// No user has the id.
    public static func userNotFound(_ id: UserID) -> ProfileError {
        ProfileError(.notFound, "No user with id \(id.rawValue.quoted) exists.")
    }

    /// No blog has the id.
    public static func blogNotFound(_ id: BlogID) -> ProfileError {
        ProfileError(.notFound, "No blog with id \(id) exists.")
    }

    /// The owner has no draft with the id (or it is someone else's: the same answer, so
    /// nobody learns which drafts exist).
    public static func draftNotFound(_ id: Int64) -> ProfileError {
        ProfileError(.notFound, "No draft with id \(id) is yours; it may have been published or deleted in another tab. Reload to see your drafts.")
    }

    /// The draft was saved elsewhere after `version` was opened: nothing was written.
    public static func draftChanged(_ id: Int64, from version: Int, to stored: Int) -> ProfileError {
        ProfileError(
            .outdated,
            "Draft \(id) was changed in another tab or window since it was opened (it is at version \(stored), this one opened version \(version)), so nothing was done; open it again to see the newer version."
        )
    }
}
