import Foundation
import Scenery

/// Waiting for another process's lock while a database is opened: a notice once, retries
/// until a deadline, then an error that names the database and what to do.
public enum LockWait {
    /// Runs `body` until it does not fail on a lock, or `timeout` has passed. Each try waits
    /// briefly for the lock itself (a quarter of a second), so the notice comes early.
    public static func retrying(
        on connection: SQLiteConnection, path: String, timeout: Duration, whileLocked: () -> Void, _ body: () throws(DataError) -> Void
    ) throws(DataError) {
        let deadline = ContinuousClock.now + timeout
        var noticed = false
        connection.setBusyTimeout(250)
        defer { connection.setBusyTimeout(5_000) }
        while true {
            do {
                try body()
                return
            } catch {
                guard connection.lastErrorWasBusy else { throw error }
                guard ContinuousClock.now < deadline else {
                    // A conflict: the same request may succeed once the other process is done.
                    let failure = DataError.storage(
                        "The database \(path.quoted) is locked by another process (waited \(Self.seconds(timeout)) s); let that process finish (an import or a generate, say) or stop it, then try again, or use another --database."
                    )
                    throw DataError(.conflict, failure.message)
                }
                if !noticed {
                    noticed = true
                    whileLocked()
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        (Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).formatted(.number)
    }
}
