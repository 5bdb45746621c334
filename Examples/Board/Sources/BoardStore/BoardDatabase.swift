import Board
import Scenery
import SceneryExperiments
import SceneryLive

/// Where the board app keeps its data, on SQLite (``SQLiteBoardStore``) or PostgreSQL
/// (`PostgresBoardStore`, several servers on one database): the service its module calls,
/// and what its tool does with the whole database. A site store too: its ledger,
/// experiments' records and listening are its site store's.
public protocol BoardDatabase: BoardService, SiteStore {
    /// Everyone who may sign in, by id.
    func members() async throws(DataError) -> [BoardMember]

    /// Adds a task to `owner`'s board and returns its id.
    @discardableResult
    func addTask(_ title: String, on owner: String) async throws(DataError) -> Int64

    /// Everything in the database, in id order.
    func exportData() async throws(DataError) -> BoardDataSet

    /// Replaces everything with `dataSet` in one transaction; every page fetches again.
    func importData(_ dataSet: BoardDataSet) async throws(DataError)
}
