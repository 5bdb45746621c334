import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryExperiments
import SceneryLive
import SceneryTool

/// The profile demo's database as the tool sees it: the accounts of its users, the actions
/// and impressions it records, and its data set (JSON format `scenery.profile-data`).
///
/// The profile catalog's registrations take the database back with
/// `services.store(as: ProfileToolStore.self).database`; `services.profileServices()`
/// does that and applies the tool's faults.
///
/// ```swift
/// let store = ProfileToolStore(try SQLiteProfileStore(path: ":memory:"))
/// let services = ToolServices(store: store)
/// registry.registerProfileModules(try services.profileServices())
/// ```
public struct ProfileToolStore: ToolStore, SiteStoreBacked {
    /// The profile database.
    public let database: any ProfileDatabase

    /// The tool's view of `database`.
    public init(_ database: any ProfileDatabase) {
        self.database = database
    }

    /// The profile database's: its location, listening, experiments' records and action
    /// ledger are the tool's, and the app's other parts keep their tables on its site store.
    public var backingSiteStore: any SiteStore { database }

    public func signInAccounts() async throws(DataError) -> [ToolAccount] {
        try await database.allUsers().map { ToolAccount(id: $0.id.rawValue, name: $0.name) }
    }

    public func hasAccount(_ id: String) async throws(DataError) -> Bool {
        do {
            _ = try await database.profile(of: UserID(id), viewer: nil)
            return true
        } catch let error as DataError where error.kind == .notFound {
            return false
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(.storage, "Cannot look up user \(id.quoted) in \(location.quoted): \(error.localizedDescription)")
        }
    }

    /// Accounts change only with the whole data set (an import or a reset, in this process
    /// or another): the feed's `everything`.
    public func followAccounts(_ accountsChanged: @escaping @Sendable () async -> Void) async {
        for await _ in database.changeFeed.changes(to: []) { await accountsChanged() }
    }

    public func exportJSON(to write: (String) throws -> Void) async throws { try await database.exportJSON(to: write) }

    public func importJSON(_ document: Data) async throws(DataError) -> String {
        let dataSet = try ProfileDataSet.decode(from: document)
        try await database.importData(dataSet)
        return dataSet.contentsInWords
    }

    /// The profile's data, which joins the data of the tool's other parts in one file.
    public var appDataSet: (any PartData)? { database.partData }

    public func resetToDemoData() async throws(DataError) -> String {
        try await database.importData(DemoData.dataSet)
        return DemoData.dataSet.contentsInWords
    }

}
