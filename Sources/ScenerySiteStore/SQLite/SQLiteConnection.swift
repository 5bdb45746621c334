import CSQLite
import Scenery

/// A value SQLite stores: what a statement binds and a query returns.
///
/// ```swift
/// let rows = try connection.query("SELECT id, title FROM tasks WHERE board = ?", [.integer(board)])
/// let title = rows.first?[1].text
/// ```
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// Text (NUL characters kept).
    case text(String)

    /// Text, or `NULL` for `nil`.
    public init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    /// An integer.
    public init(_ integer: Int64) { self = .integer(integer) }
    /// An integer.
    public init(_ integer: Int) { self = .integer(Int64(integer)) }
    /// A double.
    public init(_ real: Double) { self = .real(real) }

    /// The value as text (a number as its digits); `nil` for `NULL`.
    public var text: String? {
        switch self {
        case .text(let value): value
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .null: nil
        }
    }

    /// The value as an integer; `0` when it has none (a REAL too large, text that is not a
    /// number, NULL). Never traps: databases may hold what this program did not write; see
    /// ``checkedInteger`` where such a value must be an error.
    public var integer: Int64 { checkedInteger ?? 0 }

    /// The value as an integer, or `nil` when it is not one (or not representable).
    public var checkedInteger: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): value.isFinite && value == value.rounded() && abs(value) < 9.2e18 ? Int64(value) : nil
        case .text(let value): Int64(value)
        case .null: nil
        }
    }

    /// The value as a double; `0` when it has none.
    public var real: Double {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        case .text(let value): Double(value) ?? 0
        case .null: 0
        }
    }
}

/// One SQLite connection: statements with bound arguments, transactions, nothing more.
/// Every failure is a `DataError` that names the database (a lock held past the busy
/// timeout is a `conflict`: the same write may succeed when tried again).
///
/// Not thread-safe by itself: it is `@unchecked Sendable` only so it can live inside a
/// store's lock (`Locked`), and every call must happen with that lock held.
///
/// ```swift
/// let connection = try SQLiteConnection(path: ":memory:")
/// try connection.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// try connection.transaction { () throws(DataError) in
///     try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Write the docs")])
/// }
/// ```
public final class SQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    /// Prepared statements by their SQL, reset and kept after use, so that a query asked
    /// again (a row fetched for each open page) is not parsed again. A statement in use is
    /// taken out, so the same SQL asked inside a ``forEachRow(_:_:_:)`` body is prepared
    /// anew.
    private var kept: [String: OpaquePointer] = [:]
    /// The most statements kept; past it a statement is finalized after use.
    static let keptStatements = 64
    /// The database file, or `:memory:`.
    public let path: String

    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read and write, creating the file if needed (SQLite falls back to reading only
        /// when the file cannot be written: see ``isReadOnly``).
        case readWrite
        /// Read only, with the usual locking (needs the WAL's shared-memory file).
        case readOnly
        /// Read only, without locking, for a read-only file in a folder this process cannot
        /// write (SQLite cannot make the WAL's shared-memory file there).
        case immutable
    }

    /// Opens the database at `path` (creating it if needed, in `.readWrite` mode);
    /// `:memory:` for a private in-memory database.
    public init(path: String, mode: Mode = .readWrite) throws(DataError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        var name = path
        switch mode {
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            if path != ":memory:" { name = Self.uri(path) }
        case .readOnly:
            flags |= SQLITE_OPEN_READONLY
            name = Self.uri(path) + "?mode=ro"
        case .immutable:
            flags |= SQLITE_OPEN_READONLY
            name = Self.uri(path) + "?mode=ro&immutable=1"
        }
        let status = sqlite3_open_v2(name, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(status)"
            sqlite3_close_v2(handle)
            handle = nil
            throw .storage("Cannot open the database \(path.quoted): \(message). Check the path and its permissions.")
        }
        sqlite3_busy_timeout(handle, 5_000)
        try execute("PRAGMA foreign_keys = ON")
    }

    /// A `file:` URI for a path (so a path with `?` or `#` still names a file).
    private static func uri(_ path: String) -> String {
        var allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_.~".utf8)
        allowed.insert(UInt8(ascii: ":"))
        var text = "file:"
        for byte in path.utf8 {
            if allowed.contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }

    /// Whether SQLite opened the file for reading only (it does when the file or its
    /// folder cannot be written, whatever mode was asked for).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether the last call failed because another connection holds a lock.
    public var lastErrorWasBusy: Bool {
        let code = sqlite3_errcode(handle) & 0xFF
        return code == SQLITE_BUSY || code == SQLITE_LOCKED
    }

    /// How long a statement waits for another connection's lock before failing.
    public func setBusyTimeout(_ milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    deinit {
        for statement in kept.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// How many prepared statements the connection keeps for their SQL (for tests).
    var keptStatementCount: Int { kept.count }

    private func error(_ context: String) -> DataError {
        if sqlite3_errcode(handle) & 0xFF == SQLITE_READONLY {
            return .storage(
                "The database \(path.quoted) is read-only (its file or folder cannot be written), so this change was not saved; make both writable, or use another --database."
            )
        }
        let code = sqlite3_errcode(handle) & 0xFF
        let failure = DataError.storage("\(context) in \(path.quoted): \(String(cString: sqlite3_errmsg(handle)))")
        // Another connection held the lock past the busy timeout: the same write may succeed
        // when tried again.
        return code == SQLITE_BUSY || code == SQLITE_LOCKED ? DataError(.conflict, failure.message) : failure
    }

    /// Runs one or more statements without arguments (schema, pragmas).
    public func execute(_ sql: String) throws(DataError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            sqlite3_free(message)
            if sqlite3_errcode(handle) & 0xFF == SQLITE_READONLY { throw error("") }
            let text = String(cString: sqlite3_errmsg(handle))
            throw .storage("\(text) (in \(path.quoted))")
        }
    }

    /// Runs a query and returns its rows.
    public func query(_ sql: String, _ arguments: [SQLValue] = []) throws(DataError) -> [[SQLValue]] {
        let statement = try prepare(sql, arguments)
        defer { finish(statement, sql) }
        var rows: [[SQLValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error("Query failed") }
            let count = sqlite3_column_count(statement)
            rows.append((0..<count).map { column(statement, $0) })
        }
    }

    /// Runs a query and hands its rows over one at a time, with their index, so a large
    /// table is never held in memory whole.
    public func forEachRow(
        _ sql: String, _ arguments: [SQLValue] = [], _ body: ([SQLValue], Int) throws(DataError) -> Void
    ) throws(DataError) {
        let statement = try prepare(sql, arguments)
        defer { finish(statement, sql) }
        var index = 0
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error("Query failed") }
            let count = sqlite3_column_count(statement)
            try body((0..<count).map { column(statement, $0) }, index)
            index += 1
        }
    }

    /// Runs a statement that changes data; returns the number of rows changed.
    @discardableResult
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(DataError) -> Int {
        let statement = try prepare(sql, arguments)
        defer { finish(statement, sql) }
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw error("Statement failed") }
        return Int(sqlite3_changes(handle))
    }

    /// The row id of the last insert.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Where the database's data stands, as this connection sees it: it changes with every
    /// row this connection writes and with every commit of another connection (another
    /// process), so an answer read at one version is still true while the version is the
    /// same. `nil` inside a transaction, where a write may yet be rolled back.
    public func dataVersion() throws(DataError) -> DataVersion? {
        guard sqlite3_get_autocommit(handle) != 0 else { return nil }
        let others = try query("PRAGMA data_version").first?.first?.integer ?? 0
        return DataVersion(ownChanges: sqlite3_total_changes64(handle), othersCommits: others)
    }

    /// A position of a connection's data (``dataVersion()``).
    public struct DataVersion: Hashable, Sendable {
        /// How many rows the connection has inserted, updated or deleted since it opened.
        public var ownChanges: Int64
        /// SQLite's `data_version`: it changes when another connection commits.
        public var othersCommits: Int64
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    @discardableResult
    public func transaction<T>(_ body: () throws(DataError) -> T) throws(DataError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A statement for `sql` with `arguments` bound: a kept one, or one prepared now.
    private func prepare(_ sql: String, _ arguments: [SQLValue]) throws(DataError) -> OpaquePointer? {
        var statement = kept.removeValue(forKey: sql)
        if statement == nil, sqlite3_prepare_v2(handle, sql, -1, &statement, nil) != SQLITE_OK {
            throw error("Cannot prepare a statement")
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch argument {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
            case .real(let value): status = sqlite3_bind_double(statement, index, value)
            case .text(let value):
                // With its byte length, so text with NUL characters is stored whole.
                var utf8 = value
                status = utf8.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { characters in
                        if let address = characters.baseAddress {
                            sqlite3_bind_text(statement, index, address, Int32(characters.count), transient)
                        } else {
                            sqlite3_bind_text(statement, index, "", 0, transient)  // empty text, not NULL
                        }
                    }
                }
            }
            guard status == SQLITE_OK else {
                sqlite3_finalize(statement)
                throw error("Cannot bind argument \(index)")
            }
        }
        return statement
    }

    /// Resets a statement after use and keeps it for its SQL; finalizes it when its last
    /// step failed (a reset then reports the failure), when one is kept for that SQL
    /// already, or past ``keptStatements``.
    private func finish(_ statement: OpaquePointer?, _ sql: String) {
        guard let statement else { return }
        guard sqlite3_reset(statement) == SQLITE_OK, kept[sql] == nil, kept.count < Self.keptStatements else {
            sqlite3_finalize(statement)
            return
        }
        sqlite3_clear_bindings(statement)
        kept[sql] = statement
    }

    private func column(_ statement: OpaquePointer?, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
        case SQLITE_NULL: .null
        default:
            // By byte count, not up to the first NUL.
            .text(
                sqlite3_column_text(statement, index).map { text in
                    String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
                } ?? "")
        }
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
