import ProfileDemoDomain
import Scenery

/// Rows shared by every open page: when a like reaches a thousand pages of the same blog,
/// the pages whose row reads the same (the same blog as their viewer sees it, the same
/// wording, the same right to like, no failure beside it) share one rendering.
extension BlogModule {
    /// Everything a row's rendering reads.
    struct RowInput: Hashable, Sendable {
        var blog: Blog
        /// The wording, by its number in ``wordings`` (hashing a wording's messages for
        /// every row would cost more than it saves).
        var wording: Int
        var canLike: Bool
        var failure: String?
    }

    static let rows = SharedRenderings<RowInput>(capacity: 512)

    /// The wordings in use, numbered; at most 64 (scene files name few). A wording past
    /// those gets no number, and its rows are rendered for each page.
    private static let wordings = Locked<[BlogWording: Int]>([:])

    static func number(of wording: BlogWording) -> Int? {
        wordings.withLock { numbers in
            if let number = numbers[wording] { return number }
            guard numbers.count < 64 else { return nil }
            numbers[wording] = numbers.count
            return numbers.count - 1
        }
    }
}
