import BoardStore
import Foundation
import Scenery
import SceneryExperiments
import SceneryLive
import SceneryTool

/// The board's database as the tool sees it: its members sign in, the site store keeps the
/// actions and experiments' records, and `data export|import|reset` read and write
/// ``BoardDataSet`` documents.
public struct BoardToolStore: ToolStore {
    /// The board's data, on SQLite or PostgreSQL.
    public let board: any BoardDatabase

    public init(board: any BoardDatabase) {
        self.board = board
    }

    public var location: String { board.location }

    public func signInAccounts() async throws(DataError) -> [ToolAccount] {
        try await board.members().map { ToolAccount(id: $0.id, name: $0.name) }
    }

    public func listen() async throws(DataError) { try await board.listen() }

    public func reportFanOuts(to observer: @escaping @Sendable (FanOut) -> Void) { board.observeFanOuts(observer) }

    public func record(_ records: [ImpressionRecord]) async throws(DataError) { try await board.record(records) }

    public func experimentTallies() async throws(DataError) -> [ExperimentTally] { try await board.experimentTallies() }

    public func exportJSON(to write: (String) throws -> Void) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(String(decoding: try encoder.encode(try await board.exportData()), as: UTF8.self))
    }

    public func importJSON(_ document: Data) async throws(DataError) -> String {
        let dataSet = try BoardDataSet.decode(from: document)
        try await board.importData(dataSet)
        return Self.contents(of: dataSet)
    }

    public func resetToDemoData() async throws(DataError) -> String {
        try await board.importData(.demo)
        return Self.contents(of: .demo)
    }

    public func hasApplied(_ key: ActionKey) async throws -> Bool { try await board.hasApplied(key) }

    public func claim(_ key: ActionKey) async throws -> Bool { try await board.claim(key) }

    static func contents(of dataSet: BoardDataSet) -> String { "\(dataSet.members.count) members, \(dataSet.tasks.count) tasks" }
}
