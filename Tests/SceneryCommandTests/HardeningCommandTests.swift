import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import ScenerySiteStore
import Testing

/// What an attacker (or an accident) does to the command line: hostile input, a read-only
/// or locked database, a file that is not a file.
@Suite(.timeLimit(.minutes(5))) struct HardeningCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    static let long = String(repeating: "9", count: 10_000)

    /// Each command a person may type with one value 10,000 characters long.
    static let hostileCommands: [[String]] = [
        ["run", "user-profile", "--viewer", long, "--arg", "user=1"],
        ["run", long],
        ["run", "user-profile", "--arg", "user=\(long)"],
        ["run", "user-profile", "--arg", "\(long)=1"],
        ["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--select", "\(long)=drafts"],
        ["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--select", "sections=\(long)"],
        ["run", "user-profile", "--arg", "user=1", "--fail", long],
        ["run", "user-profile", "--arg", "user=1", "--rows", "\(long)=3"],
        ["run", "user-profile", "--arg", "user=1", "--scenes", "/tmp/\(long)"],
        ["data", "import", "/tmp/\(long)"],
        ["data", "generate", "--user", long, "--blogs", "1"],
        ["validate", "/tmp/\(long)"],
        ["list", "--manifest", "--type", long],
        [long],
    ]

    @Test(arguments: hostileCommands.indices)
    func hostileInputIsQuotedShortenedInEveryMessage(command: Int) async throws {
        defer { cli.cleanUp() }
        let arguments = Self.hostileCommands[command]
        let result = try await cli.run(arguments)
        #expect(result.status != 0, "\(arguments.map { $0.prefix(30) })")
        #expect(!result.error.isEmpty)
        for line in (result.output + result.error).split(separator: "\n") {
            #expect(line.count < 1_000, "a line of \(line.count) characters: \(line.prefix(300))…")
        }
        #expect(!result.error.contains(String(repeating: "9", count: 300)), "the input is not repeated whole: \(result.error.prefix(300))")
    }

    @Test func aReadOnlyDatabaseServesReadingCommandsAndRefusesWrites() async throws {
        defer { cli.cleanUp() }
        let reset = try await cli.run(["data", "reset"])
        #expect(reset.status == 0)
        let before = try Data(contentsOf: URL(filePath: cli.database))
        // The file and its folder read-only (as a read-only mount or another owner's file is).
        let folder = cli.directory.path
        #expect(chmod(cli.database, 0o444) == 0 && chmod(folder, 0o555) == 0)
        defer { _ = chmod(folder, 0o755) }
        let read = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--select", "sections=drafts"], unprivileged: true)
        #expect(read.status == 0, "\(read.error)")
        #expect(read.output.contains("Alice Liddell"))
        #expect(read.output.contains("Through the looking glass"), "the owner's drafts, read from the read-only file")
        let exported = try await cli.run(["data", "export", "-"], unprivileged: true)
        #expect(exported.status == 0, "\(exported.error)")
        let data = URL(filePath: "/tmp/scenery-readonly-\(UUID().uuidString).json")
        try Data(exported.output.utf8).write(to: data)
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(chmod(data.path, 0o644) == 0)
        for write in [["data", "import", data.path], ["data", "generate", "--user", "1", "--blogs", "2"], ["data", "reset"]] {
            let refused = try await cli.run(write, unprivileged: true)
            #expect(refused.status == 2, "\(write)")
            #expect(refused.error.contains("is read-only (its file or folder cannot be written) and this command changes data"), "\(refused.error)")
        }
        #expect(try Data(contentsOf: URL(filePath: cli.database)) == before, "nothing changed")
    }

    @Test func aLockedDatabaseIsWaitedForWithANoticeThenNamed() async throws {
        defer { cli.cleanUp() }
        #expect(try await cli.run(["data", "reset"]).status == 0)
        let holder = try LockHolder(database: cli.database)
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1", "--lock-timeout", "0.5"])
        holder.release()
        #expect(result.status == 2)
        #expect(result.error.contains("Waiting for the database '\(cli.database)': another process holds a lock"), "\(result.error)")
        #expect(result.error.contains("The database '\(cli.database)' is locked by another process (waited 0.5 s); let that process finish"))
        #expect(result.output.isEmpty)
    }

    @Test func aStoreLockedByAnotherProcessFailsWithAConflictToRetryNotAStorageFailure() async throws {
        defer { cli.cleanUp() }
        #expect(try await cli.run(["data", "reset"]).status == 0)
        let holder = try LockHolder(database: cli.database)
        defer { holder.release() }
        #expect {
            _ = try SQLiteProfileStore(path: cli.database, lockTimeout: .milliseconds(300))
        } throws: { error in
            guard let error = error as? ProfileError else { return false }
            return error.kind == .conflict && error.message.contains("is locked by another process")
        }
        #expect(ProfileError.userNotFound("9").kind == .notFound)
        #expect(ProfileError.userNotFound("9").isNotFound)
        #expect(ProfileError.storage("x").kind == .storage)
        #expect(ProfileError.invalidData([DataProblem(path: "users[0]", message: "bad")]).problems.count == 1)
    }

    @Test func aLockReleasedWhileWaitingLetsTheCommandGoOn() async throws {
        defer { cli.cleanUp() }
        #expect(try await cli.run(["data", "reset"]).status == 0)
        let holder = try LockHolder(database: cli.database)
        let (process, errors) = try cli.start(["run", "user-profile", "--arg", "user=1", "--lock-timeout", "60"])
        var noticed = false
        for await line in errors where line.contains("Waiting for the database") {
            noticed = true
            holder.release()  // the notice came: let the command have the database
            break
        }
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.finish() }
        if process.isRunning { for await _ in ended.stream {} }
        process.waitUntilExit()
        #expect(noticed)
        #expect(process.terminationStatus == 0)
    }

    @Test func everyFailedImportSaysTheDatabaseIsUnchanged() async throws {
        defer { cli.cleanUp() }
        #expect(try await cli.run(["data", "reset"]).status == 0)
        let before = try cli.store().exportData()
        let fifo = cli.directory.appending(path: "data.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let loop = cli.directory.appending(path: "loop.json")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        let broken = cli.directory.appending(path: "broken.json")
        try Data(#"{"format":"scenery.profile-data","users":[{"id":"1"}],"blogs":[{"id":1,"author":"9"}]}"#.utf8).write(to: broken)
        // A date that is not ISO 8601, in an otherwise good export.
        let badDate = cli.directory.appending(path: "bad-date.json")
        let exported = String(decoding: before.encoded(), as: UTF8.self)
        let firstDate = try #require(exported.range(of: #""20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[^"]*""#, options: .regularExpression))
        try Data(exported.replacingCharacters(in: firstDate, with: #""01/08/2026 09:00""#).utf8).write(to: badDate)
        for file in [cli.directory.path, fifo.path, loop.path, cli.directory.appending(path: "missing.json").path, broken.path, badDate.path] {
            let result = try await cli.run(["data", "import", file])
            #expect(result.status != 0, "\(file)")
            #expect(result.error.hasSuffix("Nothing was imported; the database is unchanged.\n"), "\(file): \(result.error)")
        }
        let dated = try await cli.run(["data", "import", badDate.path])
        // At the date's own line and column, naming its key and the form to write.
        #expect(
            dated.output.contains(#".createdAt: '01/08/2026 09:00' is not an ISO 8601 date; write it as "2026-01-08T09:00:00Z""#),
            "\(dated.output)")
        #expect(dated.output.hasPrefix(badDate.path + ":"), "\(dated.output)")
        #expect(try cli.store().exportData() == before)
        // Into a database that did not exist: it still does not.
        let fresh = cli.directory.appending(path: "fresh.sqlite").path
        let result = try await cli.run(["data", "import", broken.path, "--database", fresh])
        #expect(result.error.hasSuffix("Nothing was imported; the database is unchanged.\n"))
        #expect(!FileManager.default.fileExists(atPath: fresh), "the file the failed import created is gone")
    }
}

/// Another process's lock on a database, as a long import holds it: SQLite's exclusive
/// locking mode with a write transaction open, so no one else may even read.
final class LockHolder: @unchecked Sendable {
    private let process: Process
    private let input = Pipe()

    init(database: String) throws {
        process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("PRAGMA locking_mode = EXCLUSIVE")
            connection.execute("BEGIN EXCLUSIVE")
            connection.execute("UPDATE users SET name = name WHERE id = '1'")
            print("locked", flush=True)
            sys.stdin.read()
            """,
            database,
        ]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Holding once it says so.
        let line = output.fileHandleForReading.readData(ofLength: 7)
        guard String(decoding: line, as: UTF8.self) == "locked\n" else { throw CocoaError(.fileLocking) }
    }

    func release() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
