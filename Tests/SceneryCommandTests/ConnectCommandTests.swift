import Foundation
import Testing

/// `scenery connect`: the second client of the page socket, in a terminal, over view-tree
/// patches. Against a real `scenery serve`: a tap, a confirmation answered, and another
/// viewer's change seen live. Every step waits for the line it needs, never for a time.
/// The limit only stops a hang: a server and two debug `scenery connect` processes beside
/// the whole suite on two cores once took 68 s in CI.
@Suite(.timeLimit(.minutes(3))) struct ConnectCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    /// A running `scenery connect` and the lines it prints.
    struct Terminal {
        let process: Process
        let input: FileHandle
        var lines: AsyncStream<String>.Iterator

        init(_ cli: CommandRunner, _ arguments: [String]) throws {
            let started = try cli.startInteractive(["connect"] + arguments + ["--width", "70", "--actions", "ids"], mergingErrors: true)
            process = started.process
            input = started.input
            lines = started.outputLines.makeAsyncIterator()
        }

        /// Reads lines until one satisfies `condition`; returns it (nil if the output ended).
        mutating func line(where condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
            var last: [String] = []
            while let line = await lines.next() {
                if condition(line) { return line }
                last = Array((last + [line]).suffix(12))
            }
            // The client ended (its errors are in the same stream): say what it printed last.
            let code = process.isRunning ? "still running" : "exited with \(process.terminationStatus)"
            Issue.record(
                "The client's output ended (\(code)) before the line looked for. Its last lines:\n\(last.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
            return nil
        }

        /// The number the action list gives the control with this id.
        mutating func number(of control: String) async -> String? {
            await line { $0.hasSuffix("  " + control) }.flatMap { $0.split(separator: " ").first.map(String.init) }
        }

        /// Types a line. A client that already ended is not written to: the pipe is broken,
        /// and the line it looked for is reported missing instead (`FileHandle.write(_:)`
        /// would trap and end every test of the run).
        func type(_ text: String) {
            guard process.isRunning else { return }
            try? input.write(contentsOf: Data((text + "\n").utf8))
        }

        /// Types `quit` and expects the client to end with status 0; when it does not, the
        /// issue carries the last lines it printed (its errors are in the same stream).
        mutating func quit(sourceLocation: SourceLocation = #_sourceLocation) async {
            type("quit")
            var last: [String] = []
            while let line = await lines.next() { last = Array((last + [line]).suffix(12)) }
            process.waitUntilExit()
            #expect(
                process.terminationStatus == 0, "The client exited with \(process.terminationStatus). Its last lines:\n\(last.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func aTerminalClientTapsAnswersAndSeesAnotherViewersChange() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0", "--impression-seconds", "0"])
        defer { server.stop() }
        var bob = try Terminal(cli, [server.address, "user-profile", "--viewer", "2", "--arg", "user=1"])
        #expect(await bob.line { $0.hasPrefix("══ user-profile (default) on \(server.address)") } != nil)
        let unfollow = try #require(await bob.number(of: "info/follow"))
        let like = try #require(await bob.number(of: "blogs/blog.26.like"))

        bob.type(unfollow)
        #expect(await bob.line { $0.hasPrefix("? Unfollow Alice Liddell?") } != nil)
        bob.type("n")
        bob.type(like)
        // The liked row comes back as patches, printed on its own.
        #expect(await bob.line { $0 == "Likes: 1  [ Unlike ]" } != nil)

        var carol = try Terminal(cli, [server.address, "user-profile", "--viewer", "7", "--arg", "user=1"])
        let carolsLike = try #require(await carol.number(of: "blogs/blog.26.like"))
        carol.type(carolsLike)
        #expect(await carol.line { $0 == "Likes: 2  [ Unlike ]" } != nil)
        // Bob's terminal shows Carol's like: his button stays "Unlike", the count is hers too.
        #expect(await bob.line { $0 == "Likes: 2  [ Unlike ]" } != nil)

        await bob.quit()
        await carol.quit()
        let store = try cli.store()
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == true, "declined: Bob still follows Alice")
        // A printed module is seen: both terminals are exposed to friends-layout (the server
        // writes its records as they come; wait for them, not for a time).
        var exposed = 0
        for _ in 0..<200 where exposed < 2 {
            exposed = try store.site.experimentTallies().first { $0.experiment == "friends-layout" }?.exposed.values.reduce(0, +) ?? 0
            if exposed < 2 { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(exposed == 2)
        #expect(try await store.blog(26, viewer: "2").likes == 2)
    }

    /// A script pipes an action and `quit`, as the help's example does: the client leaves
    /// once the server answered it (it left at once, and the like never happened); a question
    /// asked when nobody is left to answer is answered no.
    @Test func aPipedActionIsDoneBeforeTheClientQuits() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0"])
        defer { server.stop() }
        let arguments = ["connect", server.address, "user-profile", "--viewer", "2", "--arg", "user=1"]
        let liked = try await cli.run(arguments + ["--actions", "ids"], input: "blogs/blog.26.like\nquit\n")
        #expect(liked.status == 0, "\(liked.error)")
        #expect(try await cli.store().blog(26, viewer: "2").likes == 1, "the like was done: \(liked.output.suffix(400))")
        // Input that ends (no quit) after an action that asks: answered no, then the client leaves.
        let asked = try await cli.run(arguments + ["--actions", "ids"], input: "info/follow\n")
        #expect(asked.status == 0, "\(asked.error)")
        #expect(asked.output.contains("? Unfollow Alice Liddell?") && asked.output.contains("· leaving: answered no"), "\(asked.output.suffix(400))")
        #expect(try await cli.store().profile(of: "1", viewer: "2").viewerFollows == true, "declined: Bob still follows Alice")
    }

    @Test func aTerminalClientReadsTheSceneInTheLanguageItAsksFor() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0"])
        defer { server.stop() }
        var reader = try Terminal(cli, [server.address, "user-profile", "--viewer", "2", "--arg", "user=4", "--locale", "zh-Hans"])
        #expect(await reader.line { $0.contains("作品: 2") } != nil)
        await reader.quit()
    }

    @Test func aTerminalClientFillsAFormSubmitsItAndIsToldWhatTheFieldRefuses() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0", "--impression-seconds", "0"])
        defer { server.stop() }
        var alice = try Terminal(cli, [server.address, "user-profile", "--viewer", "1", "--arg", "user=1"])
        let drafts = try #require(await alice.number(of: "sections#drafts"))
        alice.type(drafts)
        let compose = try #require(await alice.number(of: "drafts/compose"))
        alice.type("type drafts/compose.title Tea at four")
        #expect(await alice.line { $0 == "· Title: 'Tea at four'" } != nil)
        alice.type("type drafts/compose.body Written in a terminal.")
        alice.type(compose)
        #expect(await alice.line { $0.contains("• Tea at four") } != nil, "the new draft is listed, as a patch")

        // The field's own rule, checked before anything is sent.
        alice.type("show")
        let edit = try #require(await alice.number(of: "info/summary.edit"))
        alice.type(edit)
        let save = try #require(await alice.number(of: "info/summary.editor"))
        alice.type("type info/summary.editor.text " + String(repeating: "x", count: 501))
        #expect(await alice.line { $0.contains("⚠ Summary is at most 500 characters; it has 501.") } != nil)
        alice.type(save)
        #expect(await alice.line { $0.hasPrefix("· not sent: summary: Summary is at most 500 characters") } != nil)
        // The refused text is still typed and unsent: leaving asks once.
        alice.type("quit")
        #expect(await alice.line { $0.contains("What you typed into Summary is not sent.") } != nil)
        await alice.quit()
        let store = try cli.store()
        let stored = try await store.drafts(of: "1", viewer: "1", page: .init(limit: 10)).items.first
        #expect(stored?.title == "Tea at four" && stored?.body == "Written in a terminal.")
        #expect(try await store.profile(of: "1", viewer: nil).user.summary == "Writes about rabbits, clocks and tea.", "nothing was sent")
    }

    @Test func aWrongAddressOrSceneIsAClearError() async throws {
        defer { cli.cleanUp() }
        let notAURL = try await cli.run(["connect", "127.0.0.1:8080", "user-profile"])
        #expect(notAURL.status == 64)
        #expect(notAURL.error.contains("is not a server address"))
        let nobody = try await cli.run(["connect", "http://127.0.0.1:9", "user-profile"])
        #expect(nobody.status == 2)
        #expect(nobody.error.contains("Cannot reach 127.0.0.1:9"), "\(nobody.error)")
        let server = try await Server(cli, ["serve", "--port", "0"])
        defer { server.stop() }
        let unknown = try await cli.run(["connect", server.address, "user-profil", "--arg", "user=1"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("did you mean 'user-profile'?"), "\(unknown.error)")
    }

    /// A server on `port` signing with the test's site key (written once to a file): a server
    /// started after it on its port resumes its pages, as the servers of one site do.
    func server(signingWithTheSiteKeyOn port: String) async throws -> Server {
        let secret = cli.directory.appending(path: "secret")
        if !FileManager.default.fileExists(atPath: secret.path) { try Data(repeating: 7, count: 48).write(to: secret) }
        return try await Server(cli, ["serve", "--port", port, "--secret-file", secret.path, "--impression-seconds", "0"])
    }

    @Test func aLostConnectionResumesWithItsTokenOnARestartedServerAndAnActionTypedMeanwhileIsAppliedOnce() async throws {
        defer { cli.cleanUp() }
        let first = try await server(signingWithTheSiteKeyOn: "0")
        var bob = try Terminal(cli, [first.address, "user-profile", "--viewer", "2", "--arg", "user=1"])
        #expect(await bob.number(of: "blogs/blog.26.like") != nil, "the scene is printed")
        await first.stopped()
        #expect(await bob.line { $0 == "· the connection was lost; connecting again…" } != nil)
        // Typed while no server runs: kept under its key until one answers.
        bob.type("blogs/blog.26.like")
        let second = try await server(signingWithTheSiteKeyOn: try #require(first.address.split(separator: ":").last.map(String.init)))
        defer { second.stop() }
        #expect(await bob.line { $0.hasPrefix("· connected again") } != nil)
        #expect(await bob.line { $0 == "Likes: 1  [ Unlike ]" } != nil)
        await bob.quit()
        let store = try cli.store()
        #expect(try await store.blog(26, viewer: "2").likes == 1, "applied once, on the second server")
    }

    @Test func aQuestionAnsweredWhileTheServerIsAwayIsAnsweredWhenTheRestartedServerAsksAgain() async throws {
        defer { cli.cleanUp() }
        let first = try await server(signingWithTheSiteKeyOn: "0")
        var bob = try Terminal(cli, [first.address, "user-profile", "--viewer", "2", "--arg", "user=1"])
        let unfollow = try #require(await bob.number(of: "info/follow"))
        bob.type(unfollow)
        #expect(await bob.line { $0.hasPrefix("? Unfollow Alice Liddell?") } != nil)
        await first.stopped()
        #expect(await bob.line { $0 == "· the connection was lost; connecting again…" } != nil)
        bob.type("y")  // answered while no server runs: kept for the unfollow it holds up
        let second = try await server(signingWithTheSiteKeyOn: try #require(first.address.split(separator: ":").last.map(String.init)))
        defer { second.stop() }
        #expect(await bob.line { $0 == "· asked again after reconnecting: answered yes, as before" } != nil)
        #expect(await bob.line { $0.contains("[ Follow ]") } != nil, "unfollowed on the restarted server")
        await bob.quit()
        #expect(try await cli.store().profile(of: "1", viewer: "2").viewerFollows == false)
    }

    @Test func traceListsThePagesRecentEventsFromADevelopmentServer() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0", "--inspect", "--impression-seconds", "0"])
        defer { server.stop() }
        var bob = try Terminal(cli, [server.address, "user-profile", "--viewer", "2", "--arg", "user=1"])
        let like = try #require(await bob.number(of: "blogs/blog.26.like"))
        bob.type(like)
        #expect(await bob.line { $0 == "Likes: 1  [ Unlike ]" } != nil)
        bob.type("trace")
        #expect(await bob.line { $0.hasPrefix("· blog.like from blogs/blog.26.like: module blogs: ") } != nil, "the like and its route")
        await bob.quit()
    }

    @Test func helpListsTheCommandsAndBackReturnsToTheSceneBefore() async throws {
        defer { cli.cleanUp() }
        let server = try await Server(cli, ["serve", "--port", "0"])
        defer { server.stop() }
        var bob = try Terminal(cli, [server.address, "user-profile", "--viewer", "2", "--arg", "user=1"])
        #expect(await bob.line { $0.hasPrefix("══ user-profile (default)") } != nil)
        bob.type("help")
        #expect(await bob.line { $0.hasPrefix("  back     return to the previous scene") } != nil)
        bob.type("friends/user.7")
        #expect(await bob.line { $0 == "→ /scenes/user-profile?user=7" } != nil)
        #expect(await bob.line { $0.contains("Carol Mint") } != nil)
        bob.type("back")
        #expect(await bob.line { $0.hasPrefix("══ user-profile (default)") } != nil)
        #expect(await bob.line { $0.contains("Alice Liddell") } != nil)
        bob.type("back")
        await bob.quit()
    }
}
