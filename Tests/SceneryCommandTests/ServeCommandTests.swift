import Foundation
import Testing

@testable import SceneryTool

/// `scenery serve` as several servers of one site run it: the key sign-in cookies are
/// signed with is shared through a file, and never silently made up for a server other
/// machines can reach.
@Suite(.timeLimit(.minutes(5))) struct ServeCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    func write(_ text: String, to name: String) throws -> String {
        let url = cli.directory.appending(path: name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func serveRunsTheServerExecutableBesideTheTool() async throws {
        defer { cli.cleanUp() }
        let help = try await cli.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: scenery serve"), "\(help.output)")
        #expect(help.output.contains("--secret-file"), "the real serve command's help: \(help.output)")
        let wrong = try await cli.run(["serve", "--port", "99999"])
        #expect(wrong.status == 64)
        #expect(wrong.error.contains("'--port 99999' is not a port"), "\(wrong.error)")
        let proxy = try await cli.run(["serve", "--port", "0", "--trusted-proxy", "nginx.internal"])
        #expect(proxy.status == 64)
        #expect(proxy.error.contains("'--trusted-proxy nginx.internal' must be an IP address"), "\(proxy.error)")
    }

    @Test func aToolBuiltWithoutTheServerSaysHowToBuildIt() async throws {
        defer { cli.cleanUp() }
        let copy = cli.directory.appending(path: "scenery")
        // A hard link, not a copy: a copy is written through a descriptor that a process
        // another test starts at that moment inherits until it execs, and running the copy
        // then fails with "Text file busy" (seen once under the whole suite). A link opens
        // nothing for writing; a copy only where the two folders are on different devices.
        do {
            try FileManager.default.linkItem(at: CommandRunner.executable, to: copy)
        } catch {
            try FileManager.default.copyItem(at: CommandRunner.executable, to: copy)
        }
        let result = try await cli.run(["serve", "--port", "0"], executable: copy)
        #expect(result.status == 64)
        #expect(
            result.error.contains(
                "'serve' is the separate executable 'scenery-serve', so that running scenes does not compile a web server, and it is not built: run 'swift build --product scenery-serve' once"
            ), "\(result.error)")
        let listed = try await cli.run(["--help"], executable: copy)
        #expect(listed.output.contains("serve"), "serve is still listed: \(listed.output)")
    }

    @Test func serveSaysWhichPagesToOpen() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0", "--database", cli.database])
        defer { server.stop() }
        #expect(
            server.opens
                == "Open \(server.address)/ for the home page, \(server.address)/scenes for every scene, \(server.address)/sign-in to sign in as one of the data's accounts"
        )
    }

    @Test func metricsAreServedWithTheFlagAndNotWithout() async throws {
        defer { cli.cleanUp() }
        let help = try await cli.run(["serve", "--help"])
        #expect(help.output.contains("--metrics"), "\(help.output)")
        let server = try await Server(cli, ["serve", "--port", "0", "--database", cli.database, "--metrics"])
        #expect(server.metrics == "Metrics for a scraper on this machine: \(server.address)/metrics")
        _ = try await server.request("GET /scenes/user-profile?user=1")
        let metrics = try await server.request("GET /metrics")
        await server.stopped()
        #expect(metrics.head.hasPrefix("HTTP/1.1 200"), "\(metrics.head)")
        #expect(metrics.head.lowercased().contains("content-type: text/plain; version=0.0.4"), "\(metrics.head)")
        #expect(metrics.body.contains("# TYPE scenery_pages_opened_total counter"), "\(metrics.body)")
        #expect(metrics.body.contains(#"scenery_pages_opened_total{scene="user-profile"} 1"#), "\(metrics.body)")
        // Buckets from 100 µs (Prometheus's own start at 5 ms), and no event has run yet.
        #expect(metrics.body.contains(#"scenery_event_duration_seconds_bucket{scene="user-profile",le="0.0001"} 0"#), "\(metrics.body)")
        #expect(metrics.body.contains("# TYPE scenery_fanouts_total counter"), "the store's fan-outs are connected: \(metrics.body)")

        let plain = try await Server(cli, ["serve", "--port", "0", "--database", cli.database])
        let none = try await plain.request("GET /metrics")
        await plain.stopped()
        #expect(none.head.hasPrefix("HTTP/1.1 404"), "\(none.head)")
    }

    @Test func aServerOtherMachinesCanReachNeedsASharedKey() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(result.status == 64)
        #expect(result.error.contains("--host '0.0.0.0' serves other machines"), "\(result.error)")
        #expect(result.error.contains("--secret-file PATH (or set SCENERY_SECRET_FILE)"))
    }

    @Test func aMissingOrShortKeyIsAClearError() async throws {
        defer { cli.cleanUp() }
        let missing = try await cli.run(["serve", "--port", "0", "--secret-file", "/nonexistent/key"])
        #expect(missing.status == 64)
        #expect(missing.error.contains("Cannot read the signing key '/nonexistent/key' (--secret-file)"), "\(missing.error)")
        let short = try write("0123456789\n", to: "short.key")
        let tooShort = try await cli.run(["serve", "--port", "0"], environment: ["SCENERY_SECRET_FILE": short])
        #expect(tooShort.status == 64)
        #expect(tooShort.error.contains("(SCENERY_SECRET_FILE) is 10 bytes; use at least 32 random bytes"), "\(tooShort.error)")
    }

    @Test func serversSharingAKeyShareSignIns() async throws {
        defer { cli.cleanUp() }
        let key = try write("c2NlbmVyeS10ZXN0LWtleS10aGF0LWlzLWxvbmctZW5vdWdoLWZvci1obWFj\n", to: "site.key")
        let first = try await Server(cli, ["serve", "--port", "0", "--secret-file", key])
        let second = try await Server(cli, ["serve", "--port", "0", "--secret-file", key])
        let unshared = try await Server(cli, ["serve", "--port", "0"])
        defer { for server in [first, second, unshared] { server.stop() } }
        let cookie = try await first.signIn(user: "2")
        #expect(try await first.page(cookie: cookie).contains("Signed in as </span><strong>Bob Chen</strong>"))
        #expect(try await second.page(cookie: cookie).contains("Signed in as </span><strong>Bob Chen</strong>"), "the same key: signed in there too")
        #expect(try await !unshared.page(cookie: cookie).contains("Signed in as"), "a key of its own: signed out there")
    }

    /// The people a server lists and lets sign in follow the data: after another process
    /// imports a data set without Bob, he is neither listed nor let in, without a restart.
    @Test func aPersonRemovedByAnImportCanNoLongerSignIn() async throws {
        defer { cli.cleanUp() }
        #expect(try await cli.run(["data", "reset"]).status == 0)
        let server = try await Server(cli, ["serve", "--port", "0"])
        defer { server.stop() }
        #expect(try await server.request("GET /sign-in").body.contains("Bob Chen"))
        let bobs = try await server.signIn(user: "2")
        #expect(try await server.page(cookie: bobs).contains("Signed in as </span><strong>Bob Chen</strong>"))
        let solo = cli.directory.appending(path: "solo.json")
        try Data(#"{ "users": [ { "id": "1", "name": "Alice Solo", "summary": "" } ] }"#.utf8).write(to: solo)
        let imported = try await cli.run(["data", "import", solo.path])
        #expect(imported.status == 0, "\(imported.error)")
        // The server hears the import through the change feed: wait for the page to show it.
        var signInPage = ""
        for _ in 0..<300 {
            signInPage = try await server.request("GET /sign-in").body
            if !signInPage.contains("Bob Chen") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(!signInPage.contains("Bob Chen"), "still listed after the import")
        #expect(signInPage.contains("Alice Solo"), "\(signInPage)")
        #expect(try await !server.request("GET /").body.contains("Bob Chen"))
        let cookie = try await server.signIn(user: "2")
        #expect(cookie.isEmpty, "no cookie for a removed person: \(cookie)")
        #expect(try await !server.page(cookie: bobs).contains("Signed in as"), "his cookie from before signs nobody in")
        let alice = try await server.signIn(user: "1")
        #expect(try await server.page(cookie: alice).contains("Signed in as </span><strong>Alice Solo</strong>"))
    }
}

/// A `scenery serve` process on a free port, and the two requests the tests make.
struct Server {
    let process: Process
    let address: String

    init(_ cli: CommandRunner, _ arguments: [String]) async throws {
        let (process, _, output) = try cli.startInteractive(arguments)
        var lines = output.makeAsyncIterator()
        guard let first = await lines.next(), first.hasPrefix("Listening on ") else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "scenery serve did not start"])
        }
        self.process = process
        address = String(first.dropFirst("Listening on ".count))
        opens = await lines.next() ?? ""
        metrics = arguments.contains("--metrics") ? await lines.next() ?? "" : nil
    }

    /// With `--metrics`, the line that says where they are.
    let metrics: String?

    /// The line after "Listening on": the pages to open.
    let opens: String

    /// Stops the server without waiting for it to exit (for a `defer`). Waiting here, on a
    /// thread of Swift's pool, held that thread for the server's whole shutdown: with two
    /// threads, two stops at once stalled every other test of the run for seconds.
    func stop() {
        process.terminate()
    }

    /// Stops the server and returns once it has exited, holding no thread meanwhile.
    func stopped() async {
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.finish() }
        process.terminate()
        if process.isRunning { for await _ in ended.stream {} }
    }

    /// Signs in as `user` the way the sign-in form does; returns the cookie it set.
    func signIn(user: String) async throws -> String {
        let body = "user=\(user)&next=/"
        let response = try await request(
            "POST /sign-in",
            headers: ["Origin: \(address)", "Content-Type: application/x-www-form-urlencoded", "Content-Length: \(body.utf8.count)"],
            body: body)
        let header = response.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
        return String(header.dropFirst("set-cookie:".count).drop { $0 == " " }.prefix { $0 != ";" })
    }

    /// The index page as the holder of `cookie` sees it.
    func page(cookie: String) async throws -> String {
        try await request("GET /", headers: ["Cookie: \(cookie)"]).body
    }

    /// One HTTP/1.1 request on a connection of its own (`Connection: close`), read to its
    /// end; redirects are not followed, cookies not kept. Plain sockets on a thread of
    /// their own, not URLSession: these tests are of the server, and FoundationNetworking's
    /// sockets have crashed libdispatch on Linux when a server they held went away.
    func request(_ line: String, headers: [String] = [], body: String = "") async throws -> (head: String, body: String) {
        guard let url = URL(string: address), let host = url.host, let port = url.port else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "not an address: \(address)"])
        }
        let text = ([line + " HTTP/1.1", "Host: \(host):\(port)", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
        let received: [UInt8] = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let socket = try PlainSocket(host: host, port: port, timeout: .seconds(10))
                        defer { socket.close() }
                        socket.write(Array(text.utf8))
                        var bytes: [UInt8] = []
                        while case let chunk = socket.read(), !chunk.isEmpty { bytes += chunk }
                        return bytes
                    })
            }
        }
        let response = String(decoding: received, as: UTF8.self)
        guard let end = response.range(of: "\r\n\r\n") else { return (response, "") }
        let head = String(response[..<end.lowerBound])
        var body = Substring(response[end.upperBound...])
        guard head.lowercased().contains("transfer-encoding: chunked") else { return (head, String(body)) }
        // Chunked: a size in hex on a line, that many bytes, a line break; a size of 0 ends it.
        var decoded = ""
        while let line = body.range(of: "\r\n"), let size = Int(body[..<line.lowerBound], radix: 16), size > 0 {
            let chunk = body.utf8[line.upperBound...].prefix(size)
            decoded += String(decoding: chunk, as: UTF8.self)
            body = Substring(body.utf8[chunk.endIndex...]).dropFirst(2)
        }
        return (head, decoded)
    }
}
