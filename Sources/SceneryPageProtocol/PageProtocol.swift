import Scenery

/// The page protocol, version 1: the messages a live page and `scenery serve` exchange
/// over the page socket (`/live?session=ID&since=N&protocol=1&kinds=…`), typed for both ends.
///
/// One definition serves every party: the server encodes ``ServerMessage`` and decodes
/// ``ClientMessage``; a client — `scenery connect`, the test kit, a native host — encodes
/// ``ClientMessage`` and decodes ``ServerMessage`` with the same types, and applies a
/// view-tree update with `SceneMirror.receive(sequence:patches:)`. The browser's page
/// script mirrors these types, and a test fails when the two disagree on a message.
///
/// A client announces the version it speaks in the socket's address: a client that names
/// another version, or none (a page from before the protocol was versioned), is closed at
/// once with ``reloadCloseCode`` and a reason that names both versions. It also names the
/// view-tree node kinds it shows (``NodeKinds``, in the socket's address and a view-tree
/// client's scene address): it is sent no other kind, each such node reaching it as a
/// placeholder that says why.
///
/// ```swift
/// import SceneryPageProtocol
///
/// let like = PageProtocol.ClientMessage.event(node: "blogs/blog.26.like", action: .random())
/// socket.send(try like.jsonText())
///
/// switch try PageProtocol.ServerMessage(jsonText: received) {
/// case .patches(let sequence, _, let node, let patches):
///     if mirror.receive(sequence: sequence, patches: patches) == .applied { redraw(node) }
/// case .tree(let sequence, let document):
///     mirror.attach(tree: document.root, sequence: sequence)
/// default: break
/// }
/// ```
///
/// ```text
/// page → server  {"type":"event","node":"blogs/blog.26.like","action":"k3v9x0q2m1"}
/// server → page  {"type":"patch","sequence":4,"operations":[{"op":"replace","id":"blogs/blog.26.likes","html":"…"}]}
/// server → page  {"type":"patches","sequence":4,"module":"blogs","node":"blogs","patches":[…]}
/// ```
public enum PageProtocol {
    /// The version this library speaks.
    public static let version = 1

    /// The close code that tells a page to load itself again (its scene is gone from this
    /// server, or it speaks another version of the protocol).
    public static let reloadCloseCode = 4404

    /// The largest message number either end uses: 2^53 − 1, the largest integer a page
    /// script counts exactly. A page that names a larger one (or a negative one) as the last
    /// message it applied is refused where the number enters, so no counter can overflow.
    public static let largestSequence = (1 << 53) - 1

    /// The message number a page's socket address names as the last it applied
    /// (`since=N`): 0 when it names none.
    ///
    /// - Throws: ``BadSequence`` when the text is not a whole number from 0 to
    ///   ``largestSequence``.
    public static func sequence(fromQuery text: Substring?) throws(BadSequence) -> Int {
        guard let text else { return 0 }
        guard text.utf8.count <= 16, let number = Int(text), (0...largestSequence).contains(number) else { throw BadSequence() }
        return number
    }

    /// A `since` that is not a message number of the page protocol.
    public struct BadSequence: Error, Equatable {
        public init() {}

        /// In words for the page (a close reason: at most 123 bytes).
        public var message: String { "since must be a message number from 0 to 2^53-1; load the page again." }
    }

    /// The reason a server gives when it closes a socket that speaks another version (at
    /// most 123 bytes, as a close reason must be).
    ///
    /// - Parameter spoken: The version the client named, or `nil` when it named none.
    public static func versionMismatchReason(spoken: String?) -> String {
        guard let spoken else { return "This page was updated: reload it to get the new version." }
        return "This page was updated: reload it to get the new version (it speaks page protocol \(spoken.prefix(8)), the site \(version))."
    }
}
