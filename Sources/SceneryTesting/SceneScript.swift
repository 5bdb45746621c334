import Scenery

/// A whole screen's behaviour as a list of steps: assemble a scene for a context, then
/// tap, send and check — headless, in a few lines.
///
/// ```swift
/// try await SceneScript(
///     "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
///     steps: [
///         .expect(.shows("Alice")),
///         .expect(.lacksModule("drafts")),
///         .tap("info/follow", answering: [false]),
///         .expectRoute(["module info: passed", "scene: asked 'Unfollow Alice?', declined"]),
///         .tap("info/follow", answering: [true]),
///         .expectResult(.delivered),
///     ]
/// ).run()
/// ```
///
/// A failing step throws ``ExpectationFailure`` naming the step, what was expected, what
/// happened, and the scene as text. The script's ``RecordingHost`` takes the scene's
/// baseline first, as a host does, so ``Transcript/host`` holds every update the steps
/// caused (``RecordingHost/updates``).
public struct SceneScript: Sendable {
    /// One step of a script.
    public enum Step: Sendable {
        /// Check the current rendering.
        case expect(RenderExpectation)
        /// Send an event, answering any confirmations it asks with `answering`.
        case send(Event, answering: [Bool] = [])
        /// Activate the control with this id in the current rendering (button, retry,
        /// `switch#tab`), answering confirmations with `answering`.
        case tap(NodeID, answering: [Bool] = [])
        /// Check where the last event's route ended.
        case expectResult(EventOutcome.Result)
        /// Check the last event's route, as `EventOutcome.Step` descriptions.
        case expectRoute([String])
        /// Check the scenes the last event navigated to.
        case expectNavigations([String])
        /// Check the names of all events the host has received so far.
        case expectReceived([String])
        /// Leave the scene.
        case leave
        /// Any other check: return `nil` when it holds, or what is wrong.
        case check(String, @Sendable (SceneInstance, RecordingHost) async -> String?)
    }

    /// The scene to run.
    public var sceneID: String
    /// Who is looking, and the scene's arguments.
    public var context: SceneContext
    /// The registry with the modules (and their services) and scenes.
    public var registry: SceneRegistry
    /// The steps, in order.
    public var steps: [Step]

    /// Creates a script from steps.
    public init(_ sceneID: String, context: SceneContext, registry: SceneRegistry, steps: [Step]) {
        self.sceneID = sceneID
        self.context = context
        self.registry = registry
        self.steps = steps
    }

    /// What a script run produced, for further checks.
    public struct Transcript: Sendable {
        /// The scene, still live unless a step left it.
        public var scene: SceneInstance
        /// The host, with everything it recorded.
        public var host: RecordingHost
        /// The outcome of every event sent, in order.
        public var outcomes: [EventOutcome]
    }

    /// Runs the script.
    /// - Throws: ``ExpectationFailure`` for the first step that fails, or the
    ///   `SceneryError` if the scene cannot be assembled.
    @discardableResult
    public func run() async throws -> Transcript {
        let host = RecordingHost(confirmer: ScriptedConfirmer())
        let scene = try await registry.assemble(sceneID, for: context, host: host)
        // The recording host has the scene as a host would, so every change a step causes
        // reaches `host.updates` as an update (a scene updates only a host with a baseline).
        _ = await scene.takeBaseline()
        await scene.appear()
        var outcomes: [EventOutcome] = []
        for (index, step) in steps.enumerated() {
            let problem: String?
            switch step {
            case .expect(let expectation):
                problem = expectation.problem(in: await scene.render()).map { "expected the tree to \(expectation.description), but \($0)" }
            case .send(let event, let answers):
                host.confirmer.enqueue(answers)
                outcomes.append(await scene.send(event))
                problem = unusedAnswers(host)
            case .tap(let id, let answers):
                do {
                    let action = try await scene.render().actionToTap(id)
                    host.confirmer.enqueue(answers)
                    outcomes.append(await scene.send(action.event))
                    problem = unusedAnswers(host)
                } catch {
                    problem = error.message
                }
            case .expectResult(let expected):
                problem = lastOutcome(outcomes) { outcome in
                    outcome.result == expected ? nil : "expected the event to end \(expected), but it ended \(outcome.result)."
                }
            case .expectRoute(let expected):
                problem = lastOutcome(outcomes) { outcome in
                    let route = outcome.route.map(\.description)
                    return route == expected ? nil : "expected the route\n  \(expected)\nbut it was\n  \(route)"
                }
            case .expectNavigations(let expected):
                problem = lastOutcome(outcomes) { outcome in
                    let scenes = outcome.navigations.map(\.scene)
                    return scenes == expected ? nil : "expected navigation to \(expected), but got \(scenes)."
                }
            case .expectReceived(let expected):
                let received = host.receivedEvents.map(\.name)
                problem = received == expected ? nil : "expected the host to have received \(expected), but it received \(received)."
            case .leave:
                await scene.leave()
                problem = nil
            case .check(let description, let check):
                problem = await check(scene, host).map { "\(description): \($0)" }
            }
            if let problem {
                let text = await scene.hasLeft ? "(the scene was left)" : TextRenderer().render(await scene.render())
                throw ExpectationFailure("Step \(index + 1) of '\(sceneID)' failed: \(problem)\nThe scene now:\n\(text)")
            }
        }
        return Transcript(scene: scene, host: host, outcomes: outcomes)
    }

    private func lastOutcome(_ outcomes: [EventOutcome], _ check: (EventOutcome) -> String?) -> String? {
        guard let last = outcomes.last else { return "no event was sent before this step." }
        return check(last)
    }

    private func unusedAnswers(_ host: RecordingHost) -> String? {
        if let question = host.confirmer.unexpected.last {
            return "the event asked '\(question.title)', which the step did not answer; add answering: [true] or [false]."
        }
        let left = host.confirmer.remainingAnswers
        return left.isEmpty ? nil : "the step gave \(left.count) answer(s) that no confirmation used."
    }
}
