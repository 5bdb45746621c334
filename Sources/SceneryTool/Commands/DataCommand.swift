import ArgumentParser
import Foundation
import Scenery

/// `scenery data import|export|reset`: load your own data, save the database's, or go back to
/// the demo data, in the app's data set format (the store's ``ToolStore`` requirements); a
/// catalog may add subcommands (the demo's `generate`).
struct DataCommand: AsyncParsableCommand {
    // Computed: the catalog's own subcommands are known once the tool runs.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "data",
            abstract:
                "Import, export or reset the app's whole data set (a JSON document)\(ModuleCatalog.current.dataCommands.isEmpty ? "" : ", or add generated data").",
            subcommands: [Import.self, Export.self, Reset.self] + ModuleCatalog.current.dataCommands.map(\.type))
    }

    struct Reset: AsyncParsableCommand {
        // Every command names itself: a name derived from the type costs reflection at start-up.
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Replace the database's data with the demo data (undoes what interact sessions changed).")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let contents = try await database.openStore(seedDemoData: false, requiresWriting: true).resetWholeData(
                    with: ModuleCatalog.running.partData)
                Output.line("Reset \(database.description.quoted) to the demo data: \(contents).")
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
                    try await store.exportWholeData(with: ModuleCatalog.running.partData) { Output.write($0) }
                    Output.write("\n")
                    return
                }
                try await Self.write(to: file) { handle in
                    try await store.exportWholeData(with: ModuleCatalog.running.partData) { chunk in try handle.write(contentsOf: Data(chunk.utf8)) }
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
                if error is DataError { throw error }
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
                    let contents = try await importFile()
                    Output.line("Imported \(contents) into \(database.description.quoted).")
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

        /// Imports the file's data set in one transaction and returns what it held in words, or
        /// fails naming what is wrong (each problem of the data is printed at its line and
        /// column first).
        private func importFile() async throws -> String {
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
                    "\(file.quoted) is empty; a data file is a JSON object, as 'data export' writes.",
                    code: .invalidFile)
            }
            let problems: [DataProblem]
            let imported: Result<String, any Error>
            do {
                let store = try await database.openStore(seedDemoData: false, requiresWriting: true)
                imported = .success(try await store.importWholeData(data, with: ModuleCatalog.running.partData))
            } catch {
                imported = .failure(error)
            }
            switch imported {
            case .success(let contents): return contents
            case .failure(let error as DataError) where error.kind == .invalidData: problems = error.problems
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
