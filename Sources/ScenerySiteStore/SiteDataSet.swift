import Foundation
import Scenery
import SceneryExperiments

/// A part's data on a ``SQLiteSiteStore``: its section of a data file, written, read back
/// and reset inside the transaction the store runs for every part at once.
///
/// Most parts keep a `Codable` value as their section:
///
/// ```swift
/// struct GuestbookData: Codable, Sendable {
///     var messages: [Message]
/// }
///
/// let guestbookData = SiteDataSet(
///     app: "guestbook", empty: GuestbookData(messages: []), demo: GuestbookData(messages: [.welcome]),
///     read: { connection throws(DataError) in
///         GuestbookData(messages: try connection.query("SELECT id, author, text FROM guestbook_messages ORDER BY id").map(Message.init))
///     },
///     replace: { data, connection throws(DataError) in
///         try connection.run("DELETE FROM guestbook_messages")
///         for message in data.messages { try message.insert(in: connection) }
///         return "\(data.messages.count) messages"
///     })
/// ```
public struct SiteDataSet: PartData {
    public let app: String
    /// Writes the part's section as JSON, inside the export's read transaction.
    let export: @Sendable (SQLiteConnection, _ write: (String) throws -> Void) throws -> Void
    /// Replaces the part's rows with a section (`nil`: none in the file), inside the
    /// import's transaction, and says what the part holds.
    let replace: @Sendable (Data?, SQLiteConnection) throws(DataError) -> String
    /// Makes the section `data reset` puts back.
    let demo: @Sendable () -> Data?

    public var demoSection: Data? { demo() }

    /// Puts the part's demo data into its new tables: a schema's seed.
    ///
    /// ```swift
    /// static let tables = SiteSchema(app: "guestbook", steps: [...]) { try data.seed(in: $0) }
    /// ```
    public func seed(in connection: SQLiteConnection) throws(DataError) {
        _ = try replace(demo(), connection)
    }

    /// A part whose section is written by `export` (in chunks, for a large data set) and
    /// read by `replace` from the file's text of the section, or `nil` when the file has none.
    ///
    /// - Parameters:
    ///   - app: The part's name: its section of the file (as its tables' ``SiteSchema/app``).
    ///   - export: Writes the section, a JSON value, reading in the given connection.
    ///   - replace: Replaces every row of the part with the section's, in the given
    ///     connection's transaction, and returns what the part holds in words ("2 messages");
    ///     throws `DataError` of kind `invalidData` with a problem per path of the section.
    ///   - demo: The section `data reset` puts back (`nil`: none, the part is emptied).
    public init(
        app: String, export: @escaping @Sendable (SQLiteConnection, _ write: (String) throws -> Void) throws -> Void,
        replace: @escaping @Sendable (_ section: Data?, SQLiteConnection) throws(DataError) -> String,
        demo: @escaping @Sendable () -> Data? = { nil }
    ) {
        self.app = app
        self.export = export
        self.replace = replace
        self.demo = demo
    }

    /// A part whose section is a `Codable` value: read whole by `read`, written back by
    /// `replace`; a file without the section replaces the part's data with `empty`.
    ///
    /// - Parameters:
    ///   - app: The part's name: its section of the file (as its tables' ``SiteSchema/app``).
    ///   - empty: The part's data when the file has no section for it.
    ///   - demo: What `data reset` puts back (`nil`: `empty`).
    ///   - read: Reads the part's data, in the export's read transaction.
    ///   - replace: Replaces every row of the part with the data, in the import's
    ///     transaction, and returns what the part holds in words ("2 messages").
    public init<Section: Codable & Sendable>(
        app: String, empty: Section, demo: Section? = nil, read: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Section,
        replace: @escaping @Sendable (Section, SQLiteConnection) throws(DataError) -> String
    ) {
        self.init(
            app: app,
            export: { connection, write in try write(String(decoding: try PartSection.encode(try read(connection)), as: UTF8.self)) },
            replace: { section, connection throws(DataError) in try replace(try section.map(PartSection.decode) ?? empty, connection) },
            demo: { try? PartSection.encode(demo ?? empty) })
    }
}

extension SQLiteSiteStore {
    public func exportData(of parts: [any PartData], to write: (String) throws -> Void) async throws {
        let dataSets = try SiteDataFormat.parts(parts, of: SiteDataSet.self, on: "the SQLite database \(path.quoted)")
        var failure: (any Error)?
        try withoutActuallyEscaping(write) { write in
            try withConnection { connection throws(DataError) in
                // One snapshot of every part: a read transaction.
                try connection.execute("BEGIN DEFERRED")
                defer { try? connection.execute("COMMIT") }
                do {
                    try SiteDataFormat.write(dataSets, to: write) { index in try dataSets[index].export(connection, write) }
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
    }

    public func replaceData(of parts: [any PartData], with sections: [String: Data]) async throws(DataError) -> [String] {
        let dataSets = try SiteDataFormat.parts(parts, of: SiteDataSet.self, on: "the SQLite database \(path.quoted)")
        return try await withConnection { connection throws(DataError) in
            try self.commitEverything(in: connection) { () throws(DataError) -> [String] in
                var replacements = PartReplacements()
                for dataSet in dataSets {
                    try replacements.record(Result { () throws(DataError) in try dataSet.replace(sections[dataSet.app], connection) }, of: dataSet.app)
                }
                return try replacements.finished()
            }
        }
    }
}
