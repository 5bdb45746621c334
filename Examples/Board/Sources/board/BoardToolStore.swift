import BoardStore
import Foundation
import Scenery
import SceneryExperiments
import SceneryLive
import SceneryTool

/// The board's database as the tool sees it: its members sign in, the site store keeps the
/// actions and experiments' records (and hears other servers), and `data export|import|reset`
/// read and write ``BoardDataSet`` documents.
public struct BoardToolStore: ToolStore, SiteStoreBacked {
    /// The board's data, on SQLite or PostgreSQL.
    public let board: any BoardDatabase
    public var backingSiteStore: any SiteStore { board }

    public init(board: any BoardDatabase) {
        self.board = board
    }

    public func signInAccounts() async throws(DataError) -> [ToolAccount] {
        try await board.members().map { ToolAccount(id: $0.id, name: $0.name) }
    }

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

    static func contents(of dataSet: BoardDataSet) -> String { "\(dataSet.members.count) members, \(dataSet.tasks.count) tasks" }
}
