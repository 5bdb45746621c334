/// The id of a blog post: a number the store gives it, as a type of its own so a blog's id
/// is never taken for a draft's, a count or a page number.
///
/// It is written as a plain number in JSON (event payloads, exports, view trees) and in
/// text (`blog.27`).
///
/// ```swift
/// let blog: BlogID = 27
/// BlogNodeID(blog: blog).row  // "blog.27"
/// ```
public struct BlogID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The id as a number.
    public var rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public init(integerLiteral value: Int64) { self.rawValue = value }

    /// The id written as text (`"27"`), or `nil` when the text is not a whole number.
    ///
    /// Inlinable, so the standard library's parser is specialized for the caller's text (a
    /// row id's substring, once per open page a like reaches).
    @inlinable
    public init?(_ text: some StringProtocol) {
        guard let value = Int64(text) else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: BlogID, rhs: BlogID) -> Bool { lhs.rawValue < rhs.rawValue }
}
