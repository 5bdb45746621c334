import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import SceneryServer
import Synchronization
import WSClient

/// A client of a server under test (`SceneryServer.test(_:_:)`): opens pages as people
/// would, each a ``TestPage`` that speaks the page protocol with the server.
///
/// ```swift
/// let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1")
/// let visitor = try await client.open("user-profile", arguments: ["user": "1"])  // signed out
/// ```
public final class PageTestClient: Sendable {
    let server: SceneryServer
    let http: any HTTPTestClient
    /// How this client reaches the server.
    public let transport: PageTestTransport
    private let pages = Locked<[TestPage]>([])

    init(server: SceneryServer, http: any HTTPTestClient, transport: PageTestTransport) {
        self.server = server
        self.http = http
        self.transport = transport
    }

    /// The origin the server takes a request from: its own as the test client names it
    /// (the test client sends requests to `localhost`, and a WebSocket to
    /// `localhost:PORT`), or the first it allows when it names them
    /// (`Configuration.allowedOrigins`).
    private func origin(forSocket: Bool) -> String {
        let own = "http://localhost" + (forSocket ? http.port.map { ":\($0)" } ?? "" : "")
        guard let allowed = server.configuration.allowedOrigins, !allowed.contains(own), let first = allowed.sorted().first else { return own }
        return first
    }

    /// Opens a scene as `viewer` (signed out when `nil`) with its arguments, and the page's
    /// socket: the page holds the scene as the server sent it, and what the server sends next.
    ///
    /// `format` is how the page reads the scene: as a view tree, the way an app or the
    /// terminal client does (the default; the page's ``TestPage/State/tree`` follows every
    /// update), or as the HTML page a browser gets (``TestPage/State/html`` and the DOM
    /// operations of each update, ``TestPage/State/operations``).
    ///
    /// `kinds` are the node kinds a view-tree page says it shows (every kind, by default):
    /// the server sends it a placeholder in place of any other, as it would an older app.
    ///
    /// ```swift
    /// let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7", format: .html)
    /// let watch = try await client.open("user-profile", arguments: ["user": "1"], as: "1", kinds: noForms)
    /// ```
    ///
    /// - Throws: ``PageTestError`` when the viewer cannot sign in, the server refuses the
    ///   scene (its words), or refuses the socket.
    public func open(
        _ scene: String, arguments: [String: String] = [:], as viewer: String? = nil, format: TestPage.Format = .viewTree,
        kinds: PageProtocol.NodeKinds = .every
    ) async throws -> TestPage {
        var headers = HTTPFields()
        headers[.origin] = origin(forSocket: false)
        headers[.accept] = format == .viewTree ? "application/json" : "text/html"
        if let viewer { headers[.cookie] = try await signIn(viewer) }
        var query = URLComponents()
        query.queryItems = arguments.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        if format == .viewTree { query.queryItems?.append(URLQueryItem(name: "kinds", value: kinds.query)) }
        let name = scene.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? scene
        let path = (format == .viewTree ? "/api/scenes/" : "/scenes/") + name + (query.percentEncodedQuery.map { "?\($0)" } ?? "")
        let response = try await http.execute(uri: path, method: .get, headers: headers)
        let body = String(buffer: response.body)
        let opened = response.status == .ok ? Self.page(in: body, format: format) : nil
        guard let page = opened else {
            let fields = try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            throw PageTestError(
                "The server did not open \(scene) for \(viewer.map { "viewer \($0)" } ?? "a signed-out visitor") (status \(response.status.code)): \(fields?["message"]?.stringValue ?? body.prefix(300).description)"
            )
        }
        let uri = "/live?session=\(page.session)&since=\(page.state.sequence)&protocol=\(PageProtocol.version)&kinds=\(kinds.query)"
        headers[.accept] = nil
        headers[.origin] = origin(forSocket: true)
        switch transport {
        case .inProcess:
            guard let connection = await server.connectInProcess(uri: uri, headers: headers, deliver: { page.deliver($0) }) else {
                throw PageTestError("The server refused the page's socket: \(page.state.close?.reason ?? "no reason").")
            }
            page.connect(InProcessTransport(connection: connection))
        case .live:
            page.connect(try LiveTransport(http: http, uri: uri, headers: headers, page: page))
        }
        pages.withLock { $0.append(page) }
        // The page is open once its socket is attached, which the server answers with the
        // page's resume token: a change made after `open` returns reaches the page.
        try await page.waitUntil("the page's socket to open") { state in
            state.messages.contains { if case .resume = $0 { true } else { false } }
        }
        return page
    }

    /// The page a scene's response opens, or `nil` when it is not one: a view-tree document
    /// with its session, or an HTML page whose `<main>` names its session and sequence.
    private static func page(in body: String, format: TestPage.Format) -> TestPage? {
        switch format {
        case .viewTree:
            let fields = try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            guard let session = fields?["session"]?.stringValue,
                case .tree(let sequence, let document)? = try? PageProtocol.ServerMessage(jsonText: body)
            else { return nil }
            return TestPage(session: session, tree: document.root, sequence: sequence)
        case .html:
            guard let session = body.attribute("data-session"), let sequence = body.attribute("data-sequence").flatMap({ Int($0) }) else { return nil }
            return TestPage(session: session, html: body, sequence: sequence)
        }
    }

    /// Signs in with the sign-in form, as a person does; the cookie header to send after.
    private func signIn(_ viewer: String) async throws -> String {
        var headers = HTTPFields()
        headers[.origin] = origin(forSocket: false)
        headers[.contentType] = "application/x-www-form-urlencoded"
        let body = "user=\(viewer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? viewer)&next=/"
        let response = try await http.execute(uri: "/sign-in", method: .post, headers: headers, body: ByteBuffer(string: body))
        let cookies = response.headers[values: .setCookie].map { $0.prefix { $0 != ";" } }
        guard response.status == .seeOther, !cookies.isEmpty else {
            throw PageTestError("Signing in as \(viewer) failed (status \(response.status.code)); sign in as one of the server's users.")
        }
        return cookies.joined(separator: "; ")
    }

    /// Closes every page this client opened.
    func closeAll() async {
        for page in pages.withLock({ $0 }) { await page.close() }
    }
}

extension String {
    /// The value of the first attribute with this name in HTML text (ids and numbers: no
    /// entities to decode), or `nil`.
    fileprivate func attribute(_ name: String) -> String? {
        guard let start = range(of: " \(name)=\"")?.upperBound, let end = self[start...].firstIndex(of: "\"") else { return nil }
        return String(self[start..<end])
    }
}

/// What went wrong in a test of a server, in words that say what to check.
public struct PageTestError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A test page's socket: the protocol's ``PageTransport`` (messages written in order), and
/// what a test waits for.
protocol TestPageTransport: PageTransport {
    /// Returns once the server took every message written before (in process), or once
    /// they are on their way (over a socket).
    func flush() async
    /// Closes the socket.
    func close() async
}

/// A page socket in process: each message is handed to the session after the one before.
private final class InProcessTransport: TestPageTransport {
    private let connection: InProcessPageConnection
    /// The hand-over of the last message written (each waits for the one before).
    private let last = Locked<Task<Void, Never>?>(nil)

    init(connection: InProcessPageConnection) {
        self.connection = connection
    }

    func write(_ text: String) {
        let connection = connection
        last.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                await connection.send(text)
            }
        }
    }

    func flush() async { await last.withLock { $0 }?.value }

    func close() async {
        await flush()
        await connection.close()
    }
}

/// A page socket over a real WebSocket to the live server.
private final class LiveTransport: TestPageTransport {
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    init(http: any HTTPTestClient, uri: String, headers: HTTPFields, page: TestPage) throws {
        let (stream, outgoing) = AsyncStream.makeStream(of: String.self)
        self.outgoing = outgoing
        task = Task {
            do {
                let close = try await http.ws(uri, configuration: .init(maxFrameSize: 16 << 20, additionalHeaders: headers)) { inbound, outbound, _ in
                    let reader = Task {
                        for try await message in inbound.messages(maxSize: 16 << 20) {
                            if case .text(let text) = message { page.deliver(.text(text)) }
                        }
                        outgoing.finish()  // the server closed: stop writing
                    }
                    for await text in stream { try await outbound.write(.text(text)) }
                    reader.cancel()
                    try? await outbound.close(.normalClosure, reason: nil)
                }
                page.deliver(.closed(code: close.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) } ?? 1000, reason: close?.reason ?? ""))
            } catch {
                page.deliver(.closed(code: 1006, reason: "\(error)"))
            }
        }
    }

    func write(_ text: String) { outgoing.yield(text) }

    func flush() async {}

    func close() async {
        outgoing.finish()
        await task.value
    }
}
