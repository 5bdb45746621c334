extension Message {
    /// Why a message is not valid ICU MessageFormat, and where.
    package struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The offset of the problem in the message, in characters from 0.
        package var offset: Int
        /// What is wrong and how to fix it.
        package var reason: String

        package init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }

        package var description: String { "at character \(offset + 1): \(reason)" }
    }
}
