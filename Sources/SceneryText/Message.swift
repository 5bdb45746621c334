/// A message in ICU MessageFormat: wording with named arguments, plurals and choices.
///
/// Modules declare their words as messages (`ParameterSpec.message(_:default:arguments:summary:)` (in `Scenery`))
/// and scene files or translations give the text; a message is parsed once, checked
/// against the arguments its module provides, and formatted per locale.
///
/// ```swift
/// let likes = try Message("{count, plural, =0 {No likes} one {# like} other {# likes}}")
/// likes.format(["count": 1], in: MessageLocale("en"))      // "1 like"
/// likes.format(["count": 1200], in: MessageLocale("en"))   // "1,200 likes"
///
/// let byline = try Message("By {name}")
/// byline.format(["name": "Ann"], in: MessageLocale("en"))   // "By Ann"
/// ```
///
/// Supported: `{name}`, `{name, number}` (`integer`, `percent`), `{name, date}` and
/// `{name, time}` (`short`, `medium`, `long`, `full`), `{name, plural, …}` with `=N` cases,
/// `offset:` and `#`, `{name, select, …}`, and apostrophe quoting (`'{'`, `''`).
public struct Message: Sendable, Hashable, CustomStringConvertible {
    /// The message as written.
    public let source: String
    let parts: [Part]

    /// Parses a message.
    /// - Throws: `Message.SyntaxError` with the character offset of the problem.
    package init(_ source: String) throws(Message.SyntaxError) {
        self.source = source
        var parser = MessageParser(source)
        parts = try parser.parseMessage()
    }

    /// A message written in code, such as a module's default wording (see
    /// ``LocalizedMessage/init(stringLiteral:)``).
    ///
    /// A literal that does not parse is shown as written (and the validator, which checks
    /// every module's defaults, reports it), never a crash.
    package init(literal source: String) {
        self.source = source
        do {
            var parser = MessageParser(source)
            parts = try parser.parseMessage()
        } catch {
            parts = [.text(source)]
        }
    }

    public var description: String { source }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// One piece of a parsed message.
    indirect enum Part: Sendable {
        case text(String)
        case argument(String, ArgumentStyle)
        case plural(String, offset: Int, cases: [PluralCase])
        case select(String, cases: [(key: String, parts: [Part])])
        /// `#` inside a plural: the number, less the offset.
        case pound
    }

    enum ArgumentStyle: Sendable, Equatable {
        case plain
        case number(NumberStyle)
        case date(DateStyle)
        case time(DateStyle)
    }

    enum NumberStyle: String, Sendable, CaseIterable {
        case decimal = ""
        case integer, percent
    }

    /// How long a date or time is written.
    package enum DateStyle: String, Sendable, CaseIterable {
        case short, medium, long, full
    }

    struct PluralCase: Sendable {
        enum Selector: Sendable, Equatable {
            case exact(Int)
            case category(PluralCategory)
        }
        var selector: Selector
        var parts: [Part]
        /// Where the selector starts in the source, for diagnostics.
        var offset: Int
    }
}

extension Message {
    /// Messages parsed before, by their source: every page of a scene formats the same words.
    private static let parsedMessages = Locked<[String: Message]>([:])

    /// The message of a source, parsed once and kept (up to 4,096 distinct sources).
    package static func parsed(_ source: String) throws(Message.SyntaxError) -> Message {
        if let known = parsedMessages.withLock({ $0[source] }) { return known }
        let message = try Message(source)
        parsedMessages.withLock { kept in
            if kept.count >= 4_096 { kept.removeAll(keepingCapacity: true) }
            kept[source] = message
        }
        return message
    }
}
