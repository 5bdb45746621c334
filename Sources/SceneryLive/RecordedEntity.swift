import Scenery

/// A live entity a store records in its change table (and a PostgreSQL store sends in a
/// notification) so that other processes on the database learn of it: a kind and an id as
/// text, under the app's name.
///
/// Apps on one database never wake each other's modules: each row carries its app's
/// ``app``, and a store hands a row only to the feeds of that app. A row of the app that
/// ``init(kind:id:)`` cannot read back (a program of another version wrote it, or someone
/// edited the table) makes that app's subscribers fetch everything, and the store reports
/// it naming the app, the entity and the database; it never crashes and never shows a wrong
/// page.
///
/// ```swift
/// extension BoardChange: RecordedEntity {
///     static let app = "board"
///
///     var record: (kind: String, id: String) {
///         switch self {
///         case .task(let id): ("task", String(id))
///         case .everything: ("everything", "")
///         }
///     }
///
///     init?(kind: String, id: String) {
///         guard kind == "task", let id = Int(id) else { return nil }
///         self = .task(id)
///     }
/// }
/// ```
public protocol RecordedEntity: LiveEntity {
    /// The app's name: 1 to 64 letters, digits, `-`, `_` or `.`, the same in every process.
    static var app: String { get }

    /// The entity as a row: its kind (`"task"`) and its id as text (`"7"`). A store never
    /// asks it of ``LiveEntity/everything``, which it records itself.
    var record: (kind: String, id: String) { get }

    /// The entity a row records, or `nil` when it is not one this program knows.
    init?(kind: String, id: String)
}

extension RecordedEntity {
    /// Whether ``app`` is a name a store accepts: 1 to 64 letters, digits, `-`, `_` or `.`.
    public static var hasValidAppName: Bool {
        (1...64).contains(app.utf8.count)
            && app.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }
}

extension RecordedEntity {
    /// `changes` as rows a store records or announces (`everything` as kind `everything`),
    /// each checked: an app name or a row a store cannot keep is an error naming the app,
    /// the entity and `database`, and nothing is written.
    ///
    /// - Throws: `DataError` of kind `invalidData`.
    public static func records(of changes: [Self], for database: String) throws(DataError) -> [(kind: String, id: String)] {
        guard hasValidAppName else {
            throw DataError(
                .invalidData,
                "The app name \(app.quoted) of \(Self.self) cannot be recorded in the database \(database.quoted): use 1 to 64 letters, digits, '-', '_' or '.'; nothing was written."
            )
        }
        return try changes.map { change throws(DataError) -> (kind: String, id: String) in
            if change == everything { return ("everything", "") }
            let (kind, id) = change.record
            guard (1...64).contains(kind.utf8.count), kind != "everything", !kind.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
                id.utf8.count <= 1024
            else {
                throw DataError(
                    .invalidData,
                    "The app '\(app)' records the change \(change) as kind \(kind.quoted) and id of \(id.utf8.count) bytes, which the database \(database.quoted) cannot keep: a kind is 1 to 64 characters, no control characters, not 'everything'; an id at most 1,024 bytes. Nothing was written."
                )
            }
            return (kind, id)
        }
    }

    /// The changes `rows` of this app record, read back: `everything` when one of them says
    /// so, or when one cannot be read (another version of the program wrote it, or someone
    /// edited it); `report` then hears of it, naming the app, the entity and `database`.
    public static func changes(recordedAs rows: [(kind: String, id: String)], in database: String, report: (String) -> Void) -> Set<Self> {
        var changes: Set<Self> = []
        for row in rows {
            if row.kind == "everything" { return [everything] }
            guard let change = Self(kind: row.kind, id: row.id) else {
                report(
                    "A change of the app '\(app)' in the database \(database.quoted) names the entity \(row.kind.quoted) with id \(row.id.quoted), which \(Self.self) cannot read (another version of the program wrote it, or it was edited); its pages fetch everything they show instead."
                )
                return [everything]
            }
            changes.insert(change)
        }
        return changes
    }
}
