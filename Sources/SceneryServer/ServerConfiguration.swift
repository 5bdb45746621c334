import Foundation

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
        /// Serve `/preview/{id}`: a scene for its owner, another viewer and a signed-out
        /// viewer side by side. For authors; it shows each variant whoever asks.
        public var enablesPreview = false
        /// How long a page's scene is kept while its socket is gone, so a reconnect resumes
        /// it (selected tab, pages loaded) instead of starting over.
        public var reconnectGrace: Duration = .seconds(60)
        /// How long a page's scene waits for its socket after the page was served.
        public var attachTimeout: Duration = .seconds(30)
        /// The largest WebSocket message a client may send, in bytes.
        public var maxMessageSize = 16 * 1024
        /// Events a page may send per second, on average, and in a burst.
        public var eventsPerSecond = 10.0
        public var eventBurst = 30.0
        /// Messages queued for a page that is not reading; past this the socket is closed
        /// (the page reconnects and resynchronises), so a slow client cannot grow memory.
        public var maxQueuedMessages = 256
        /// How many rows of a long list a page holds at once; the page moves this window as
        /// the person scrolls (the list's module must support windows, as `BlogModule`
        /// does). `nil` sends whole lists.
        public var rowWindow: Int? = 60
        /// How many recent updates a page session keeps to replay after a reconnect.
        public var replayedUpdates = 64
        /// Pages may open their socket only from these origins; `nil` allows the server's
        /// own origin (`http://HOST:PORT` as the request names it) only.
        public var allowedOrigins: Set<String>?

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: Int = 8080, cookieSecret: [UInt8]? = nil) {
            self.host = host
            self.port = port
            self.cookieSecret = cookieSecret ?? (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        }
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
