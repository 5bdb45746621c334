import Foundation
import NIOCore
import Scenery
import SceneryLive

extension SceneryServer {
    /// How a server listens, signs its cookies, and bounds what a client may cost it.
    ///
    /// ```swift
    /// var configuration = SceneryServer.Configuration(port: 8080)
    /// configuration.showsModuleLabels = true     // label each card with its module
    /// ```
    public struct Configuration: Sendable {
        /// The address to listen on; `127.0.0.1` keeps the server on this machine.
        public var host: String
        /// The port to listen on; `0` picks a free one.
        public var port: Int
        /// The key that signs sign-in cookies. A new random key by default, so cookies end
        /// with the process; give a fixed one to keep people signed in across restarts.
        public var cookieSecret: [UInt8]
        /// How long a sign-in lasts.
        public var signInDuration: Duration = .seconds(7 * 24 * 3600)
        /// Label each module's card with its id and type.
        public var showsModuleLabels = false
        /// Where the server's metrics go (the bootstrapped swift-metrics backend by
        /// default), and whether it answers `GET /metrics` on this machine.
        public var telemetry = Telemetry()
        /// Serve `/preview/{id}`: a scene's variants side by side, for authors. Off by default;
        /// allowed only on a loopback ``host`` (the server refuses to start otherwise), and
        /// answered only to requests from this machine. A preview frame shows a scene as the
        /// signed-in author or signed out, never as someone else: private modules show the
        /// author's own data only.
        public var enablesPreview = false
        /// Serve the page inspector, for authors: each scene page gets `/assets/inspector.js`,
        /// whose Inspect button shows, for any part of the page, the module that shows it,
        /// the scene file line that placed it, the variant and the experiments' arms, and the
        /// page's recent events (`GET /inspect/{session}?node=ID`, answered for the page's own
        /// viewer on this machine only). Off by default, and then not a byte of it is sent;
        /// allowed only on a loopback ``host``, as the preview is.
        public var enablesInspector = false
        /// With the inspector on, the link its panel offers to open the scene file where a
        /// module was placed, given the file as the registry names it
        /// (`Scenes/user-profile.json`) and the position; `nil` (the default, or returned):
        /// no link. ``editorLink(_:sceneFolder:)`` makes one for a folder of scene files;
        /// `scenery serve` makes one from the `SCENERY_EDITOR` environment variable.
        ///
        /// ```swift
        /// configuration.editorLink = Configuration.editorLink("vscode://file/{file}:{line}:{column}", sceneFolder: scenes)
        /// ```
        public var editorLink: (@Sendable (_ file: String, _ position: SourcePosition) -> String?)?
        /// How long a page's scene is kept while its socket is gone, so a reconnect resumes
        /// it (selected tab, pages loaded) instead of starting over.
        public var reconnectGrace: Duration = .seconds(60)
        /// How old a page's resume token may be: a page whose server went away (a crash, a
        /// deploy) reconnects to another server of the site with its latest token, which
        /// makes the page again where it was. Older tokens are refused (the page loads
        /// itself again). Every server of a site must share ``cookieSecret`` for this.
        public var resumeTokenLifetime: Duration = .seconds(6 * 3600)
        /// Where servers record the actions they applied and the resume tokens they used:
        /// give the database every server of the site shares (`SQLiteProfileStore` or
        /// `PostgresProfileStore` are ledgers), so that an action a page sends again after
        /// its server went away is applied once, and a resume token resumes one page once.
        /// Memory by default: right for one process.
        public var actionLedger: any ActionLedger = MemoryActionLedger()
        /// How long a page's first response waits for the scene's modules to load. A page
        /// whose modules all load sooner is answered as soon as they have; past it the page
        /// is answered with the modules still loading as their placeholders, and each is
        /// patched in over the page's socket when it loads, so the slowest module never
        /// blanks the page. A missing person or blog is a 404 page only when its modules
        /// said so within this time. Zero answers at once.
        public var firstResponseWait: Duration = .milliseconds(200)
        /// The scene a person's name on the home page opens, with the person's id as its
        /// one `userID` argument (`"user-profile"` in the demo); `nil` picks the first scene
        /// that takes exactly one person. Without such a scene the home page lists nobody.
        public var personScene: String?
        /// Folders whose pictures the server serves at `/pictures/NAME` (PNG, JPEG, GIF,
        /// WebP, SVG; a name of letters, digits, `.`, `-` and `_`), for data that names a
        /// picture by path (`"/pictures/alice.svg"`); the first folder holding NAME answers.
        public var pictureFolders: [URL] = []
        /// How long a page's scene waits for its socket after the page was served.
        public var attachTimeout: Duration = .seconds(30)
        /// The largest WebSocket message a client may send, in bytes: 80 KiB by default, so
        /// that a form's longest text (`Form.largestText`, 64 KiB) fits; the page script
        /// refuses a longer submit next to its field before it sends.
        public var maxMessageSize = 80 * 1024
        /// How often the server pings an open page socket; a page that has not answered the
        /// previous ping by the next is disconnected (it reconnects and catches up, if it can).
        public var pingInterval: Duration = .seconds(20)
        /// Events a page may send per second, on average, and in a burst.
        public var eventsPerSecond = 10.0
        public var eventBurst = 30.0
        /// Sockets a page may attach per second, on average, and in a burst: past them a
        /// socket is closed with 1013 ("try again later"), so a client reconnecting in a
        /// loop costs its own page a wait and no one else anything.
        public var reconnectsPerSecond = 2.0
        public var reconnectBurst = 10.0
        /// Messages queued for a page that is not reading; past this the socket is closed
        /// (the page reconnects and resynchronises), so a slow client cannot grow memory.
        public var maxQueuedMessages = 256
        /// How many new signed-out visitor ids (the unit an experiment counts) one address
        /// is given an hour; past it a visitor from there takes part in no experiment, so a
        /// client that throws its cookie away is not counted as many people.
        public var newVisitorsPerAddressPerHour = 60
        /// Bytes queued for a page that is not reading; past this its socket is closed too,
        /// so a page that asks for the whole scene and reads nothing grows no memory.
        public var maxQueuedBytes = 512 * 1024
        /// How many rows of a long list a page holds at once; the page moves this window as
        /// the person scrolls (the list's module must support windows, as `BlogModule`
        /// does). `nil` sends whole lists.
        public var rowWindow: Int? = 60
        /// How many recent updates a page session keeps to replay after a reconnect.
        public var replayedUpdates = 64
        /// How many bytes of recent updates a page session keeps at most to replay; a
        /// message of the whole scene replaces everything before it.
        public var replayedBytes = 256 * 1024
        /// How long a page session keeps a message it sent to the page's socket, to replay
        /// after a reconnect. Older ones are let go, so a page's memory returns to its idle
        /// level once changes stop; a page that comes back needing one is sent the whole
        /// scene instead. Messages sent while the page has no socket are kept for its
        /// reconnect (within ``replayedUpdates`` and ``replayedBytes``).
        public var replayedAge: Duration = .seconds(10)
        /// How long a client may take to send a request's headers (from their first byte, or
        /// from the connection's start), and its body (from the end of its headers); past it
        /// the server answers `408 Request Timeout` and closes the connection.
        public var headerTimeout: Duration = .seconds(10)
        public var bodyTimeout: Duration = .seconds(10)
        /// How long a kept-alive connection may wait between requests before it is closed.
        public var idleTimeout: Duration = .seconds(60)
        /// The largest request head (request line and headers), in bytes.
        public var maxHeadBytes = 32 * 1024
        /// Pages one signed-in viewer may hold open at once (a page counts until its socket
        /// has been gone for ``reconnectGrace``); past it a new page is refused with
        /// `429 Too Many Requests` and a message saying so.
        public var maxPagesPerViewer = 32
        /// Pages one address may hold open at once, signed in or not.
        public var maxPagesPerAddress = 128
        /// The addresses of proxies in front of the server (nginx on this machine:
        /// `["127.0.0.1"]`). A request from one of them counts, for ``maxPagesPerAddress``,
        /// against the client its `X-Forwarded-For` header names (the last address, the one
        /// the proxy added); from any other peer the header is ignored, since a client could
        /// write anything there. The preview (loopback only) is served to a request from a
        /// trusted proxy only when the client it names is a loopback address too, and
        /// refused when it names none. Empty by default.
        public var trustedProxies: Set<String> = []
        /// Pages may open their socket only from these origins; `nil` allows the server's
        /// own origin (`http://HOST:PORT` as the request names it) only.
        public var allowedOrigins: Set<String>?

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: Int = 8080, cookieSecret: [UInt8]? = nil) {
            self.host = host
            self.port = port
            self.cookieSecret = cookieSecret ?? (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        }

        /// Checks that the settings can be served as they are.
        /// - Throws: ``ConfigurationError`` when the preview or the inspector is enabled on an
        ///   address other machines can reach, or a limit is not positive.
        public func validate() throws(ConfigurationError) {
            if enablesPreview, !Self.isLoopback(host) {
                throw ConfigurationError(
                    "The preview shows scenes as their authors see them, so it is served on a loopback address only (127.0.0.1 or ::1), not \(host.quoted); serve authoring on 127.0.0.1, or turn the preview off for \(host.quoted)."
                )
            }
            if enablesInspector, !Self.isLoopback(host) {
                throw ConfigurationError(
                    "The inspector shows how pages are made (scene files, variants, arms, events), so it is served on a loopback address only (127.0.0.1 or ::1), not \(host.quoted); inspect on 127.0.0.1, or turn the inspector off for \(host.quoted)."
                )
            }
            if pingInterval <= .zero {
                throw ConfigurationError("The ping interval must be more than zero (it is \(pingInterval)); 20 seconds suits most networks.")
            }
            if maxPagesPerViewer < 1 || maxPagesPerAddress < 1 {
                throw ConfigurationError("The page limits must be at least 1 (per viewer: \(maxPagesPerViewer), per address: \(maxPagesPerAddress)).")
            }
            for proxy in trustedProxies.sorted() where !Self.isIPAddress(proxy) {
                throw ConfigurationError(
                    "A trusted proxy is named by its IP address, as the server sees it connect (127.0.0.1 for nginx on this machine), not \(proxy.quoted).")
            }
        }

        /// Whether `text` is an IPv4 or IPv6 address (not a host name).
        public static func isIPAddress(_ text: String) -> Bool {
            (try? SocketAddress(ipAddress: text, port: 0)) != nil
        }

        /// Whether an address (or host name) is this machine's loopback: `localhost`,
        /// 127.0.0.0/8, `::1`, or 127.0.0.0/8 mapped into IPv6.
        public static func isLoopback(_ host: String) -> Bool {
            var host = host.lowercased()
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
            if host.hasPrefix("::ffff:") { host = String(host.dropFirst("::ffff:".count)) }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
        }
    }

    /// A server configuration that cannot be served, with what to change.
    public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
        /// What is wrong and how to fix it.
        public let description: String

        init(_ description: String) { self.description = description }
    }
}

/// A user a demo sign-in page offers.
public struct SignInUser: Sendable, Hashable {
    /// The user's id, as scenes take it (`viewer`).
    public var id: String
    /// The name the sign-in page shows.
    public var name: String

    /// Creates a user.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
