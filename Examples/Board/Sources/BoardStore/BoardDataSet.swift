import Board
import Foundation
import Scenery
import SceneryLive
import ScenerySiteStore

/// The board app's whole data as a JSON document (format `scenery.board-data`): what
/// `board data export` writes and `board data import` reads.
public struct BoardDataSet: Codable, Sendable, Hashable {
    /// A task, with the board it is on.
    public struct TaskRecord: Codable, Sendable, Hashable {
        public var id: Int64
        public var board: String
        public var title: String
        public var done: Bool

        public init(id: Int64, board: String, title: String, done: Bool) {
            self.id = id
            self.board = board
            self.title = title
            self.done = done
        }
    }

    public var format = "scenery.board-data"
    public var members: [BoardMember]
    public var tasks: [TaskRecord]

    public init(members: [BoardMember], tasks: [TaskRecord]) {
        self.members = members
        self.tasks = tasks
    }

    /// The demo data a new database gets: three members, four tasks.
    public static let demo = BoardDataSet(
        members: [BoardMember(id: "1", name: "Ada"), BoardMember(id: "2", name: "Grace"), BoardMember(id: "3", name: "Linus")],
        tasks: [
            TaskRecord(id: 1, board: "1", title: "Plan the offsite", done: false), TaskRecord(id: 2, board: "1", title: "Book the room", done: false),
            TaskRecord(id: 3, board: "1", title: "Order the cake", done: true), TaskRecord(id: 4, board: "2", title: "Write the release notes", done: false),
        ])

    /// The data set a document holds.
    ///
    /// - Throws: `DataError` of kind `invalidData` listing every problem, each at its path.
    public static func decode(from document: Data) throws(DataError) -> BoardDataSet {
        let dataSet: BoardDataSet
        do {
            dataSet = try JSONDecoder().decode(BoardDataSet.self, from: document)
        } catch {
            throw DataError(.invalidData, "The document is not board data: \(error)", problems: [DataProblem(path: "", message: "\(error)")])
        }
        let problems = dataSet.problems
        guard problems.isEmpty else { throw DataError(.invalidData, "\(problems.count) problem(s) in the board data.", problems: problems) }
        return dataSet
    }

    /// What keeps it from being imported: another format, repeated ids, a task on the board
    /// of nobody, an empty title.
    public var problems: [DataProblem] {
        var problems: [DataProblem] = []
        if format != "scenery.board-data" { problems.append(DataProblem(path: "format", message: "must be \"scenery.board-data\".")) }
        var seen = Set<String>()
        for (index, member) in members.enumerated() where !seen.insert(member.id).inserted || member.id.isEmpty {
            problems.append(DataProblem(path: "members[\(index)].id", message: "must be a new, non-empty id; \(member.id.debugDescription) is not."))
        }
        var taskIDs = Set<Int64>()
        for (index, task) in tasks.enumerated() {
            if !taskIDs.insert(task.id).inserted { problems.append(DataProblem(path: "tasks[\(index)].id", message: "repeats the id \(task.id).")) }
            if !seen.contains(task.board) {
                problems.append(DataProblem(path: "tasks[\(index)].board", message: "names no member (\(task.board.debugDescription)); add the member first."))
            }
            if task.title.isEmpty { problems.append(DataProblem(path: "tasks[\(index)].title", message: "must not be empty.")) }
        }
        return problems
    }
}

extension SQLiteBoardStore {
    public func exportData() throws(DataError) -> BoardDataSet {
        let tasks = try site.withConnection { connection throws(DataError) in
            try connection.query("SELECT id, board, title, done FROM tasks ORDER BY id").map {
                BoardDataSet.TaskRecord(id: $0[0].integer, board: $0[1].text ?? "", title: $0[2].text ?? "", done: $0[3].integer == 1)
            }
        }
        return BoardDataSet(members: try members(), tasks: tasks)
    }

    /// - Throws: `DataError` of kind `invalidData` listing its problems; nothing is changed then.
    public func importData(_ dataSet: BoardDataSet) throws(DataError) {
        let problems = dataSet.problems
        guard problems.isEmpty else { throw DataError(.invalidData, "\(problems.count) problem(s) in the board data.", problems: problems) }
        try site.withConnection { connection throws(DataError) in
            try site.commit([BoardChange.everything], in: connection) { () throws(DataError) in
                try connection.execute("DELETE FROM tasks; DELETE FROM members;")
                try Self.insert(dataSet, in: connection)
            }
        }
    }
}
