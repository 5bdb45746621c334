import Foundation
import Scenery
import SceneryLive

/// A task on a member's board.
public struct BoardTask: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var title: String
    public var isDone: Bool

    public init(id: Int64, title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }
}

/// What the board's module calls: the tasks of a board, and the writes on them. Its changes
/// are ``BoardChange``s, followed while a board is on screen.
public protocol BoardService: ChangeFeed where Entity == BoardChange {
    /// The tasks of `owner`'s board, oldest first.
    func tasks(on owner: String) async throws -> [BoardTask]

    /// Ticks a task off, or back on.
    func setDone(_ isDone: Bool, task: Int64, on owner: String) async throws

    /// Removes a task: `viewer` must be the board's owner (`DataError.notPermitted` otherwise).
    func remove(task: Int64, from owner: String, by viewer: String) async throws

    /// Adds a task titled `title` to `owner`'s board and returns it: `viewer` must be the
    /// board's owner (`DataError.notPermitted` otherwise).
    func add(task title: String, to owner: String, by viewer: String) async throws -> BoardTask
}
