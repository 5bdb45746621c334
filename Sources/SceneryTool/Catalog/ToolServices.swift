import ProfileDomain
import Scenery

/// What the tool hands a ``ModuleCatalog`` when a command runs scenes: the data, and the
/// faults asked for on the command line.
///
/// A catalog's factories take the services their modules need from here, or make their own
/// (wrapped with ``faults``, so `--fail` and `--latency` reach them too).
public struct ToolServices: Sendable {
    /// The profile services over the tool's database, with the faults applied.
    public var profiles: ProfileServices
    /// The faults of `--fail` and `--latency`, to wrap a catalog's own services with.
    public var faults: FaultInjector
    /// The database in use (`--database`): a SQLite file's path or a PostgreSQL URL, for a
    /// catalog that keeps data beside it.
    public var databasePath: String

    public init(profiles: ProfileServices, faults: FaultInjector, databasePath: String) {
        self.profiles = profiles
        self.faults = faults
        self.databasePath = databasePath
    }
}
