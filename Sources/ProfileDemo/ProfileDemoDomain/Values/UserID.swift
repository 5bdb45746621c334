/// The id of a user.
///
/// ```swift
/// let me: UserID = "1"
/// ```
public struct UserID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as text.
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }
}
