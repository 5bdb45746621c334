import ArgumentParser
import Foundation
import ProfileStore
import Scenery

/// Where the profile data lives.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The SQLite database file, or a PostgreSQL database's URL (postgres://USER@HOST:PORT/DB); created or seeded with demo data on first use.",
            discussion:
                "Default: $SCENERY_DATABASE, else $XDG_DATA_HOME/scenery/demo.sqlite, else ~/.local/share/scenery/demo.sqlite. A PostgreSQL URL runs the command in TOOL-serve, which has the PostgreSQL client.",
            valueName: "path-or-url"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "How long to wait for a database another process has locked, in seconds, before giving up.", valueName: "seconds"))
    var lockTimeout: Double = 30

    func validate() throws {
        guard lockTimeout >= 0, lockTimeout <= 3600 else {
            throw ValidationError("--lock-timeout must be from 0 to 3600 seconds, not \(lockTimeout).")
        }
    }

    /// The database path or URL in force.
    var path: String { database ?? Self.defaultPath }

    /// The database for messages: its path, or its URL without a password.
    var description: String { Self.redacted(path) }

    /// `location` without the password of a URL's `user:password@`.
    static func redacted(_ location: String) -> String {
        guard ToolDatabase.scheme(of: location) != nil, let start = location.range(of: "://")?.upperBound,
            let at = location[start...].firstIndex(of: "@"),
            let colon = location[start..<at].firstIndex(of: ":")
        else { return location }
        return String(location[..<colon]) + ":***" + String(location[at...])
    }

    static var defaultPath: String {
        if let path = environmentPath { return path }
        // $HOME first: FileManager's home directory ignores it on Linux.
        let home = Environment.value("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        let dataHome = Environment.value("XDG_DATA_HOME") ?? URL(filePath: home).appending(path: ".local/share").path
        return URL(filePath: dataHome).appending(path: "scenery/demo.sqlite").path
    }

    /// Opens the store, creating and seeding it if it is new. A read-only database opens
    /// for reading, unless the command `requiresWriting`; a locked one is waited for with a
    /// notice on standard error, up to `--lock-timeout`. A URL opens with the tool's
    /// ``ToolDatabase`` of its scheme.
    func openStore(seedDemoData: Bool = true, requiresWriting: Bool = false) async throws -> any ProfileDatabase {
        let path = self.path
        let timeout = lockTimeout
        if let scheme = ToolDatabase.scheme(of: path) {
            guard let driver = ToolDatabase.added.first(where: { $0.schemes.contains(scheme) }) else {
                let known = ToolDatabase.added.flatMap(\.schemes).sorted()
                throw CommandFailure(
                    "--database \(description.quoted): this tool opens SQLite files\(known.isEmpty ? "" : " and \(known.map { "\($0)://" }.joined(separator: ", ")) URLs"), not \(scheme):// URLs; give a file path or a postgres:// URL.",
                    code: .usage)
            }
            do {
                return try await driver.open(
                    path, ToolDatabase.OpenOptions(seedDemoData: seedDemoData, requiresWriting: requiresWriting, timeout: .milliseconds(Int64(timeout * 1000))))
            } catch {
                throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
            }
        }
        do {
            // Only the default location is created; a path someone typed must exist.
            return try SQLiteProfileStore(
                path: path, seedDemoData: seedDemoData, createsDirectory: database == nil && Self.environmentPath == nil,
                requiresWriting: requiresWriting, lockTimeout: .milliseconds(Int64(timeout * 1000))
            ) {
                Output.status(
                    "Waiting for the database \(path.quoted): another process holds a lock (giving up after \(timeout.formatted(.number)) s; --lock-timeout changes that)…\n"
                )
            }
        } catch {
            throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
        }
    }

    /// `$SCENERY_DATABASE`, if set.
    static var environmentPath: String? {
        Environment.value("SCENERY_DATABASE")
    }
}
