import Scenery
import SceneryTesting
import Testing

/// Impressions count what people saw: half visible for a second (configurable), once per
/// page session, only for nodes on the page; an experiment's exposure is the first
/// impression of what its arms change. Time is given, never waited for.
@Suite struct ImpressionTests {
    let journal = ImpressionJournal()
    let start = ContinuousClock.now

    func scene(viewer: String? = "2", arm: String? = nil, rule: ImpressionRule = .standard, tabs: Bool = false) async throws -> SceneInstance {
        var source = ExperimentTests.profile
        if tabs {
            source = source.replacingOccurrences(
                of: #""variants": ["#,
                with:
                    #""layout": [ { "id": "sections", "tabs": [ { "id": "a", "title": "A", "modules": ["info"] }, { "id": "b", "title": "B", "modules": ["list"] } ] } ], "variants": ["#
            )
        }
        var registry = SceneRegistry.testing(TestService())
        #expect(!registry.addScene(id: "profile", source: source).containsErrors)
        registry.impressionSink = journal
        registry.impressionRule = rule
        let overrides = arm.map { ["list-layout": $0] } ?? [:]
        return try await registry.assemble(
            "profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"], armOverrides: overrides), host: RecordingHost())
    }

    @Test func aModuleHalfVisibleForASecondIsSeenOnce() async throws {
        let scene = try await scene()
        let deadline = try await scene.reportVisibility(of: "list", fraction: 0.6, at: start)
        #expect(deadline == start + .seconds(1))
        #expect(journal.records(.impression).isEmpty, "not yet: it has not been a second")
        await scene.recordImpressions(dueAt: start + .milliseconds(999))
        #expect(journal.records(.impression).isEmpty)
        await scene.recordImpressions(dueAt: start + .seconds(1))
        #expect(journal.records(.impression).map(\.module) == ["list"])
        try await scene.reportVisibility(of: "list", fraction: 1, at: start + .seconds(5))
        await scene.recordImpressions(dueAt: start + .seconds(10))
        #expect(journal.records(.impression).count == 1, "once per page session")
    }

    @Test func aModuleScrolledPastQuicklyIsNotSeen() async throws {
        let scene = try await scene()
        try await scene.reportVisibility(of: "list", fraction: 1, at: start)
        try await scene.reportVisibility(of: "list", fraction: 0, at: start + .milliseconds(300))
        #expect(await scene.recordImpressions(dueAt: start + .seconds(3)) == nil)
        try await scene.reportVisibility(of: "list", fraction: 0.4, at: start + .seconds(4))
        await scene.recordImpressions(dueAt: start + .seconds(9))
        #expect(journal.records(.impression).isEmpty, "40% is under the half the rule asks")
    }

    @Test func theRuleIsConfigurable() async throws {
        let scene = try await scene(rule: ImpressionRule(minimumVisibleFraction: 0.25, minimumDuration: .zero))
        try await scene.reportVisibility(of: "list", fraction: 0.3, at: start)
        #expect(journal.records(.impression).map(\.module) == ["list"])
    }

    @Test func theFirstImpressionOfWhatTheArmsChangeIsTheExposure() async throws {
        let scene = try await scene(viewer: "7")
        let arm = try #require(scene.assignments.first?.arm)
        #expect(journal.records(.assignment).map(\.arm) == [arm])
        try await scene.reportVisibility(of: "info", fraction: 1, at: start)
        await scene.recordImpressions(dueAt: start + .seconds(1))
        #expect(journal.records(.exposure).isEmpty, "info is the same in both arms")
        try await scene.reportVisibility(of: "list", fraction: 1, at: start + .seconds(2))
        await scene.recordImpressions(dueAt: start + .seconds(3))
        let exposure = try #require(journal.records(.exposure).first)
        #expect(exposure.experiment == "list-layout")
        #expect(exposure.arm == arm)
        #expect(exposure.unit == "7")
        #expect(exposure.module == "list")
        #expect(exposure.scene == "profile")
        #expect(journal.records(.exposure).count == 1)
    }

    @Test func anOverriddenArmIsNeitherAssignedNorExposed() async throws {
        let scene = try await scene(arm: "rows")
        try await scene.reportVisibility(of: "list", fraction: 1, at: start)
        await scene.recordImpressions(dueAt: start + .seconds(1))
        #expect(journal.records(.impression).count == 1)
        #expect(journal.records(.assignment).isEmpty)
        #expect(journal.records(.exposure).isEmpty)
    }

    @Test func aNodeNotOnThePageIsRefusedAndNeverCounted() async throws {
        let scene = try await scene(tabs: true)
        for node: NodeID in ["nowhere", "list", "info/row.1", "list/row.99", "secret"] {
            await #expect {
                try await scene.reportVisibility(of: node, fraction: 1, at: start)
            } throws: { error in
                (error as? SceneryError)?.code == .notOnPage
            }
        }
        await #expect(throws: SceneryError.self) { try await scene.reportVisibility(of: "info", fraction: 2, at: start) }
        await #expect(throws: SceneryError.self) { try await scene.reportVisibility(of: "info", fraction: .nan, at: start) }
        await scene.recordImpressions(dueAt: start + .seconds(5))
        #expect(journal.records(.impression).isEmpty)
    }

    @Test func rowsCountWhereTheirModuleAsks() async throws {
        let scene = try await scene(rule: ImpressionRule(minimumDuration: .zero))
        try await scene.reportVisibility(of: "list/row.1", fraction: 1, at: start)
        try await scene.reportVisibility(of: "list/row.1", fraction: 1, at: start)
        #expect(journal.records(.impression).map(\.node) == ["list/row.1"])
        #expect(journal.records(.exposure).isEmpty, "a row is not the module: the exposure waits for the module")
    }

    @Test func aFloodOfReportsCountsOneImpressionPerNode() async throws {
        let scene = try await scene(viewer: "7")
        for second in 0..<1_000 {
            try await scene.reportVisibility(of: "list", fraction: 1, at: start + .milliseconds(second * 10))
            try await scene.reportVisibility(of: "info", fraction: 1, at: start + .milliseconds(second * 10))
        }
        await scene.recordImpressions(dueAt: start + .seconds(20))
        #expect(journal.records(.impression).count == 2)
        #expect(journal.records(.exposure).count == 1)
    }

    @Test func aTerminalCountsEveryShownModuleAtOnce() async throws {
        let scene = try await scene(viewer: "7", tabs: true)
        await scene.recordImpressionsOfShownModules()
        #expect(journal.records(.impression).map(\.module) == ["info"], "the list is in the tab not shown")
        #expect(journal.records(.exposure).isEmpty)
        await scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "b"]))
        await scene.recordImpressionsOfShownModules()
        #expect(journal.records(.impression).map(\.module) == ["info", "list"])
        #expect(journal.records(.exposure).map(\.module) == ["list"])
    }

    @Test func aModuleWhoseTabIsSwitchedAwayStartsAgain() async throws {
        let scene = try await scene(tabs: true)
        await scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "b"]))
        try await scene.reportVisibility(of: "list", fraction: 1, at: start)
        await scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "a"]))
        #expect(await scene.recordImpressions(dueAt: start + .seconds(2)) == nil)
        #expect(journal.records(.impression).isEmpty)
    }
}
