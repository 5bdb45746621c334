import Foundation
import ProfileDemoDomain
import Scenery
import Testing

@Suite struct InteractCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    /// The handle (number) of the action with an id in the last listing before `marker`.
    func handle(of id: String, in output: String) -> String? {
        output.split(separator: "\n").last { $0.hasSuffix("  " + id) }?.split(separator: " ").first.map(String.init)
    }

    @Test func someoneLookingForAServerOptionIsSentToConnect() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["interact", "user-profile", "--arg", "user=1", "--server", "http://127.0.0.1:8080"])
        #expect(result.status != 0)
        #expect(result.error.contains("run: scenery connect http://127.0.0.1:8080 SCENE [--viewer ID]"), "\(result.error)")
        let help = try await cli.run(["interact", "--help"])
        // The help is wrapped to the terminal's width; read it as one line of words.
        let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("scenery connect http://HOST:PORT SCENE --viewer ID --arg name=value."), "\(help.output)")
        #expect(!help.output.contains("--server"), "not an option to offer")
    }

    @Test(.timeLimit(.minutes(5))) func aChangeMadeByAnotherProcessIsPrintedWhileItWaitsForInput() async throws {
        defer { cli.cleanUp() }
        let likes = try await cli.store().blog(26, viewer: nil).likes
        let (process, input, output) = try cli.startInteractive([
            "interact", "user-profile", "--viewer", "7", "--arg", "user=1", "--width", "100", "--actions", "ids",
        ])
        var lines = output.makeAsyncIterator()
        var printed: [String] = []
        /// Reads output until a line holds `text` (or the output ends).
        func read(until text: String) async -> Bool {
            while let line = await lines.next() {
                printed.append(line)
                if line.contains(text) { return true }
            }
            return false
        }
        #expect(await read(until: "Actions:"), "the scene was printed: \(printed)")
        #expect(await read(until: "blogs/blog.26.like"), "and its actions")
        // Bob likes blog 26 in another process (another connection to the database file).
        _ = try await cli.store().setLiked(true, blog: 26, by: "2")
        #expect(await read(until: "· changed elsewhere"), "\(printed.suffix(5))")
        #expect(await read(until: "Likes: \(likes + 1)"), "\(printed.suffix(5))")
        try input.write(contentsOf: Data("quit\n".utf8))
        while await lines.next() != nil {}
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aScriptedSessionLikesUnfollowsAndNavigates() async throws {
        defer { cli.cleanUp() }
        // Handles come from the listing: 4 = Unfollow, 9 = Like on blog 26, 8 = blog 26 itself.
        let script = ["blogs/blog.26.like", "info/follow", "n", "info/follow", "y", "blogs/blog.26", "back", "quit"].joined(separator: "\n") + "\n"
        let result = try await cli.run(["interact", "user-profile", "--viewer", "2", "--arg", "user=1", "--width", "72", "--actions", "ids"], input: script)
        #expect(result.status == 0, "\(result.error)")
        #expect(handle(of: "info/follow", in: result.output) != nil)
        // The like: handled by the module, persisted in the database file.
        #expect(result.output.contains("· module blogs: handled"))
        let store = try cli.store()
        let liked = try await store.blog(26, viewer: "2")
        #expect(liked.likedByViewer)
        // Unfollow: declined first, then accepted.
        #expect(result.output.contains("Unfollow Alice Liddell? [y/N] → Cancel"))
        #expect(result.output.contains("· module info: passed → scene: asked 'Unfollow Alice Liddell?', declined"))
        #expect(result.output.contains("Unfollow Alice Liddell? [y/N] → Unfollow"))
        #expect(
            result.output.contains(
                "· module info: passed → scene: asked 'Unfollow Alice Liddell?', confirmed → scene: let through → module info: performed → host: received"))
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == false)
        // Navigation to the blog, and back.
        #expect(result.output.contains("scene: navigated to blog-detail"))
        #expect(result.output.contains("══ blog-detail (default) ══"))
        #expect(result.output.contains("┌─ post · BlogPostModule"))
        let screens = result.output.components(separatedBy: "══ ").map { $0.prefix(while: { $0 != " " }) }
        #expect(screens.suffix(2) == ["blog-detail", "user-profile"], "back returns to the profile")
    }

    @Test func afterAnActionOnlyWhatChangedIsPrinted() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "2", "--arg", "user=1", "--actions", "ids"], input: "blogs/blog.26.like\nshow\nquit\n")
        #expect(result.status == 0, "\(result.error)")
        let afterLike = result.output.components(separatedBy: "· module blogs: handled")
        try #require(afterLike.count == 2)
        let changes = afterLike[1].components(separatedBy: "> ")[0]
        #expect(changes.contains("┌─ blogs · BlogModule"), "the module that changed")
        #expect(!changes.contains("┌─ info · UserInfoModule"), "not the rest of the scene")
        #expect(changes.contains("blogs/blog.26.like"), "with its actions, numbered as in the whole scene")
        #expect(result.output.components(separatedBy: "┌─ info · UserInfoModule").count == 3, "the first listing and 'show'")
        #expect(!result.output.contains("\u{1B}["), "no colour on a pipe")
    }

    @Test func inspectNamesTheModuleItsSceneFileLineAndTheVariant() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "1", "--arg", "user=1", "--actions", "ids"],
            input: "inspect drafts/compose\ninspect nowhere/at.all\nquit\n")
        #expect(result.status == 0, "\(result.error)")
        // Where the scene file places the drafts module (the owner variant's `add`).
        let scene = try String(contentsOf: CommandRunner.packageRoot.appending(path: "Scenes/user-profile.json"), encoding: .utf8)
        let draftsLine = try #require(scene.components(separatedBy: "\n").firstIndex { $0.contains(#""id": "drafts""#) }) + 1
        let inspected = result.output.components(separatedBy: "drafts (DraftModule), ready\n")
        try #require(inspected.count == 2, "\(result.output)")
        #expect(inspected[1].hasPrefix("placed at "), "\(inspected[1])")
        #expect(
            inspected[1].contains("Scenes/user-profile.json:\(draftsLine):9\nscene user-profile, variant 'owner' (when viewer == user)\n"), "\(inspected[1])")
        #expect(inspected[1].contains("state: composing=false editing=null following="), "the module's state: \(inspected[1])")
        #expect(inspected[1].contains("viewer '1', arguments user=1"), "\(inspected[1])")
        #expect(result.output.contains("No module of this scene shows 'nowhere/at.all'; type ids for the controls' ids."), "\(result.output)")
        let json = try await cli.run(
            ["interact", "user-profile", "--viewer", "1", "--arg", "user=1", "--format", "json"], input: "inspect drafts/compose\nquit\n")
        let line = try #require(json.output.split(separator: "\n").first { $0.contains(#""type":"inspection""#) }, "\(json.output)")
        let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
        #expect(fields["moduleType"] == "DraftModule" && fields["line"] == .int(draftsLine) && fields["column"] == 9 && fields["variant"] == "owner", "\(line)")
        #expect(fields["variantCondition"] == "viewer == user" && fields["state"]?["status"] == "loaded", "\(line)")
    }

    @Test func traceListsTheScenesEventsWithTheirRoutes() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "2", "--arg", "user=1", "--actions", "ids"], input: "trace\nblogs/blog.26.like\ntrace\nquit\n")
        #expect(result.status == 0, "\(result.error)")
        let traces = result.output.components(separatedBy: "> ")
        #expect(traces.contains { $0.hasPrefix("No events yet.\n") }, "\(result.output)")
        // The like's line, as the server's inspector writes it: its route, its time and the
        // patch it caused (Bob's row; a host in this process writes no bytes).
        let like = "· blog.like from blogs/blog.26.like: module blogs: handled (handled by module blogs) · "
        let line = try #require(result.output.split(separator: "\n").first { $0.contains(like) }, "\(result.output)")
        let rest = try #require(line.ranges(of: like).first).upperBound
        #expect(line[rest...].firstMatch(of: /^\d+ µs · patches: blogs \(blogs\/blog\.26\) \d+ ops? \+\d+ µs$/) != nil, "\(line)")
    }

    @Test func theWidthFollowsColumnsWhenNotATerminal() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1"], environment: ["COLUMNS": "50"])
        let frame = try #require(result.output.split(separator: "\n").first)
        #expect(frame.count == 50, "\(frame)")
    }

    @Test func switchingTabsAndLoadingMore() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "1", "--arg", "user=1", "--actions", "ids"], input: "blogs/more\nsections#drafts\nquit\n")
        #expect(result.status == 0)
        #expect(result.output.contains("· scene: loaded more of blogs: ready"))
        #expect(result.output.contains("blogs/blog.8"), "the second page is listed")
        #expect(result.output.contains("· scene: selected tab drafts"))
        #expect(result.output.contains("Through the looking glass"))
    }

    /// Text typed into a form and not sent: the first quit says so and stays, the second
    /// leaves; once the form is sent, quit leaves at once.
    @Test func leavingWithTypedTextThatWasNotSentAsksOnce() async throws {
        defer { cli.cleanUp() }
        let warning = "What you typed into Title is not sent. Send its form (type its number) to keep it, or type 'quit' again to leave without it."
        let left = try await cli.run(
            ["interact", "user-profile", "--viewer", "1", "--arg", "user=1", "--actions", "ids"],
            input: "sections#drafts\ntype drafts/compose.title Half a thought\nquit\nquit\n")
        #expect(left.status == 0, "\(left.error)")
        #expect(left.output.components(separatedBy: warning).count == 2, "said once: \(left.output.suffix(600))")
        #expect(try await cli.store().drafts(of: "1", viewer: "1", page: .init(limit: 10)).items.count == 3, "nothing was sent")

        let sent = try await cli.run(
            ["interact", "user-profile", "--viewer", "1", "--arg", "user=1", "--actions", "ids"],
            input: "sections#drafts\ntype drafts/compose.title Half a thought\ndrafts/compose\nquit\n")
        #expect(sent.status == 0, "\(sent.error)")
        #expect(!sent.output.contains("is not sent"), "\(sent.output.suffix(600))")
        #expect(try await cli.store().drafts(of: "1", viewer: "1", page: .init(limit: 10)).items.map(\.title).contains("Half a thought"))
    }

    @Test func aFailedWriteRollsBackAndLeavesTheDatabaseUnchanged() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "2", "--arg", "user=1", "--fail", "blogs:writes", "--width", "200"], input: "blogs/blog.26.like\nquit\n")
        #expect(result.status == 0)
        #expect(result.output.contains("Couldn't like “A mad tea party, part 3”: The blogs service is unavailable (injected fault)."))
        #expect(try await cli.store().blog(26, viewer: "2").likedByViewer == false)
    }

    @Test func streamsTheTreeThenPatchesAsJSONLines() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "5", "--arg", "user=1", "--format", "json"], input: "blogs/blog.27.like\ninfo/follow\nn\nquit\n")
        #expect(result.status == 0, "\(result.error)")
        let lines = try result.output.split(separator: "\n").map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        #expect(lines.map { $0["type"] } == ["tree", "route", "patches", "confirm", "route"])
        let tree = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(result.output.split(separator: "\n")[0].utf8))
        #expect(tree.scene == "user-profile")
        let patches = try JSONDecoder().decode([ViewPatch].self, from: JSONEncoder().encode(lines[2]["patches"]))
        #expect(patches.map { patch -> NodeID in if case .update(let id, _) = patch { id } else { "other" } } == ["blogs/blog.27.likes", "blogs/blog.27.like"])
        #expect(lines[3]["title"] == "Unfollow Alice Liddell?")
        #expect(lines[0]["sequence"] == 0 && lines[2]["sequence"] == 1, "updates are numbered from the tree they follow")
    }

    @Test func resyncSendsTheWholeTreeAtTheCurrentSequence() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "5", "--arg", "user=1", "--format", "json"],
            input: "blogs/blog.27.like\nresync\nblogs/blog.27.like\nquit\n")
        let lines = try result.output.split(separator: "\n").map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        #expect(lines.map { $0["type"] } == ["tree", "route", "patches", "tree", "route", "patches"])
        #expect(lines.map { $0["sequence"] } == [0, nil, 1, 1, nil, 2])
        let resynced = PatchableTree(try JSONDecoder().decode(ViewTreeDocument.self, from: Data(result.output.split(separator: "\n")[3].utf8)).root)
        try resynced.apply(try JSONDecoder().decode([ViewPatch].self, from: JSONEncoder().encode(lines[5]["patches"])))
        #expect(resynced.root.node(withID: "blogs/blog.27.like")?.visibleTexts == ["Like"], "liked, then unliked")
    }

    @Test func theStreamCarriesATabSwitchAsPatches() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["interact", "user-profile", "--viewer", "1", "--arg", "user=1", "--format", "json"], input: "sections#drafts\nquit\n")
        let lines = try result.output.split(separator: "\n").map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        #expect(lines.map { $0["type"] } == ["tree", "route", "patches"])
        #expect(lines[2]["node"] == "sections")
        let tree = PatchableTree(try JSONDecoder().decode(ViewTreeDocument.self, from: Data(result.output.split(separator: "\n")[0].utf8)).root)
        try tree.apply(try JSONDecoder().decode([ViewPatch].self, from: JSONEncoder().encode(lines[2]["patches"])))
        #expect(tree.root.visibleTexts.contains("Through the looking glass"))
    }

    /// Sixty actions must not scroll the scene away: by default they are packed to the
    /// width, one group of lines per module, numbers and titles only; 'ids' lists each with
    /// its control's id, numbered the same.
    @Test func actionsAreListedCompactlyByModuleAndWithTheirIdsOnRequest() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["interact", "user-profile", "--viewer", "2", "--arg", "user=1", "--width", "100"], input: "ids\nquit\n")
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex(of: "Actions (type a number; 'ids' lists them with their ids):"), "\(result.output)")
        let compact = Array(lines[(header + 1)...].prefix { $0.hasPrefix("  ") })
        let full = try #require(lines.firstIndex { $0.hasSuffix("Actions:") }, "'ids' lists them one a line (after the prompt)")
        let listed = Array(lines[(full + 1)...].prefix { $0.hasPrefix("  ") })
        #expect(compact.count * 2 < listed.count, "compact: \(compact.count) lines for \(listed.count) actions")
        #expect(compact.allSatisfy { TerminalText.displayWidth(of: $0) <= 100 }, "within the width:\n\(compact.joined(separator: "\n"))")
        #expect(compact.first?.hasPrefix("  info  ") == true, "each module's actions start with its name: \(compact)")
        #expect(compact.contains { $0.hasPrefix("  blogs ") })
        #expect(!compact.contains { $0.contains("blogs/blog.26.like") }, "no ids in the compact list")
        // The same numbers in both lists.
        let likeLine = try #require(listed.first { $0.hasSuffix("  blogs/blog.26.like") })
        let number = try #require(likeLine.split(separator: " ").first)
        #expect(compact.contains { $0.contains("\(number)) Like") }, "\(number) in \(compact)")
    }

    @Test func unknownCommandsAndEndOfInputAreHandled() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["interact", "follow-list", "--viewer", "1", "--arg", "user=1"], input: "999\nback\nhelp\n")
        #expect(result.status == 0, "end of input quits cleanly")
        #expect(result.output.contains("No action '999'. Type a number from the list, or show, back, help, quit."))
        #expect(result.output.contains("This is the first scene; there is nothing to go back to."))
        #expect(result.output.contains("back     return to the previous scene"))
    }
}
