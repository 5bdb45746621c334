import Scenery
import Testing

/// A suite that drives modules itself (`module.handle`, `perform`, a store's write beside
/// them) instead of through a scene: its tests run as a host runs a viewer's action, under
/// a bound write context (``WriteContext/isBound``), so a module's write is made for an
/// action as it is on a page, and debug builds do not stop at it.
struct DrivesModulesAsAHost: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ActionKey.run(as: nil) { try await function() }
    }
}

extension Trait where Self == DrivesModulesAsAHost {
    /// Runs each test as a host runs a viewer's action (see ``DrivesModulesAsAHost``).
    static var drivesModulesAsAHost: Self { Self() }
}
