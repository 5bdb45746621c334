import ArgumentParser
import Foundation
import ProfileStore
import Scenery

/// Where the profile data lives.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The SQLite database; created and seeded with demo data on first use.",
            discussion: "Default: $SCENERY_DATABASE, else $XDG_DATA_HOME/scenery/demo.sqlite, else ~/.local/share/scenery/demo.sqlite.",
            valueName: "path"))
    var database: String?

    /// The database path in force.
    var path: String { database ?? Self.defaultPath }

    static var defaultPath: String {
        if let path = environmentPath { return path }
        // $HOME first: FileManager's home directory ignores it on Linux.
        let home = Environment.value("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        let dataHome = Environment.value("XDG_DATA_HOME") ?? URL(filePath: home).appending(path: ".local/share").path
        return URL(filePath: dataHome).appending(path: "scenery/demo.sqlite").path
    }

    /// Opens the store, creating and seeding it if it is new.
    func openStore(seedDemoData: Bool = true) throws -> SQLiteProfileStore {
        do {
            // Only the default location is created; a path someone typed must exist.
            return try SQLiteProfileStore(path: path, seedDemoData: seedDemoData, createsDirectory: database == nil && Self.environmentPath == nil)
        } catch {
            throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
        }
    }

    /// `$SCENERY_DATABASE`, if set.
    static var environmentPath: String? {
        Environment.value("SCENERY_DATABASE")
    }
}
