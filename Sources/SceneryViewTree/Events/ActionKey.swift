import SceneryText
/// The idempotency key of one action a person took: a page names each action it sends,
/// and sends it again under the same key when it cannot tell whether it arrived (its
/// server went away before answering).
///
/// A host runs an action's event as the action (`run(as:isolation:_:)` in `Scenery`); a store that
/// writes for it records the write's key (`WriteContext/nextWriteKey()`) first, in the same
/// transaction as the write, and refuses the write when the key was recorded already; and
/// a host asks its `ActionLedger` (in SceneryLive) before running an action a page sent again. So an
/// action is applied once, whichever server receives it, however often, and even when two
/// servers run it at the same moment:
///
/// ```swift
/// let key = try ActionKey(validating: "4f1c2a9e0b7d4c3a")
/// if try await ledger.hasApplied(key) == false {
///     await ActionKey.run(as: key) { await scene.send(event) }
/// }
/// ```
public struct ActionKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's text: 8 to 64 letters, digits, `-` or `_`.
    public let rawValue: String

    /// A key from a page's text.
    ///
    /// - Throws: `Invalid` when the text is not 8 to 64 letters, digits, `-` or `_`.
    package init(validating text: String) throws(Invalid) {
        guard (8...64).contains(text.utf8.count), text.utf8.allSatisfy(Self.isKeyByte) else { throw Invalid() }
        rawValue = text
    }

    /// A new random key (128 bits as hex).
    public static func random() -> ActionKey {
        ActionKey(checked: Hex.text((0..<16).map { _ in UInt8.random(in: .min ... .max) }))
    }

    /// A key whose text is known to be one (made here, or derived from a checked key).
    package init(checked text: String) {
        rawValue = text
    }

    /// This key as one person's: what a host runs an action as and asks its
    /// `ActionLedger` about, so that a key another viewer's page chose (by chance or to
    /// block an action) never answers for this viewer's action.
    ///
    /// A signed-in viewer's key is `u<viewer>:<key>`, a signed-out visitor's
    /// `v<visitor>:<key>` (or `s:<key>` without a visitor id). A page's key holds no `:`, so
    /// the viewer and the key are never confused, whatever the viewer's id.
    ///
    /// ```swift
    /// let key = try ActionKey(validating: "like-26-once")
    /// key.scoped(toViewer: "2", visitor: nil).rawValue  // "u2:like-26-once"
    /// ```
    public func scoped(toViewer viewer: String?, visitor: String?) -> ActionKey {
        let owner = viewer.map { "u\($0)" } ?? visitor.map { "v\($0)" } ?? "s"
        return ActionKey(checked: "\(owner):\(rawValue)")
    }

    public var description: String { rawValue }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
    }

    /// A text that is not an action key.
    package struct Invalid: Error, CustomStringConvertible {
        package var description: String { "An action key is 8 to 64 letters, digits, '-' or '_'." }
    }
}
