import ArgumentParser
import Foundation
import ProfileDomain
import ProfileStore
import Scenery

/// `scenery data import|export`: load your own profile data, or save the database's.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Import, export or reset the whole profile data set (JSON format scenery.profile-data), or add generated blogs.",
        subcommands: [Import.self, Export.self, Reset.self, Generate.self])

    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Add generated blogs by one user, to try long lists (scenery data reset removes them).")

        @Option(help: "Whose blogs.")
        var user: String

        @Option(help: "How many blogs to add (1 to 1000000).")
        var blogs: Int

        @OptionGroup var database: DatabaseOptions

        mutating func validate() throws {
            guard (1...1_000_000).contains(blogs) else { throw ValidationError("--blogs must be from 1 to 1000000, not \(blogs).") }
        }

        func run() async throws {
            try await reportingFailures {
                let store = try await database.openStore(requiresWriting: true)
                let ids = try await store.addGeneratedBlogs(count: blogs, author: UserID(user))
                Output.line("Added \(blogs) blogs by user \(user) (ids \(ids.lowerBound)–\(ids.upperBound)) to \(database.description.quoted).")
            }
        }
    }

    struct Reset: AsyncParsableCommand {
        // Every command names itself: a name derived from the type costs reflection at start-up.
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Replace the database's data with the demo data (undoes what interact sessions changed).")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let dataSet = DemoData.dataSet
                try await database.openStore(seedDemoData: false, requiresWriting: true).importData(dataSet)
                Output.line(
                    "Reset \(database.description.quoted) to the demo data: \(dataSet.users.count) users, \(dataSet.blogs.count) blogs, \(dataSet.drafts.count) drafts."
                )
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write the database's data to a JSON file ('-' for standard output).")

        @Argument(help: ArgumentHelp("The file to write.", valueName: "file.json"))
        var file: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let store = try await database.openStore()
                if file == "-" {
                    // Streamed: memory stays flat however large the data set.
                    try await store.exportJSON { Output.write($0) }
                    Output.write("\n")
                    return
                }
                try await Self.write(to: file) { handle in
                    try await store.exportJSON { chunk in try handle.write(contentsOf: Data(chunk.utf8)) }
                    try handle.write(contentsOf: Data("\n".utf8))
                }
                Output.line("Exported the data of \(database.description.quoted) to \(file).")
            }
        }

        /// Writes the whole file or nothing: to a temporary file beside the target, then
        /// renamed over it. Only a regular file (or a new path) is ever replaced; a symlink
        /// is followed to its target; a device, FIFO, socket or directory is refused.
        static func write(to path: String, _ body: (FileHandle) async throws -> Void) async throws {
            let target = URL(filePath: path).resolvingSymlinksInPath()
            var status = stat()
            if lstat(target.path, &status) == 0 {
                let kind = status.st_mode & S_IFMT
                guard kind == S_IFREG else {
                    let what =
                        switch kind {
                        case S_IFCHR: "a character device"
                        case S_IFBLK: "a block device"
                        case S_IFIFO: "a FIFO"
                        case S_IFSOCK: "a socket"
                        case S_IFDIR: "a directory"
                        default: "not a regular file"
                        }
                    throw CommandFailure(
                        "\(path.quoted) is \(what), not a file; nothing was written. Give the path of a file, or '-' for standard output.",
                        code: .sceneryError)
                }
            }
            let temporary = target.deletingLastPathComponent().appending(path: ".\(target.lastPathComponent).\(UUID().uuidString).partial")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
                let handle = try? FileHandle(forWritingTo: temporary)
            else {
                throw CommandFailure(
                    "Cannot write \(path.quoted): cannot create a file in \(target.deletingLastPathComponent().path.quoted); nothing was written.",
                    code: .sceneryError)
            }
            do {
                defer { try? handle.close() }
                try await body(handle)
                try handle.synchronize()
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                if let failure = error as? CommandFailure { throw failure }
                if error is ProfileError { throw error }
                throw CommandFailure("Cannot write \(path.quoted): \(error.localizedDescription); nothing was written.", code: .sceneryError)
            }
            guard rename(temporary.path, target.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw CommandFailure("Cannot write \(path.quoted): \(reason); nothing was written.", code: .sceneryError)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Replace the database's data with a JSON file; a file with problems changes nothing.")

        @Argument(help: ArgumentHelp("The file to read.", valueName: "file.json"))
        var file: String

        @OptionGroup var database: DatabaseOptions

        /// The largest data file read (the generated data sets of a million blogs are
        /// about 250 MB).
        static let largestFile = 2 << 30

        func run() async throws {
            try await reportingFailures {
                let isFile = ToolDatabase.scheme(of: database.path) == nil
                let existed = !isFile || FileManager.default.fileExists(atPath: database.path)
                do {
                    let dataSet = try await importFile()
                    let counts = "\(dataSet.users.count) users, \(dataSet.blogs.count) blogs, \(dataSet.drafts.count) drafts"
                    Output.line("Imported \(counts) into \(database.description.quoted).")
                } catch {
                    // An import is one transaction, so a failed one changed nothing; a database
                    // file it created to import into is removed.
                    if !existed { removeDatabaseFiles() }
                    let failure =
                        error as? CommandFailure ?? CommandFailure(SceneryError.message(for: error), code: .sceneryError)
                    throw CommandFailure("\(failure.description) Nothing was imported; the database is unchanged.", code: failure.code)
                }
            }
        }

        /// Imports the file's data set in one transaction, or fails naming what is wrong
        /// (each problem of the data is printed at its line and column first).
        private func importFile() async throws -> ProfileDataSet {
            let data: Data
            do {
                data = try RegularFile.contents(of: file, limit: Self.largestFile)
            } catch {
                let advice =
                    FileManager.default.fileExists(atPath: file)
                    ? "give the path of a data file (scenery data export writes one)." : "check the path (scenery data export writes a data file)."
                throw CommandFailure("Cannot read \(file.quoted): \(error.description); \(advice)", code: .sceneryError)
            }
            guard !data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                throw CommandFailure(
                    "\(file.quoted) is empty; a data file is a JSON object (format scenery.profile-data, as scenery data export writes).",
                    code: .invalidFile)
            }
            let problems: [DataProblem]
            let imported: Result<ProfileDataSet, any Error>
            do {
                let dataSet = try ProfileDataSet.decode(from: data)
                try await database.openStore(seedDemoData: false, requiresWriting: true).importData(dataSet)
                imported = .success(dataSet)
            } catch {
                imported = .failure(error)
            }
            switch imported {
            case .success(let dataSet): return dataSet
            case .failure(let error as ProfileError) where error.kind == .invalidData: problems = error.problems
            case .failure(let error): throw error
            }
            // Point at each problem's line and column, as compilers do.
            let locator: JSONLocator
            do throws(JSONSyntaxError) {
                locator = try JSONLocator(bytes: Array(data))
            } catch {
                Output.line("\(file):\(error.location.line):\(error.location.column): error: \(error.message)")
                throw CommandFailure("\(file.quoted) is not valid JSON.", code: .invalidFile)
            }
            var located = problems.map { (place: locator.location(of: $0.path), message: "\($0)") }
            // The decoder rejects a number it cannot hold without saying where (the
            // document parsed above, so that is what it means): point at each one.
            let numbers = locator.numbersOutsideIntegers
            if problems.contains(where: { $0.path.isEmpty }), !numbers.isEmpty {
                located = numbers.map { number in
                    (number.location, "\(number.path): must be a whole number from \(Int64.min) to \(Int64.max); fix that value.")
                }
            }
            for problem in located {
                Output.line("\(file):\(problem.place.line):\(problem.place.column): error: \(problem.message)")
            }
            throw CommandFailure("\(located.count) problem(s) in \(file.quoted).", code: .invalidFile)
        }

        /// Removes a database file (and SQLite's companions) that this import created.
        private func removeDatabaseFiles() {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        }
    }
}
