import Logging
import PostgresNIO
import Scenery

extension PostgresSiteStore {
    /// What the service calls throw for an error of the driver or the server: a
    /// `DataError` whose kind says what the caller can do, and whose
    /// message names the database (never its password) and what to check.
    public func dataError(_ error: any Error, doing action: String) -> DataError {
        if let error = error as? DataError { return error }
        let place = "PostgreSQL at \(url.redacted.quoted)"
        guard let error = error as? PSQLError else {
            return DataError(
                .connectionLost,
                "Cannot reach \(place) to \(action) (\(error)); check that the server runs and that the URL's host, port, user and database are right."
            )
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            case "40001", "40P01":
                return .conflict("\(place) could not \(action) because another write touched the same rows at the same time; try again.")
            case _ where state.hasPrefix("08"), "57P01", "57P02", "57P03":
                return DataError(.connectionLost, "\(place) stopped answering while trying to \(action) (\(message)); it retries once the server is back.")
            case "28P01", "28000":
                return .storage("\(place) refused the user \(url.user.quoted) (\(message)); check the user and password in the URL.")
            case "22021":
                // Text with a NUL character: no stored id or text has one.
                return DataError(.notFound, "Nothing in \(place) has that id: it contains a NUL character, which no stored id can.")
            case "3D000":
                return .storage("\(place) has no database \(url.database.quoted); create it (createdb \(url.database)) or fix the URL.")
            default:
                return .storage("\(place) refused to \(action): \(message) (SQLSTATE \(state)).")
            }
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            let reason = error.underlying.map { String(describing: $0) } ?? "the connection closed"
            return DataError(
                .connectionLost,
                "Lost the connection to \(place) while trying to \(action) (\(reason)); check that the server runs. The next call connects again.")
        case .sslUnsupported:
            return .storage("\(place) does not offer TLS, which the URL requires; add ?sslmode=disable on a private network, or turn on TLS.")
        case .authMechanismRequiresPassword:
            return .storage("\(place) asks for a password for \(url.user.quoted); put it in the URL (postgres://USER:PASSWORD@…).")
        default:
            return .storage("\(place) failed to \(action): \(String(reflecting: error)).")
        }
    }

    /// Runs a read, turning driver errors into `DataError`.
    public func reading<T: Sendable>(
        _ action: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DataError) -> T {
        do {
            try await renewPoolIfSuspect()
            return try await leasing(body)
        } catch {
            throw failure(error, doing: action)
        }
    }

    /// Runs `body` with a connection of the pool. While the server is away the pool keeps
    /// trying to connect, and a page should hear so in seconds, not when the pool gives up:
    /// a call that gets no connection fails after the store's `timeout` — unless other calls finished
    /// with one in that time. Then the server is there and busy, and the call waits on, in its turn
    /// (a burst of 200 writes on 8 connections under load is a queue, not a lost server).
    /// Once it has its connection, `body` takes as long as it takes.
    public func leasing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let leased = Locked(false)
        let (client, logger, timeout, lastAnswer) = (self.client, self.logger, self.timeout, self.lastAnswer)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    leased.withLock { $0 = true }
                    let value = try await Self.givingUpIfClosed(connection) { try await body(connection, logger) }
                    lastAnswer.withLock { $0 = .now }
                    return value
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            while let result = try await group.next() {
                if let value = result {
                    group.cancelAll()
                    return value
                }
                guard !leased.withLock({ $0 }) else { continue }
                // No connection yet: wait on while other calls finish with theirs (the server
                // answers), fail when none has for a whole timeout.
                let progressed = lastAnswer.withLock { $0.map { ContinuousClock.now - $0 < timeout } ?? false }
                guard progressed else {
                    group.cancelAll()
                    throw PostgresUnanswered(timeout: timeout)
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
            }
            throw PostgresUnanswered(timeout: timeout)
        }
    }
}

extension PostgresSiteStore {
    /// Runs `work` on `connection`, giving up on it when the connection has closed and `work`
    /// still has not returned a moment later: the driver may never answer a query sent as its
    /// connection closed (after the server restarted, a `BEGIN` on a connection the pool had
    /// just lent, or the `ROLLBACK` after a lost query, waited forever, and with it the
    /// action of a page). The call fails as a lost connection (so the pool is renewed); the
    /// abandoned query stays suspended, holding nothing but its closed connection.
    static func givingUpIfClosed<T: Sendable>(_ connection: PostgresConnection, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let waiting = Locked<CheckedContinuation<T, any Error>?>(nil)
        let tasks = Locked<(worker: Task<Void, Never>?, watcher: Task<Void, Never>?)>((nil, nil))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.withLock { $0 = continuation }
                let worker = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await work()) } catch { result = .failure(error) }
                    waiting.withLock { $0.take() }?.resume(with: result)
                    tasks.withLock { $0.watcher }?.cancel()
                }
                let watcher = Task {
                    var closedFor = 0
                    while !Task.isCancelled, waiting.withLock({ $0 != nil }) {
                        try? await Task.sleep(for: closedWorkCheck)
                        closedFor = connection.isClosed ? closedFor + 1 : 0
                        if closedFor >= 2, let continuation = waiting.withLock({ $0.take() }) {
                            continuation.resume(throwing: PostgresConnectionClosed())
                            tasks.withLock { $0.worker }?.cancel()
                        }
                    }
                }
                tasks.withLock { $0 = (worker, watcher) }
            }
        } onCancel: {
            tasks.withLock { $0.worker }?.cancel()
        }
    }

    /// How often a call on a connection checks whether the connection has closed under it.
    static let closedWorkCheck: Duration = .milliseconds(500)

    /// Rolls back the connection's transaction; when even that fails (the task was cancelled,
    /// the connection broke), closes the connection, so the pool never lends out one that is
    /// still inside a transaction.
    public static func rollBack(_ connection: PostgresConnection, logger: Logger) async {
        do {
            try await connection.query("ROLLBACK", logger: logger)
        } catch {
            try? await connection.close()
        }
    }
}

/// A query's connection closed and the driver did not answer it.
struct PostgresConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection closed under a query that got no answer" }
}

/// No connection of the pool could be had in time: the server does not answer.
struct PostgresUnanswered: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "no connection within \(timeout)" }
}

extension PostgresSiteStore {

    /// `error` as a `DataError`, noting a lost connection so the next
    /// call checks the server and renews the pool.
    public func failure(_ error: any Error, doing action: String) -> DataError {
        let failure = Self.plain(dataError(error, doing: action))
        if failure.kind == .connectionLost { poolIsSuspect.withLock { $0 = true } }
        if failure.kind == .connectionLost || failure.kind == .storage { logger.warning("\(failure.message)") }
        return failure
    }

    /// The error with a message for people viewing pages: every message of this store names
    /// the server (host, port, user, database), which stays in the log.
    public static func plain(_ error: DataError) -> DataError {
        guard error.plainMessage == nil else { return error }
        switch error.kind {
        case .connectionLost: return error.withPlainMessage("The data is out of reach for a moment; try again shortly.")
        case .storage: return error.withPlainMessage("The data could not be read or written just now; try again later.")
        case .conflict: return error.withPlainMessage("Someone changed this at the same moment; try again.")
        case .notFound where error.message.contains("PostgreSQL at"): return error.withPlainMessage("Nothing has that id.")
        default: return error
        }
    }
}
