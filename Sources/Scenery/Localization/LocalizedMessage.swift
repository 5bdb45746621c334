/// A ``Message`` and the locale to format it in: what a module keeps for its words.
///
/// ```swift
/// let likes = try parameters.message("likes")   // in the scene's language
/// likes(["count": blog.likes])                  // "3 likes", "赞 3"
/// ```
public struct LocalizedMessage: Sendable, Hashable {
    /// The message.
    public let message: Message
    /// The locale it is formatted in.
    public let locale: MessageLocale

    public init(_ message: Message, locale: MessageLocale) {
        self.message = message
        self.locale = locale
    }

    /// The message formatted with these arguments.
    public func callAsFunction(_ arguments: [String: MessageArgument] = [:]) -> String {
        message.format(arguments, in: locale)
    }
}
