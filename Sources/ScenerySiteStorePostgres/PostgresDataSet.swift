import Foundation
import Logging
import PostgresNIO
import Scenery
import SceneryExperiments

/// A part's data on a ``PostgresSiteStore``: its section of a data file, written, read
/// back and reset inside the transaction the store runs for every part at once.
///
/// Most parts keep a `Codable` value as their section:
///
/// ```swift
/// let guestbookData = PostgresDataSet(
///     app: "guestbook", empty: GuestbookData(messages: []),
///     read: { connection, logger in
///         GuestbookData(messages: try await connection.query("SELECT id, author, text FROM guestbook_messages ORDER BY id", logger: logger)
///             .decode((Int64, String, String).self).map(Message.init).collect())
///     },
///     replace: { data, connection, logger in
///         try await connection.query("DELETE FROM guestbook_messages", logger: logger)
///         for message in data.messages { try await message.insert(on: connection, logger: logger) }
///         return "\(data.messages.count) messages"
///     })
/// ```
public struct PostgresDataSet: PartData {
    public let app: String
    /// Reads the part's section as JSON text, in the export's snapshot.
    let export: @Sendable (PostgresConnection, Logger) async throws -> Data
    /// Replaces the part's rows with a section (`nil`: none in the file), inside the
    /// import's transaction, and says what the part holds.
    let replace: @Sendable (Data?, PostgresConnection, Logger) async throws -> String
    /// Makes the section `data reset` puts back.
    let demo: @Sendable () -> Data?

    public var demoSection: Data? { demo() }

    /// Puts the part's demo data into its new tables: a schema's seed.
    ///
    /// ```swift
    /// static let tables = PostgresSiteSchema(app: "guestbook", steps: [...]) { try await data.seed(on: $0, logger: $1) }
    /// ```
    public func seed(on connection: PostgresConnection, logger: Logger) async throws {
        _ = try await replace(demo(), connection, logger)
    }

    /// A part whose section is read by `export` as JSON text and written back by `replace`
    /// from the file's text of the section, or `nil` when the file has none.
    ///
    /// - Parameters:
    ///   - app: The part's name: its section of the file (as its tables'
    ///     ``PostgresSiteSchema/app``).
    ///   - export: Reads the section, a JSON value, in the export's snapshot.
    ///   - replace: Replaces every row of the part with the section's, in the import's
    ///     transaction, and returns what the part holds in words ("2 messages"); throws
    ///     `DataError` of kind `invalidData` with a problem per path of the section.
    ///   - demo: The section `data reset` puts back (`nil`: none, the part is emptied).
    public init(
        app: String, export: @escaping @Sendable (PostgresConnection, Logger) async throws -> Data,
        replace: @escaping @Sendable (_ section: Data?, PostgresConnection, Logger) async throws -> String,
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
    ///   - app: The part's name: its section of the file (as its tables'
    ///     ``PostgresSiteSchema/app``).
    ///   - empty: The part's data when the file has no section for it.
    ///   - demo: What `data reset` puts back (`nil`: `empty`).
    ///   - read: Reads the part's data, in the export's snapshot.
    ///   - replace: Replaces every row of the part with the data, in the import's
    ///     transaction, and returns what the part holds in words ("2 messages").
    public init<Section: Codable & Sendable>(
        app: String, empty: Section, demo: Section? = nil, read: @escaping @Sendable (PostgresConnection, Logger) async throws -> Section,
        replace: @escaping @Sendable (Section, PostgresConnection, Logger) async throws -> String
    ) {
        self.init(
            app: app, export: { connection, logger in try PartSection.encode(try await read(connection, logger)) },
            replace: { section, connection, logger in try await replace(try section.map(PartSection.decode) ?? empty, connection, logger) },
            demo: { try? PartSection.encode(demo ?? empty) })
    }
}

extension PostgresSiteStore {
    public func exportData(of parts: [any PartData], to write: (String) throws -> Void) async throws {
        let dataSets = try SiteDataFormat.parts(parts, of: PostgresDataSet.self, on: "the PostgreSQL database \(location.quoted)")
        let sections = try await reading("export the data") { connection, logger in
            // One snapshot of every part.
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                var sections: [Data] = []
                for dataSet in dataSets { sections.append(try await dataSet.export(connection, logger)) }
                try await connection.query("COMMIT", logger: logger)
                return sections
            } catch {
                await Self.rollBack(connection, logger: logger)
                throw error
            }
        }
        try SiteDataFormat.write(dataSets, to: write) { index in try write(String(decoding: sections[index], as: UTF8.self)) }
    }

    public func replaceData(of parts: [any PartData], with sections: [String: Data]) async throws(DataError) -> [String] {
        let dataSets = try SiteDataFormat.parts(parts, of: PostgresDataSet.self, on: "the PostgreSQL database \(location.quoted)")
        // Not a notification of rows: every server's pages of every app fetch again.
        let everything = #"{"o": "\#(origin)", "everything": true}"#
        let contents = try await write("import the data", payload: everything, locking: nil) { connection, logger in
            var replacements = PartReplacements()
            for dataSet in dataSets {
                let outcome: Result<String, DataError>
                do {
                    outcome = .success(try await dataSet.replace(sections[dataSet.app], connection, logger))
                } catch let error as DataError {
                    outcome = .failure(error)
                }
                try replacements.record(outcome, of: dataSet.app)
            }
            return try replacements.finished()
        }
        publishEverything()
        return contents
    }
}
