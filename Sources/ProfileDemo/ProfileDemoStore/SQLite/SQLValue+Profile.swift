import ProfileDemoDomain
import ScenerySiteStore

extension SQLValue {
    /// A blog id, as its number.
    init(_ blog: BlogID) { self = .integer(blog.rawValue) }
    /// A user id, as its text; `NULL` for `nil`.
    init(_ id: UserID?) { self = id.map { .text($0.rawValue) } ?? .null }
}
