import Foundation
import Scenery

/// An app's tables on one kind of site store: what a part of an app (a feature package,
/// the app itself) declares so that the store of the app's database makes and migrates
/// them beside every other part's, in one transaction.
///
/// `SiteSchema` (SQLite) and `PostgresSiteSchema` (PostgreSQL) are part schemas; a part
/// that runs on both declares one of each under the same ``app`` name. A catalog of the
/// `scenery` tool hands its parts' schemas to the database it opens
/// (`ModuleCatalog.addingTables(_:)`):
///
/// ```swift
/// static let guestbook = ModuleCatalog(modules: [GuestbookModule.descriptor]) { registry, services in
///     let site = try services.siteStore()        // the app's database, with the tables below
///     registry.register(GuestbookModule.self) { parameters, context in
///         try GuestbookModule(parameters: parameters, context: context, book: Guestbook(site))
///     }
/// }
/// .addingTables(
///     SiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (…)"]),
///     PostgresSiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (…)"]))
/// ```
public protocol PartSchema: Sendable {
    /// The name the part's tables are versioned under (as its entities' `RecordedEntity.app`):
    /// unique among the parts on one database.
    var app: String { get }
}

/// A part's data on one kind of site store: how its rows are written to a data file, read
/// back and reset, inside the transaction the store runs for every part at once.
///
/// `SiteDataSet` (SQLite) and `PostgresDataSet` (PostgreSQL) are part data; a part that
/// runs on both declares one of each under the same ``app`` name, the name of its tables
/// (``PartSchema/app``) and of its section of a data file:
///
/// ```json
/// { "format": "scenery.site-data", "version": 1,
///   "parts": { "profile": { "users": […], … }, "guestbook": { "messages": […] } } }
/// ```
///
/// The `scenery` tool's `data export`, `import` and `reset` cover every part a catalog
/// declares data for (`ModuleCatalog.addingData(_:)`) with the app's own data set, and an
/// import that fails in any part changes nothing in any part.
public protocol PartData: Sendable {
    /// The part's name: its section of a data file; unique among the parts on one database.
    var app: String { get }

    /// The section `data reset` puts back (the part's demo data, as a data file holds it),
    /// or `nil` to empty the part.
    var demoSection: Data? { get }
}

/// What a data file of every part says about itself.
package enum SiteDataFormat {
    /// The `format` of a data file of several parts.
    package static let name = "scenery.site-data"
    /// The newest `version` this program reads and writes.
    package static let version = 1

    /// Writes a data file of `parts`: the file's own members, and each part's section under
    /// its name, written by `section` (given the part's index, writing with `write` too) in order.
    package static func write<Part: PartData>(_ parts: [Part], to write: (String) throws -> Void, section: (Int) throws -> Void) throws {
        try write("{\"format\": \"\(name)\", \"version\": \(version), \"parts\": {")
        for (index, part) in parts.enumerated() {
            try write("\(index == 0 ? "" : ",")\n\(PartSection.jsonString(part.app)): ")
            try section(index)
        }
        try write("\n}}")
    }

    /// The parts' data of one kind of store, in order: each part declares its data for
    /// every kind of database it runs on.
    ///
    /// - Throws: `DataError` naming a part that keeps no data of this kind (it cannot run on
    ///   this database), or two parts of one name.
    package static func parts<Kind: PartData>(_ parts: [any PartData], of kind: Kind.Type, on database: String) throws(DataError) -> [Kind] {
        try PartKinds.pick(
            Kind.self, from: parts, app: \.app,
            twice: { "Two parts keep data under the name '\($0)' in \(database); give each part's data a name of its own." },
            lacking: { app, other in
                "The part '\(app)' keeps its data as \(other) only, not as a \(Kind.self): its data cannot be exported or imported in \(database). Give the part a \(Kind.self)."
            })
    }
}

/// What replacing every part's data came to, part by part: what each holds, or every
/// problem of every section (their paths under `parts.NAME`).
package struct PartReplacements {
    private var problems: [DataProblem] = []
    private var contents: [String] = []

    package init() {}

    /// Takes what replacing the data of the part `app` came to: a problem of its section is
    /// kept (the others' are still checked); any other failure ends the import, naming the part.
    package mutating func record(_ outcome: Result<String, DataError>, of app: String) throws(DataError) {
        switch outcome {
        case .success(let words):
            contents.append(words)
        case .failure(let error) where error.kind == .invalidData:
            problems += error.problems.map { DataProblem(path: $0.path.isEmpty ? "parts.\(app)" : "parts.\(app).\($0.path)", message: $0.message) }
        case .failure(let error):
            throw DataError(error.kind, "The data of the part '\(app)' could not be written: \(error.message)")
        }
    }

    /// What every part holds, in words, in order; or `invalidData` with every problem
    /// (nothing is changed in any part then: the caller's transaction rolls back).
    package func finished() throws(DataError) -> [String] {
        guard problems.isEmpty else { throw .invalidData(problems) }
        return contents
    }
}

/// What a part declares once for each kind of database it runs on (its tables, its data),
/// picked for one kind.
package enum PartKinds {
    /// The declarations of `kind` among `declarations`, in order, each named by `app`.
    ///
    /// - Throws: `DataError` of kind `storage` worded by `twice` (with the name) when two
    ///   declarations of the kind have one name, or by `lacking` (the name and the kind it
    ///   has) when a part declares only other kinds: it cannot run on this database.
    package static func pick<Declaration, Kind>(
        _ kind: Kind.Type, from declarations: [Declaration], app: (Declaration) -> String, twice: (String) -> String,
        lacking: (String, Any.Type) -> String
    ) throws(DataError) -> [Kind] {
        let ofKind = declarations.filter { $0 is Kind }
        if let repeated = ofKind.map(app).firstRepeated() { throw DataError(.storage, twice(repeated)) }
        let apps = Set(ofKind.map(app))
        if let other = declarations.first(where: { !apps.contains(app($0)) }) {
            throw DataError(.storage, lacking(app(other), type(of: other as Any)))
        }
        return ofKind.compactMap { $0 as? Kind }
    }
}

extension Sequence where Element == String {
    /// The first name that occurs twice, if any: two parts that declare the tables of one
    /// app would each migrate them.
    package func firstRepeated() -> String? {
        var seen = Set<String>()
        return first { !seen.insert($0).inserted }
    }
}

/// A part's section as JSON, both ways.
package enum PartSection {
    package static func encode<Section: Encodable>(_ section: Section) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(section)
    }

    /// A section decoded, or its problems as `invalidData` (paths within the section).
    package static func decode<Section: Decodable>(_ data: Data) throws(DataError) -> Section {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Section.self, from: data)
        } catch let error as DecodingError {
            throw .invalidData([DataProblem(decoding: error)])
        } catch {
            throw .invalidData([DataProblem(path: "", message: "\(error)")])
        }
    }

    /// `text` as a JSON string.
    package static func jsonString(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}

extension DataProblem {
    /// What a decoder says is wrong, at the path it names.
    package init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("") { path, key in
                if let index = key.intValue { return "\(path)[\(index)]" }
                return path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)"
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: path(context.codingPath), message: "lacks \"\(key.stringValue)\"; add it.")
        case .typeMismatch(let type, let context):
            self.init(path: path(context.codingPath), message: "must be \(Self.name(of: type)); fix that value.")
        case .valueNotFound(let type, let context):
            self.init(path: path(context.codingPath), message: "is null; give \(Self.name(of: type)).")
        case .dataCorrupted(let context):
            self.init(path: path(context.codingPath), message: "\(context.debugDescription); fix that value.")
        @unknown default:
            self.init(path: "", message: "\(error)")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is Date.Type: "a date (ISO 8601)"
        default: "a value of another kind (\(type))"
        }
    }
}
