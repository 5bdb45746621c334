import ProfileDemoDomain
import Scenery
import SceneryLive
import SceneryTesting

/// Subscribes to a change feed and records what arrives, for tests that wait on changes
/// (not on time).
final class ChangeRecorder: Sendable {
    private let log = AwaitableLog<ProfileChange>()
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts recording the changes to `entities`; the subscription is open on return.
    init(_ feed: some ChangeFeed<ProfileChange>, following entities: Set<ProfileChange>) {
        let stream = feed.changes(to: entities)
        task.withLock { task in
            task = Task { [log] in
                for await change in stream { log.append(change) }
            }
        }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// Everything received so far, in order.
    var changes: [ProfileChange] { log.elements }

    /// Waits for `change` to arrive; `false` if it did not within the log's safety bound.
    /// The bound is generous (a minute): a PostgreSQL server restarted on a loaded machine
    /// (a build beside the tests, the thread sanitizer) takes far longer than the default.
    func wait(for change: ProfileChange) async -> Bool { await log.wait(timeout: .seconds(60)) { $0.contains(change) } }
}
