extension Message {
    /// Why a message is not valid ICU MessageFormat, and where.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The offset of the problem in the message, in characters from 0.
        public var offset: Int
        /// What is wrong and how to fix it.
        public var reason: String

        public init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }

        public var description: String { "at character \(offset + 1): \(reason)" }
    }
}
