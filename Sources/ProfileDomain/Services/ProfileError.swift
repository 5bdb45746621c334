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
}
