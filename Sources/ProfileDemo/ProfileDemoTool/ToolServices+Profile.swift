import ProfileDemo
import ProfileDemoDomain
import SceneryTool

extension ToolServices {
    /// The profile services over the tool's profile database, with the tool's faults
    /// (`--fail`, `--latency`) applied.
    ///
    /// - Throws: `SceneryError` when the tool opened another app's store.
    public func profileServices() throws -> ProfileServices {
        ProfileServices(try store(as: ProfileToolStore.self).database).injectingFaults(from: faults)
    }
}
