import ProfileDemoDomain
import Scenery
import SceneryExperiments
import SceneryLive

/// A store of the profile data: the four profile services, the change feed, and what the
/// `scenery` tool and server do with a whole database (sign-in lists, export, import,
/// experiments' impressions).
///
/// Two stores conform: ``SQLiteProfileStore`` (embedded, one file, the default) and
/// `PostgresProfileStore` in the `ProfileDemoStorePostgres` library (several servers on one
/// database). Both pass the same conformance suite, so code written against this protocol
/// behaves the same on either:
///
/// ```swift
/// func signInList(from database: some ProfileDatabase) async throws -> [String] {
///     try await database.allUsers(limit: 20).map(\.name)
/// }
/// ```
///
/// A store is built on a site store (`SiteStoreBacked`: ``SQLiteProfileStore/site``,
/// `PostgresProfileStore.site`), whose location, listening, experiments' records and action
/// ledger are the store's, and on which the parts of an app keep their own tables. It is
/// the `ActionLedger` of the actions it wrote: a write made for an action
/// (`ActionKey.run(as:_:)`) records its key (`WriteContext.current.nextWriteKey()`) first, in the same
/// transaction, and throws `alreadyApplied`, writing nothing, when the key was recorded
/// already: an action is applied once even when two servers run it at the same moment.
///
/// Errors are `ProfileError` values whose `kind` says what a caller can do:
/// `notFound`, `notPermitted`, `conflict` (try again), `connectionLost` (the database went
/// away; try again later), `storage` and `invalidData`.
public protocol ProfileDatabase: ProfileService, BlogService, DraftService, RelationshipService, ChangeFeed, SiteStoreBacked
where Entity == ProfileChange {
    /// Every user, numeric ids in numeric order, at most `limit`: for sign-in pages.
    func allUsers(limit: Int) async throws(ProfileError) -> [User]

    /// Everything in the database, in id order.
    func exportData() async throws(ProfileError) -> ProfileDataSet

    /// Writes everything in the database as JSON: the same text as
    /// `exportData().encoded()`, in chunks handed to `write` in order.
    func exportJSON(to write: (String) throws -> Void) async throws

    /// Replaces everything in the database with `dataSet`, in one transaction.
    ///
    /// - Throws: `ProfileError.invalidData` listing every problem of the data set;
    ///   nothing is changed then.
    func importData(_ dataSet: ProfileDataSet) async throws(ProfileError)

    /// The profile's data as a part of the database's data (the store's `dataSet`): how
    /// `data export`, `import` and `reset` hold it with the data of the app's other parts.
    var partData: any PartData { get }

    /// Adds `count` generated blogs by `author`, an hour apart before the author's newest,
    /// in one transaction, and returns their ids.
    @discardableResult
    func addGeneratedBlogs(count: Int, author: UserID) async throws(ProfileError) -> ClosedRange<Int64>

    /// How many subscriptions to changes are open in this process (modules that show
    /// something live).
    var subscriptionCount: Int { get }

    /// How many open subscriptions follow `entity`.
    func subscriptionCount(for entity: ProfileChange) -> Int
}

extension ProfileDatabase {
    /// Every user, at most 100: for sign-in pages.
    public func allUsers() async throws(ProfileError) -> [User] { try await allUsers(limit: 100) }
}

extension ProfileDatabase {
    /// The database as the change feed modules follow (`any ProfileDatabase` does not
    /// convert to `any ChangeFeed<ProfileChange>` by itself).
    public var changeFeed: any ChangeFeed<ProfileChange> { self }
}
