/// A ``Message`` and the locale to format it in: what a module keeps for its words.
///
/// ```swift
/// let likes = try parameters.message("likes")   // in the scene's language
/// likes(["count": blog.likes])                  // "3 likes", "赞 3"
/// ```
public struct LocalizedMessage: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The message.
    public let message: Message
    /// The locale it is formatted in.
    public let locale: MessageLocale

    /// A message and its locale (English unless said).
    public init(_ message: Message, locale: MessageLocale = .english) {
        self.message = message
        self.locale = locale
    }

    /// An English message written in code: `let likes: LocalizedMessage = "Likes: {count}"`.
    ///
    /// A literal that does not parse is shown as written, never a crash; declare it as a
    /// parameter's default and the validator reports it.
    public init(stringLiteral source: String) {
        self.init(Message(literal: source))
    }

    /// The message formatted with these arguments.
    public func callAsFunction(_ arguments: [String: Message.Argument] = [:]) -> String {
        message.format(arguments, in: locale)
    }
}
