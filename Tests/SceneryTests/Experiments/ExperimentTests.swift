import Scenery
import SceneryExperiments
import SceneryTesting
import Testing

/// Experiments in scene files: deterministic, sticky assignment by weight; arms that change
/// the scene as variants do; overrides; and validation of every arm, privacy included.
@Suite struct ExperimentTests {
    static let profile = """
        {
          "parameters": { "user": "userID" },
          "modules": [
            { "id": "info", "type": "ProfileModule", "params": { "user": "$user" } },
            { "id": "list", "type": "ItemsModule", "display": "carousel", "params": { "owner": "$user" } }
          ],
          "variants": [
            { "name": "owner", "when": "viewer == user",
              "add": [ { "id": "secret", "type": "SecretModule", "params": { "owner": "$user" } } ] }
          ],
          "experiments": [
            { "name": "list-layout",
              "arms": [
                { "name": "carousel", "weight": 1 },
                { "name": "rows", "weight": 1, "display": { "list": "rows" }, "params": { "list": { "pageSize": 2 } } }
              ] }
          ]
        }
        """

    func registry(_ source: String = profile) -> SceneRegistry {
        var registry = SceneRegistry.testing(TestService())
        let problems = registry.addScene(id: "profile", source: source)
        #expect(!problems.containsErrors, "\(problems)")
        return registry
    }

    func assemble(_ context: SceneContext, in registry: SceneRegistry) async throws -> SceneInstance {
        try await registry.assemble("profile", for: context, host: RecordingHost())
    }

    func displayOfList(_ tree: ViewNode) -> ViewNode.ListLayout? {
        tree.allNodes.lazy.compactMap { node -> ViewNode.ListLayout? in
            if case .list(let layout, _) = node.kind { layout } else { nil }
        }.first
    }

    @Test func aViewerGetsTheSameArmEveryTime() async throws {
        let registry = registry()
        var arms: Set<String> = []
        for _ in 0..<3 {
            let scene = try await assemble(SceneContext(viewer: "7", arguments: ["user": "1"]), in: registry)
            #expect(scene.assignments.count == 1)
            arms.insert(scene.assignments[0].arm)
        }
        #expect(arms.count == 1)
    }

    @Test func armsSplitPeopleByTheirWeights() {
        let even = Experiment(name: "split", arms: [.init(name: "a", weight: 50), .init(name: "b", weight: 50)])
        let skewed = Experiment(name: "split", arms: [.init(name: "a", weight: 9), .init(name: "b", weight: 1)])
        var evenCounts: [String: Int] = [:]
        var skewedCounts: [String: Int] = [:]
        for unit in 0..<10_000 {
            evenCounts[even.arm(for: "\(unit)").name, default: 0] += 1
            skewedCounts[skewed.arm(for: "\(unit)").name, default: 0] += 1
        }
        // 3 standard deviations of a fair split of 10,000 is 150.
        #expect(abs(evenCounts["a", default: 0] - 5_000) < 150, "\(evenCounts)")
        #expect(abs(skewedCounts["a", default: 0] - 9_000) < 90, "\(skewedCounts)")
    }

    @Test func anArmChangesTheSceneAsAVariantDoes() async throws {
        let registry = registry()
        for arm in ["carousel", "rows"] {
            let scene = try await assemble(
                SceneContext(viewer: "7", arguments: ["user": "1"], armOverrides: ["list-layout": arm]), in: registry)
            let tree = await scene.render()
            #expect(scene.assignments == [ExperimentAssignment(experiment: "list-layout", arm: arm, unit: "7", isOverridden: true, exposingModules: ["list"])])
            #expect(displayOfList(tree) == (arm == "rows" ? .rows : .carousel))
            #expect(scene.variant == "default")
        }
    }

    @Test func theArmAppliesOverTheVariantTheContextChose() async throws {
        let scene = try await assemble(
            SceneContext(viewer: "1", arguments: ["user": "1"], armOverrides: ["list-layout": "rows"]), in: registry())
        #expect(scene.variant == "owner")
        #expect(scene.modules == ["info", "list", "secret"])
        #expect(displayOfList(await scene.render()) == .rows)
    }

    @Test func signedOutPeopleTakePartOnlyWithAnAnonymousID() async throws {
        let registry = registry()
        let nobody = try await assemble(SceneContext(viewer: nil, arguments: ["user": "1"]), in: registry)
        #expect(nobody.assignments.isEmpty)
        #expect(displayOfList(await nobody.render()) == .carousel)
        let visitor = try await assemble(SceneContext(viewer: nil, arguments: ["user": "1"], anonymousID: "cookie-42"), in: registry)
        #expect(visitor.assignments.map(\.unit) == ["cookie-42"])
    }

    @Test func anExperimentsConditionDecidesWhoTakesPart() async throws {
        let source = Self.profile.replacingOccurrences(of: #"{ "name": "list-layout","#, with: #"{ "name": "list-layout", "when": "viewer != user","#)
        let registry = registry(source)
        let owner = try await assemble(SceneContext(viewer: "1", arguments: ["user": "1"], armOverrides: ["list-layout": "rows"]), in: registry)
        #expect(owner.assignments.isEmpty, "an override does not bring in someone the experiment leaves out")
        #expect(displayOfList(await owner.render()) == .carousel)
        let other = try await assemble(SceneContext(viewer: "2", arguments: ["user": "1"]), in: registry)
        #expect(other.assignments.count == 1)
    }

    @Test func anOverrideNamingNoArmIsAnErrorThatListsTheArms() async throws {
        await #expect {
            _ = try await assemble(SceneContext(viewer: "2", arguments: ["user": "1"], armOverrides: ["list-layout": "row"]), in: registry())
        } throws: { error in
            (error as? SceneryError)?.message == "The experiment 'list-layout' of 'profile' has no arm 'row'; did you mean 'rows'? (arms: carousel, rows)."
        }
    }

    @Test func armsThatDifferOnlyInLayoutExposeOnAnyModule() async throws {
        let source = Self.profile.replacingOccurrences(
            of: #""display": { "list": "rows" }, "params": { "list": { "pageSize": 2 } }"#, with: #""layout": ["list", "info"]"#)
        let scene = try await assemble(SceneContext(viewer: "2", arguments: ["user": "1"], armOverrides: ["list-layout": "rows"]), in: registry(source))
        #expect(scene.modules == ["list", "info"])
        #expect(scene.assignments.first?.exposingModules == [])
        #expect(scene.assignments.first?.isExposed(by: "info") == true)
    }

    @Test func armsThatShowAContextNothingDifferentNeverExposeIt() async throws {
        // The arm changes the owner's secret module, which a visitor's variant does not have.
        let source = Self.profile.replacingOccurrences(
            of: #""display": { "list": "rows" }, "params": { "list": { "pageSize": 2 } }"#,
            with: #""extends": "owner", "params": { "secret": { "owner": "$user" } }"#
        ).replacingOccurrences(of: #"{ "name": "list-layout","#, with: #"{ "name": "list-layout", "when": "viewer == user","#)
        let owner = try await assemble(SceneContext(viewer: "1", arguments: ["user": "1"], armOverrides: ["list-layout": "carousel"]), in: registry(source))
        #expect(owner.assignments.first?.armsDiffer == false, "the owner's page is the same under both arms")
        #expect(owner.assignments.first?.isExposed(by: "list") == false)
    }

    @Test func aChildSceneRunsItsParentsExperiments() async throws {
        var registry = registry()
        #expect(registry.addScene(id: "child", source: #"{ "extends": "profile", "title": "Child" }"#).isEmpty)
        #expect(registry.experiments(of: "child").map(\.name) == ["list-layout"])
        let scene = try await registry.assemble("child", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        #expect(scene.assignments.map(\.experiment) == ["list-layout"])
    }

    // MARK: Bad input

    func problems(_ experiments: String) -> [Diagnostic] {
        var registry = SceneRegistry.testing(TestService())
        let source = Self.profile.replacingOccurrences(of: #""experiments": ["#, with: #""experiments": [ \#(experiments),"#)
        return registry.addScene(id: "profile", source: source)
    }

    @Test(arguments: [("0", "the weight 0"), ("-5", "the weight -5"), ("\"half\"", "the weight a string")])
    func aWeightMustBePositive(weight: String, written: String) {
        let found = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": \#(weight) }, { "name": "b", "weight": 1 } ] }"#)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.message == "The arm 'a' has \(written); a weight must be a positive number, its share against the other arms' weights.")
        #expect(found.first?.location?.line == 11)
    }

    @Test func weightsSummingToZeroAreEachAnError() {
        let found = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": 0 }, { "name": "b", "weight": 0 } ] }"#)
        #expect(found.filter { $0.message.contains("a weight must be a positive number") }.count == 2, "\(found)")
    }

    @Test func armNamesAreUniqueAndAnExperimentNeedsTwo() {
        let twice = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": 1 }, { "name": "a", "weight": 1 } ] }"#)
        #expect(twice.map(\.message) == ["The experiment 'w' has two arms named 'a'; give each arm its own name."])
        let one = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": 1 } ] }"#)
        #expect(one.map(\.message) == ["The experiment 'w' has 1 arm; it needs at least two to compare (the first may change nothing)."])
        let sameName = problems(#"{ "name": "list-layout", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1 } ] }"#)
        #expect(sameName.first?.message == "Two experiments are named 'list-layout'; give each its own name (assignment hashes it).")
    }

    @Test func anArmExtendingAMissingVariantIsAnErrorAtItsLineAndColumn() {
        let found = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "extends": "ownr" } ] }"#)
        let problem = found.first { $0.path.hasSuffix("extends") }
        #expect(
            problem?.message
                == "The arm 'b' of the experiment 'w' extends 'ownr', which is not a variant of 'profile' (did you mean 'owner'?); name one of: owner, default."
        )
        #expect(problem?.location?.line == 11)
        #expect(problem?.location?.column == 114)
    }

    @Test func anArmCannotShowAPrivateModuleToSomeoneWhoMayNotSeeIt() {
        let leaking = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "extends": "owner" } ] }"#)
        #expect(
            leaking.map(\.message) == [
                "SecretModule 'secret' shows private data of '$user' but is in the arm 'b' of the experiment 'w' (over the variant 'owner'), whose people are not all user; give the experiment \"when\": \"viewer == user\", or do not extend a variant that shows it."
            ])
        #expect(leaking.first?.path == "experiments[0].arms[1]")
        let adding = problems(
            #"{ "name": "w", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "add": [ { "id": "s2", "type": "SecretModule", "params": { "owner": "$user" } } ] } ] }"#
        )
        #expect(
            adding.contains {
                $0.message.hasPrefix("SecretModule 's2' shows private data of '$user' but is in the arm 'b' of the experiment 'w' (over the variant 'default')")
            }, "\(adding)")
        let scoped = problems(
            #"{ "name": "w", "when": "viewer == user", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "extends": "owner" } ] }"#)
        #expect(scoped.isEmpty, "\(scoped)")
    }

    @Test func twoExperimentsMayNotBothReplaceTheLayout() {
        let found = problems(
            #"{ "name": "first", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "layout": ["list", "info"] } ] }, { "name": "second", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "layout": ["info", "list"] } ] }"#
        )
        #expect(
            found.map(\.message) == [
                "The arm 'b' of 'second' replaces the page's layout, as an arm of 'first' does; one person can be in both, and only one layout can apply. Run them one after the other, or as one experiment with more arms."
            ])
    }

    @Test func anArmNamingAModuleTheSceneLacksIsAnError() {
        let found = problems(#"{ "name": "w", "arms": [ { "name": "a", "weight": 1 }, { "name": "b", "weight": 1, "display": { "lst": "rows" } } ] }"#)
        #expect(found.first?.message == "Cannot change how 'lst' is displayed: no such module here (did you mean 'list'?).")
        #expect(found.first?.location?.line == 11)
    }
}

/// The sample-ratio-mismatch check: a chi-squared test of assigned counts against weights.
@Suite struct SampleRatioCheckTests {
    @Test func anEvenSplitOfTenThousandIsNoMismatchAndAFiftyTwoFortyEightSplitIs() {
        let even = SampleRatioCheck(counts: [5_030, 4_970], weights: [50, 50])
        #expect(abs(even.chiSquared - 0.36) < 1e-9)
        #expect(abs(even.pValue - 0.5485) < 1e-4)
        #expect(!even.isMismatched)
        let broken = SampleRatioCheck(counts: [5_200, 4_800], weights: [50, 50])
        #expect(abs(broken.chiSquared - 16) < 1e-9)
        #expect(abs(broken.pValue - 6.334e-5) < 1e-7)
        #expect(broken.isMismatched)
    }

    @Test func thePValueMatchesTheChiSquaredTableForSeveralArms() {
        // Critical values at p = 0.05 for 1, 2, 3 and 9 degrees of freedom.
        for (statistic, degrees) in [(3.841, 1), (5.991, 2), (7.815, 3), (16.919, 9)] {
            let p = SampleRatioCheck.upperRegularizedGamma(Double(degrees) / 2, statistic / 2)
            #expect(abs(p - 0.05) < 2e-4, "df \(degrees): \(p)")
        }
        #expect(SampleRatioCheck.upperRegularizedGamma(1, 0) == 1)
    }

    @Test func aSimulatedRunOfTenThousandViewersPassesAndASkewedOneWarns() {
        let experiment = Experiment(name: "friends-layout", arms: [.init(name: "a", weight: 50), .init(name: "b", weight: 50)])
        var counts = [0, 0]
        for viewer in 0..<10_000 { counts[experiment.arm(for: "\(viewer)").name == "a" ? 0 : 1] += 1 }
        #expect(!SampleRatioCheck(counts: counts, weights: [50, 50]).isMismatched, "\(counts)")
        // Declared 50/50, assigned 52/48: a broken split.
        let skewed = Experiment(name: "friends-layout", arms: [.init(name: "a", weight: 52), .init(name: "b", weight: 48)])
        var skewedCounts = [0, 0]
        for viewer in 0..<10_000 { skewedCounts[skewed.arm(for: "\(viewer)").name == "a" ? 0 : 1] += 1 }
        #expect(SampleRatioCheck(counts: skewedCounts, weights: [50, 50]).isMismatched, "\(skewedCounts)")
    }
}
