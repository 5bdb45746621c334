import Foundation
import Testing

/// The `board` executable is the whole scenery tool for the board app: run as a person
/// would, in a process of its own, on a database of its own.
@Suite(.timeLimit(.minutes(5))) struct BoardToolTests {
    /// The executable, beside the test bundle (as SwiftPM lays products out).
    static let executable: URL = {
        let folders = [Bundle.main.bundleURL] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        let tools = folders.map { $0.appending(path: "board") }
        return tools.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? tools[0]
    }()

    /// Runs `board` to its end; returns its status and what it printed (both streams).
    func board(_ arguments: String...) throws -> (status: Int32, output: String) {
        try board(arguments, input: nil)
    }

    /// Runs the tool with `arguments`, `input` (if any) as its standard input.
    func board(_ arguments: [String], input: String?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        if let input {
            let pipe = Pipe()
            process.standardInput = pipe
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        }
        let database = FileManager.default.temporaryDirectory.appending(path: "board-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        process.environment = ProcessInfo.processInfo.environment.merging(["SCENERY_DATABASE": database.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }

    @Test func itsHelpAndMessagesSpeakTheToolsOwnName() throws {
        let help = try board("--help")
        #expect(help.status == 0, "\(help.output)")
        #expect(help.output.contains("USAGE: board <subcommand>"), "\(help.output)")
        #expect(!help.output.contains("scenery"), "an app's tool never speaks of scenery: \(help.output)")
        let run = try board("run", "--help")
        #expect(run.output.contains("USAGE: board run") && !run.output.contains("'scenery "), "\(run.output)")
        // Its own database file and services, not the demo's; its own PostgreSQL kind.
        let words = run.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("else the app's file (board.sqlite) in $XDG_DATA_HOME/scenery/"), "\(words)")
        #expect(words.contains("A PostgreSQL URL opens that database."), "\(words)")
        #expect(words.contains("Make a service fail: board; optionally :reads or :writes (e.g. board:writes)"), "\(words)")
        #expect(!words.contains("blogs:writes") && !words.contains("blogs=") && !words.contains("demo.sqlite"), "\(words)")
        let mistyped = try board("rn")
        #expect(mistyped.status == 64)
        #expect(mistyped.output.contains("See 'board --help'."), "\(mistyped.output)")
    }

    @Test func theOwnerSeesHerTasksWithRemoveAndAMemberWithoutIt() throws {
        let owner = try board("run", "board", "--viewer", "1", "--arg", "owner=1", "--arm", "task-order=oldest-first")
        #expect(owner.status == 0, "\(owner.output)")
        #expect(owner.output.contains("Plan the offsite  [ Done ]  [ Remove ]"), "\(owner.output)")
        #expect(owner.output.contains("✓ Order the cake  [ Undo ]  [ Remove ]"))
        let member = try board("run", "board", "--viewer", "2", "--arg", "owner=1")
        #expect(member.status == 0 && member.output.contains("Plan the offsite  [ Done ]"), "\(member.output)")
        #expect(!member.output.contains("[ Remove ]"))
    }

    @Test func theAppsOwnThemeDrawsItsPage() throws {
        // Sources/Board/Scenes/board.tokens.json: checked for contrast by the build plugin,
        // loaded by the app's tool with its scenes.
        let page = try board("run", "board", "--viewer", "1", "--arg", "owner=1", "--format", "html", "--theme", "board")
        #expect(page.status == 0, "\(page.output)")
        #expect(page.output.contains("--scenery-color-accent:#1a7f37;"), "\(page.output.prefix(600))")
        let unknown = try board("run", "board", "--viewer", "1", "--arg", "owner=1", "--format", "html", "--theme", "sepia")
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("No theme 'sepia'; use one of "), "\(unknown.output)")
        #expect(unknown.output.contains("board"))
    }

    @Test func aViewerWhoIsNoMemberIsRefusedNamingTheDatabase() throws {
        let result = try board("run", "board", "--viewer", "9", "--arg", "owner=1")
        #expect(result.status != 0)
        #expect(result.output.contains("No user with id '9' exists in the database"), "\(result.output)")
    }

    /// `interact` fills a form's field and submits it as a browser does: checked first, then
    /// the text under the field's name; the new task is shown.
    @Test func interactTypesIntoAFieldAndSubmitsItsForm() throws {
        let script = "type tasks/new.title Buy balloons\ntasks/new\nquit\n"
        let run = try board(["interact", "board", "--viewer", "1", "--arg", "owner=1"], input: script)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("tasks/new.title  New task: ''"), "the fields are listed:\n\(run.output)")
        #expect(run.output.contains("· New task: 'Buy balloons'"))
        #expect(run.output.contains("module tasks: performed"), "the form's event ran:\n\(run.output)")
        #expect(run.output.contains("• Buy balloons  [ Done ]  [ Remove ]"), "the new task is shown:\n\(run.output)")
    }

    @Test func interactRefusesAFormThatBreaksItsRulesAndSaysWhy() throws {
        let run = try board(["interact", "board", "--viewer", "1", "--arg", "owner=1"], input: "type tasks/new.title    \ntasks/new\nquit\n")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("⚠ Name the task first."))
        #expect(run.output.contains("Not sent: title: Name the task first."), "\(run.output)")
        #expect(!run.output.contains("performed"))
    }

    /// The manifest beside the scene (what the build plugin validates against) is the one the
    /// module's descriptor makes.
    @Test func theShippedManifestIsTheModulesOwn() throws {
        let generated = try board("list", "--manifest", "--type", "TaskListModule")
        #expect(generated.status == 0, "\(generated.output)")
        let shipped = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Sources/Board/Scenes/board.modules.json")
        #expect(generated.output == (try String(contentsOf: shipped, encoding: .utf8)), "regenerate it: swift run board list --manifest --type TaskListModule")
    }
}
