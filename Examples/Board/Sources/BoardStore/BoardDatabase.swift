import Board
import Scenery
import SceneryExperiments
import SceneryLive

/// Where the board app keeps its data, on SQLite (``SQLiteBoardStore``) or PostgreSQL
/// (`PostgresBoardStore`, several servers on one database): the service its module calls,
/// and what its tool does with the whole database.
public protocol BoardDatabase: BoardService, ActionLedger {
    /// Where the data lives, for messages: a file path, or a URL without its password.
    var location: String { get }

    /// Everyone who may sign in, by id.
    func members() async throws(DataError) -> [BoardMember]

    /// Adds a task to `owner`'s board and returns its id.
    @discardableResult
    func addTask(_ title: String, on owner: String) async throws(DataError) -> Int64

    /// Everything in the database, in id order.
    func exportData() async throws(DataError) -> BoardDataSet

    /// Replaces everything with `dataSet` in one transaction; every page fetches again.
    func importData(_ dataSet: BoardDataSet) async throws(DataError)

    /// Appends experiments' records, in one transaction.
    func record(_ records: [ImpressionRecord]) async throws(DataError)

    /// How many distinct units each arm of each experiment was assigned and exposed.
    func experimentTallies() async throws(DataError) -> [ExperimentTally]

    /// Starts hearing other processes' writes now (a server calls it before taking pages).
    func listen() async throws(DataError)
}
