import Foundation
import SceneryFaults
import SceneryTesting
import Testing

@testable import Scenery

/// The exhaustive module harness: it passes when a test accounts for everything a module
/// does, and fails — saying what was left — when it does not.
@Suite struct ModuleHarnessTests {
    let service = TestService()

    func profile(viewer: String? = "2") throws -> ModuleHarness<ProfileTestModule> {
        try ModuleHarness(ProfileTestModule.self, parameters: ["user": "1"], viewer: viewer, id: "info") {
            try ProfileTestModule(parameters: $0, context: $1, service: service)
        }
    }

    @Test func fillsDefaultsAndRefusesParametersThatDoNotFit() throws {
        // "greeting" is left out: the descriptor's default fills it in.
        _ = try profile()
        #expect(throws: ParameterError.self) {
            try ModuleHarness(ProfileTestModule.self, parameters: ["user": true]) {
                try ProfileTestModule(parameters: $0, context: $1, service: service)
            }
        }
    }

    @Test func accountsForEveryUpdateAndEventInOrder() async throws {
        let harness = try profile()
        try await harness.load { try RenderExpectation.shows("Profile of Alice").verify($0) }
        // Unfollow bubbles (the module passes it up), then its default action runs.
        let disposition = try await harness.tap("follow") { try RenderExpectation.shows("Follow").verify($0) }
        #expect(disposition == .pass)
        try await harness.receiveEvent("user.unfollow") { #expect($0.payload["name"] == "Alice") }
        try await harness.receiveUpdate { try RenderExpectation.hides("Unfollow").verify($0) }
        // Follow is handled inside the module: an update, no event.
        try await harness.tap("follow") { try RenderExpectation.shows("Unfollow").verify($0) }
        try await harness.receiveUpdate { try RenderExpectation.shows("Unfollow").verify($0) }
        try harness.finish()
        #expect(service.journal.all.contains("unfollow 1"))
    }

    @Test func aFailedActionIsAnEffectTheTestTakes() async throws {
        service.setBehavior(.fail("The follow service is down."), for: "write")
        let harness = try profile()
        try await harness.load { _ in }
        try await harness.tap("follow") { _ in }
        try await harness.receiveEvent("user.unfollow")
        try await harness.receiveFailure { #expect($0 == "The follow service is down.") }
        try harness.finish()
        try await harness.tap("follow") { _ in }
        try await harness.receiveEvent("user.unfollow")
        let unaccounted = #expect(throws: ExpectationFailure.self) { try harness.finish() }
        #expect(unaccounted?.message.contains("the action of 'user.unfollow' failed: The follow service is down.") == true)
        #expect(!service.journal.all.contains("unfollow 1"))
    }

    @Test func anEffectLeftUnaccountedForFailsTheNextStep() async throws {
        let harness = try profile()
        try await harness.load { _ in }
        try await harness.tap("follow") { _ in }
        let failure = await #expect(throws: ExpectationFailure.self) { try await harness.load(.refresh) { _ in } }
        #expect(failure?.message.hasPrefix("Before load(.refresh), the module did 2 thing(s) the test did not account for") == true)
        #expect(failure?.message.contains("the event 'user.unfollow'") == true)
    }

    @Test func aChangedTreeMustBeDescribed() async throws {
        let harness = try profile()
        let failure = await #expect(throws: ExpectationFailure.self) { try await harness.load() }
        #expect(failure?.message.contains("the module's tree changed, and the test did not describe it") == true)
        #expect(failure?.message.contains("Profile of Alice") == true)
    }

    @Test func receivingTheWrongEffectSaysWhatCameInstead() async throws {
        let harness = try profile()
        try await harness.load { _ in }
        try await harness.tap("follow") { _ in }
        let failure = await #expect(throws: ExpectationFailure.self) { try await harness.receiveUpdate { _ in } }
        #expect(failure?.message.contains("but the module's next effect was the event 'user.unfollow'") == true)
        let none = await #expect(throws: ExpectationFailure.self) { try await harness.receiveEvent("user.follow", timeout: .milliseconds(50)) }
        #expect(none?.message.contains("Expected the event 'user.follow' sent up, but the module's next effect was an update") == true)
    }

    @Test func aLoadFailureReachesTheTest() async throws {
        service.setBehavior(.fail("down"), for: "info")
        let harness = try profile()
        await #expect(throws: TestServiceError.self) { try await harness.load() }
    }
}

/// Faults for any service by name, not only the profile ones.
@Suite struct FaultInjectionTests {
    @Test func failsAndDelaysNamedServicesForTheOperationsAsked() async throws {
        let injector = FaultInjector(FaultPlan([.fail("bin", operations: [.write])]))
        try await injector.apply("bin", .read)
        await #expect(throws: InjectedFault(service: "bin", message: "The bin service is unavailable (injected fault).")) {
            try await injector.apply("bin", .write)
        }
        // A delayed call waits (cancellably): cancelled while waiting, it ends at once.
        injector.currentPlan = FaultPlan([.delay("search", by: .seconds(60))])
        let call = Task { try await injector.apply("search", .read) }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        injector.currentPlan = FaultPlan()
        try await injector.apply("bin", .write)
    }
}
