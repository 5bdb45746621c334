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

    @Test func aManifestBesideTheScenesDoesNotHideTheRegisteredModule() async throws {
        defer { cli.cleanUp() }
        // As a package keeps it: the manifest of its modules in its own scenes folder.
        let scenes = cli.directory.appending(path: "Scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        let manifest = try await cli.run(["list", "--manifest", "--type", "UserInfoModule"])
        #expect(manifest.status == 0, "\(manifest.error)")
        try Data(manifest.output.utf8).write(to: scenes.appending(path: "profile.modules.json"))
        let card = #"{ "parameters": { "user": "userID" }, "modules": [ { "id": "card", "type": "UserInfoModule", "params": { "user": "$user" } } ] }"#
        try Data(card.utf8).write(to: scenes.appending(path: "card.json"))
        let result = try await cli.run(["run", "card", "--viewer", "2", "--arg", "user=1", "--scenes", scenes.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Alice Liddell"))
        #expect(!result.error.contains("has no factory"))
    }

    @Test func anAppSceneExtendsTheBundledSceneOfTheSameIdAndEveryCommandAgrees() async throws {
        defer { cli.cleanUp() }
        let scenes = cli.directory.appending(path: "Scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        let profile = #"""
            { "extends": "user-profile",
              "modules": [ { "id": "latest", "type": "BlogModule", "params": { "author": "$user", "pageSize": 1, "header": "Latest" } } ] }
            """#
        try Data(profile.utf8).write(to: scenes.appending(path: "user-profile.json"))
        let validate = try await cli.run(["validate", scenes.path])
        #expect(validate.status == 0, "\(validate.output)\(validate.error)")
        #expect(!validate.error.contains("cycle"))
        let list = try await cli.run(["list", "--scenes", scenes.path])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.components(separatedBy: "\n").filter { $0.hasPrefix("  user-profile(") }.count == 1, "\(list.output)")
        #expect(list.output.contains("  user-profile(user: userID)\n      variants: owner, default"), "\(list.output)")
        #expect(!list.output.contains("/replaced"))
        for viewer in ["1", "2"] {
            let run = try await cli.run(["run", "user-profile", "--viewer", viewer, "--arg", "user=1", "--scenes", scenes.path])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("latest · BlogModule"), "the app's module, for viewer \(viewer)")
            #expect(run.output.contains("info · UserInfoModule"), "the bundled scene's modules")
        }
        let owner = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--scenes", scenes.path, "--select", "sections=drafts"])
        #expect(owner.output.contains("drafts · DraftModule"), "the owner's variant is kept")
        let other = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--scenes", scenes.path, "--format", "json"])
        #expect(!other.output.contains("DraftModule"), "and still the owner's only")
    }

    @Test func rowsShowsAWindowOfALongList() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1", "--rows", "blogs:20..<23"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("rows 21–23 of 27"))
        #expect(result.output.components(separatedBy: "\n").filter { $0.hasPrefix("│ • ") }.count == 3, "three blogs (friends are cards in a carousel)")
        #expect(!result.output.contains("Load more"))
        let closed = try await cli.run(["run", "user-profile", "--arg", "user=1", "--rows", "25...40"])
        #expect(closed.output.contains("rows 26–27 of 27"), "a window past the end holds the rows there are")
    }

    @Test(arguments: [
        (["--rows", "5..2"], "--rows '5..2' is not a range of rows"),
        (["--rows", "blogs:9..<3"], "--rows 'blogs:9..<3' is not a range of rows"),
        (["--rows", "nope:1..<3"], "'--rows' names module 'nope', which scene 'user-profile' does not have (its modules: info, friends, blogs)."),
    ])
    func badRowsAreRefusedWithWhatToWrite(arguments: [String], message: String) async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1"] + arguments)
        #expect(result.status == 64)
        #expect(result.error.contains(message), "\(result.error)")
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
        let result = try await cli.run(["run", "user-profile", "--locale", "zh-Hans", "--viewer", "2", "--arg", "user=4", "--format", "html"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("<!DOCTYPE html>"))
        #expect(result.output.contains(#"<html lang="zh-Hans">"#))
        #expect(result.output.contains("<title>个人主页</title>"))
        #expect(result.output.contains("赞 0"))
        #expect(result.output.hasSuffix("</html>\n"))
    }

    @Test func aLanguageTheScenesLackFallsBackWithAWarning() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--locale", "fr", "--viewer", "2", "--arg", "user=4"])
        #expect(result.status == 0)
        #expect(result.output.contains("Blogs: 2"))
        #expect(result.error.contains("warning: the scenes have no 'fr' translation, so 'user-profile' shows in 'en'; translations: ar, zh-Hans, en-XA."))
        let chinese = try await cli.run(["run", "user-profile", "--locale", "zh-CN", "--viewer", "2", "--arg", "user=4"])
        #expect(chinese.output.contains("作品: 2"))
        #expect(!chinese.error.contains("warning"))
    }

    @Test func aFailingServiceShowsItsErrorAndTheRestRendersThenExitsWith2() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--fail", "blogs", "--latency", "profiles=50ms"])
        #expect(result.status == 2, "a module failure is exit code 2, as documented")
        #expect(result.output.contains("⚠ The blogs service is unavailable (injected fault). [ Retry ]"))
        #expect(result.output.contains("Alice Liddell"))
        #expect(result.error == "error: The module 'blogs' (BlogModule) failed: The blogs service is unavailable (injected fault).\n")
    }

    @Test(arguments: [
        (["run", "user-profile", "--arg", "user=99"], "The module 'info' (UserInfoModule) failed: No user with id '99' exists."),
        (["run", "blog-detail", "--arg", "blog=99999"], "The module 'post' (BlogPostModule) failed: No blog with id 99999 exists."),
    ])
    func aMissingRecordFailsWithoutARetryThatCouldNeverWork(arguments: [String], message: String) async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message))
        #expect(!result.output.contains("Retry"), "not found is not a transient failure")
    }

    @Test func anUnknownViewerIsRefusedBeforeTheSceneRuns() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--viewer", "99", "--arg", "user=1"])
        #expect(result.status == 2, "a bad argument value, as the exit codes are documented")
        #expect(result.error.hasPrefix("error: No user with id '99' exists in the database '"))
        #expect(result.output.isEmpty)
        let empty = try await cli.run(["run", "user-profile", "--viewer", "", "--arg", "user=1"])
        #expect(empty.status == 64)
        #expect(empty.error.contains("'--viewer' needs a user id"))
    }

    @Test func selectShowsAnotherTabAndDocumentsCarryEveryPanel() async throws {
        defer { cli.cleanUp() }
        let text = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--select", "sections=drafts"])
        #expect(text.status == 0)
        #expect(text.output.contains("◉ Drafts"))
        #expect(text.output.contains("DraftModule"))
        for format in ["json", "html"] {
            let owner = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--format", format])
            #expect(owner.output.contains("DraftModule"), "the owner's \(format) carries the drafts panel")
            #expect(owner.output.contains("Through the looking glass"), "and the drafts themselves (\(format))")
            let other = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--format", format])
            #expect(!other.output.contains("DraftModule") && !other.output.contains("Through the looking glass"), "no draft for anyone else (\(format))")
        }
        let typo = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--select", "section=drafts"])
        #expect(typo.status == 64)
        #expect(typo.error == "error: No tab switch 'section' in 'user-profile' (did you mean 'sections'?); its tab switches: sections.\n")
        let noTab = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--select", "sections=draft"])
        #expect(noTab.error == "error: The tab switch 'sections' has no tab 'draft' (did you mean 'drafts'?); its tabs: blogs, drafts.\n")
    }

    @Test(arguments: [
        (["run", "user-profil", "--viewer", "1", "--arg", "user=1"], Int32(2), "No scene 'user-profil' is registered; did you mean 'user-profile'?"),
        (["run", "user-profile", "--viewer", "1"], 2, "needs the argument 'user'"),
        (["run", "user-profile", "--arg", "user=1", "--arg", "usr=2"], 2, "has no parameter 'usr'; did you mean 'user'?"),
        (["run", "user-profile", "--arg", "user"], 64, "--arg 'user' must have the form name=value"),
        (["run", "user-profile", "--arg", "user=1", "--format", "xml"], 64, "The value 'xml' is invalid for '--format <format>'"),
        (["run", "user-profile", "--arg", "user=1", "--fail", "blog"], 64, "unknown service 'blog'. Did you mean 'blogs'?"),
        (["run", "user-profile", "--arg", "user=1", "--latency", "blogs=soon"], 64, "'soon' is not a duration"),
        (
            ["run", "user-profile", "--arg", "user=1", "--scenes", "/nonexistent"], 2,
            "No such file or directory --scenes '/nonexistent'; pass scene files or a directory of them."
        ),
        (["frobnicate"], 64, "Unknown command 'frobnicate'; commands: run, interact, connect, serve, validate, list, experiments, data, new."),
        (["valdate"], 64, "Unknown command 'valdate' (did you mean 'validate'?)"),
        (["run", "user-profile", "--arg", "user=1", "--latency", "blogs=2"], 64, "'2' is not a duration with a unit"),
        (["run", "user-profile", "--arg", "user=1", "--fail", "blogs:"], 64, "after ':' write reads or writes"),
        (["run", "user-profile", "--arg", "user=1", "--width", "-3"], 64, "'--width -3' is out of range; text output takes 20 to 1000 columns."),
        (["run", "user-profile", "--arg", "user=1", "--width", "100000000"], 64, "'--width 100000000' is out of range"),
        (["run", "user-profile", "--arg", "user=1", "--width", "wide"], 64, "'--width wide' is not a number"),
        (["validate", "/nonexistent"], 2, "No such file or directory '/nonexistent'"),
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
        #expect(result.error.hasPrefix("error: The database failed: The directory"))
    }

    @Test func aDatabaseInADirectoryThatDoesNotExistIsRefusedNotCreated() async throws {
        defer { cli.cleanUp() }
        let missing = cli.directory.appending(path: "no/such/dir")
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1", "--database", missing.appending(path: "x.sqlite").path])
        #expect(result.status == 2)
        #expect(result.error.contains("does not exist; create it first"))
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appending(path: "no").path), "nothing was created")
    }
}
