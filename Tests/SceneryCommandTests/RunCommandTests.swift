import Foundation
import Scenery
import Testing

@Suite struct RunCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    @Test func theOwnerSeesTheDraftsTabAndOthersNever() async throws {
        defer { cli.cleanUp() }
        let owner = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1"])
        #expect(owner.status == 0, "\(owner.error)")
        #expect(owner.output.contains("◉ Blogs   ○ Drafts"))
        #expect(owner.output.contains("┌─ info · UserInfoModule"))
        #expect(owner.error.isEmpty, "nothing on standard error when it is not a terminal")
        for viewer in [["--viewer", "2"], []] {
            let other = try await cli.run(["run", "user-profile", "--arg", "user=1"] + viewer)
            #expect(other.status == 0)
            #expect(!other.output.contains("Drafts"))
            #expect(other.output.contains("Alice Liddell"))
        }
    }

    @Test func printsTheViewTreeAsJSON() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--format", "json"])
        #expect(result.status == 0)
        let document = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(result.output.utf8))
        #expect(document.scene == "user-profile" && document.variant == "default")
        #expect(document.root.moduleFrame("info")?.type == "UserInfoModule")
        #expect(document.root.moduleFrame("drafts") == nil)
    }

    @Test func printsACompleteHTMLPage() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile-zh", "--viewer", "2", "--arg", "user=4", "--format", "html"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("<!DOCTYPE html>"))
        #expect(result.output.contains("<title>个人主页</title>"))
        #expect(result.output.contains("赞 0"))
        #expect(result.output.hasSuffix("</html>\n"))
    }

    @Test func aFailingServiceShowsItsErrorAndTheRestRenders() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--fail", "blogs", "--latency", "profiles=50ms"])
        #expect(result.status == 0)
        #expect(result.output.contains("⚠ The blogs service is unavailable (injected fault). [\u{00A0}Retry\u{00A0}]"))
        #expect(result.output.contains("Alice Liddell"))
        #expect(result.error.isEmpty)
    }

    @Test(arguments: [
        (["run", "user-profil", "--viewer", "1", "--arg", "user=1"], Int32(2), "No scene 'user-profil' is registered; did you mean 'user-profile'?"),
        (["run", "user-profile", "--viewer", "1"], 2, "needs the argument 'user'"),
        (["run", "user-profile", "--arg", "user=1", "--arg", "usr=2"], 2, "has no parameter 'usr'; did you mean 'user'?"),
        (["run", "user-profile", "--arg", "user"], 64, "'--arg user' must have the form name=value"),
        (["run", "user-profile", "--arg", "user=1", "--format", "xml"], 64, "The value 'xml' is invalid for '--format <format>'"),
        (["run", "user-profile", "--arg", "user=1", "--fail", "blog"], 64, "unknown service 'blog'. Did you mean 'blogs'?"),
        (["run", "user-profile", "--arg", "user=1", "--latency", "blogs=soon"], 64, "'soon' is not a duration"),
        (["run", "user-profile", "--arg", "user=1", "--scenes", "/nonexistent"], 2, "Cannot list the scene directory '/nonexistent'"),
        (["frobnicate"], 64, "Unexpected argument 'frobnicate'"),
    ])
    func badArgumentsGetClearErrorsAndExitCodes(arguments: [String], status: Int32, message: String) async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(arguments)
        #expect(result.status == status, "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func aSlowLoadPrintsNoProgressOnAPipe() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1", "--latency", "blogs=400ms"])
        #expect(result.status == 0)
        #expect(result.error.isEmpty, "progress goes to terminals only: \(result.error)")
        #expect(result.output.contains("┌─ blogs · BlogModule"))
    }

    @Test func anUnknownBlogShowsAnErrorBlockNotACrash() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "blog-detail", "--arg", "blog=999"])
        #expect(result.output.contains("⚠ No blog with id 999 exists."))
    }

    @Test func aBadDatabasePathIsADatabaseError() async throws {
        defer { cli.cleanUp() }
        let blocker = cli.directory.appending(path: "file")
        #expect(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1", "--database", blocker.appending(path: "db.sqlite").path])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: The database failed: Cannot create the directory"))
    }
}
