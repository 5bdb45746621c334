import ArgumentParser
import Foundation
import Scenery

/// Where the app's data lives.
package struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The database file, or a PostgreSQL database's URL (postgres://USER@HOST:PORT/DB); created or seeded with demo data on first use.",
            discussion: DatabaseOptions.defaultsHelp,
            valueName: "path-or-url"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "How long to wait for a database another process has locked, in seconds, before giving up.", valueName: "seconds"))
    var lockTimeout: Double = 30

    package init() {}

    /// Where the data is when `--database` is not given, and what a PostgreSQL URL does, for
    /// this tool's own catalog (its file's name; whether it opens `postgres://` itself).
    static var defaultsHelp: String {
        let file = fileKind?.defaultFileName.map { "the app's file (\($0))" } ?? "memory (this app names no database file)"
        let inFolder = fileKind == nil ? "" : " in $XDG_DATA_HOME/scenery/, else in ~/.local/share/scenery/"
        let postgres =
            ToolDatabase.added.contains { $0.schemes.contains("postgres") }
            ? "A PostgreSQL URL opens that database."
            : "A PostgreSQL URL runs the command in \(ToolName.current)\(ServeForwarder.executableSuffix), which has the PostgreSQL client."
        return "Default: $SCENERY_DATABASE, else \(file)\(inFolder). \(postgres)"
    }

    package func validate() throws {
        guard lockTimeout >= 0, lockTimeout <= 3600 else {
            throw ValidationError("--lock-timeout must be from 0 to 3600 seconds, not \(lockTimeout).")
        }
    }

    /// The database path or URL in force (for a tool whose catalog names no database, where
    /// its data is kept: in memory).
    package var path: String { database ?? Self.environmentPath ?? Self.fileKind.map(Self.defaultPath(for:)) ?? "memory" }

    /// The database for messages: its path, or its URL without a password.
    package var description: String { Self.redacted(path) }

    /// The catalog's kind of database files, if it names one.
    static var fileKind: ToolDatabase? { ToolDatabase.added.first(where: \.opensFiles) }

    /// `location` without the password of a URL's `user:password@`.
    static func redacted(_ location: String) -> String {
        guard ToolDatabase.scheme(of: location) != nil, let start = location.range(of: "://")?.upperBound,
            let at = location[start...].firstIndex(of: "@"),
            let colon = location[start..<at].firstIndex(of: ":")
        else { return location }
        return String(location[..<colon]) + ":***" + String(location[at...])
    }

    /// Where a file of `kind` lives without `--database`.
    static func defaultPath(for kind: ToolDatabase) -> String {
        // $HOME first: FileManager's home directory ignores it on Linux.
        let home = Environment.value("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        let dataHome = Environment.value("XDG_DATA_HOME") ?? URL(filePath: home).appending(path: ".local/share").path
        return URL(filePath: dataHome).appending(path: "scenery").appending(path: kind.defaultFileName ?? "data").path
    }

    /// Opens the store, creating and seeding it if it is new. A read-only database opens
    /// for reading, unless the command `requiresWriting`; a locked one is waited for with a
    /// notice on standard error, up to `--lock-timeout`. A path opens with the catalog's
    /// file kind and a URL with the ``ToolDatabase`` of its scheme; a tool whose catalog
    /// names no database runs on a ``MemoryToolStore``.
    package func openStore(seedDemoData: Bool = true, requiresWriting: Bool = false) async throws -> any ToolStore {
        let path = self.path
        let timeout = lockTimeout
        var options = ToolDatabase.OpenOptions(
            seedDemoData: seedDemoData, requiresWriting: requiresWriting, timeout: .milliseconds(Int64(timeout * 1000)),
            partSchemas: ModuleCatalog.running.partSchemas)
        let kind: ToolDatabase
        if let scheme = ToolDatabase.scheme(of: path) {
            guard let driver = ToolDatabase.added.first(where: { $0.schemes.contains(scheme) }) else {
                let known = ToolDatabase.added.flatMap(\.schemes).sorted().map { "\($0)://" }
                let opens = (Self.fileKind == nil ? [] : ["database files"]) + (known.isEmpty ? [] : ["\(known.joined(separator: ", ")) URLs"])
                let instead = (Self.fileKind == nil ? [] : ["a file path"]) + known.prefix(1).map { "a \($0) URL" }
                throw CommandFailure(
                    "--database \(description.quoted): this tool opens \(opens.isEmpty ? "no database" : opens.joined(separator: " and ")), not \(scheme):// URLs; \(instead.isEmpty ? "drop --database (its data is kept in memory)" : "give " + instead.joined(separator: " or ")).",
                    code: .usage)
            }
            kind = driver
        } else if let files = Self.fileKind {
            kind = files
            // Only the default location is created; a path someone typed must exist.
            options.createsDirectory = database == nil && Self.environmentPath == nil
            options.onLockWait = {
                Output.status(
                    "Waiting for the database \(path.quoted): another process holds a lock (giving up after \(timeout.formatted(.number)) s; --lock-timeout changes that)…\n"
                )
            }
        } else if database == nil {
            return MemoryToolStore()
        } else {
            throw CommandFailure(
                "--database \(description.quoted): this tool keeps its data in memory (its catalog names no database); drop --database.", code: .usage)
        }
        do {
            return try await kind.open(path, options)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
        }
    }

    /// `$SCENERY_DATABASE`, if set.
    static var environmentPath: String? {
        Environment.value("SCENERY_DATABASE")
    }
}
