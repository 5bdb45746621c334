import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// A page is one isolation domain, and a module that misbehaves on it holds back no other
/// page: not by throwing, hanging or burning CPU. Its own page still answers what it can,
/// and leaves.
///
/// Serialized: two of its tests hold a thread of Swift's pool spinning, and on two cores the
/// pool has two; both at once would leave none for the test that releases them.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PageFaultTests {
    /// Whether spinning work may stop: set by the test once it saw what it waits for.
    final class Release: Sendable {
        private let released = Atomic(false)
        var isReleased: Bool { released.load(ordering: .acquiring) }
        func release() { released.store(true, ordering: .releasing) }
    }

    /// A module whose events misbehave on purpose, saying when each starts.
    actor WorkModule: Module {
        struct Empty: Codable, Sendable {}
        static let like = EventKind<Empty>("work.like")
        static let ask = EventKind<Empty>("work.ask")
        static let fail = EventKind<Empty>("work.fail")
        static let hang = EventKind<Empty>("work.hang")
        static let spin = EventKind<Empty>("work.spin")
        static let crunch = EventKind<Empty>("work.crunch")
        static let descriptor = ModuleDescriptor(
            type: "WorkModule", summary: "Work that misbehaves.", sends: [like, ask, fail, hang, spin, crunch],
            performs: [like, ask, fail, hang, spin, crunch])

        private let context: ModuleContext
        private let release: Release
        private let started: AsyncStream<String>.Continuation
        private var likes = 0
        private var crunched: Int?
        nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

        init(context: ModuleContext, release: Release, started: AsyncStream<String>.Continuation) {
            self.context = context
            self.release = release
            self.started = started
        }

        func load(_ request: LoadRequest) async throws {}

        func render() -> ViewNode {
            .stack(
                "work",
                [
                    .text("likes", "Likes: \(likes)"), .text("crunched", crunched.map { "Crunched \($0 > 0 ? "some" : "none")" } ?? "Not crunched"),
                    .button("like", title: "Like", sends: Self.like.descriptor(.init())),
                ])
        }

        func perform(_ event: Event) async throws {
            started.yield(event.name)
            switch event.name {
            case Self.like.name:
                likes += 1
                await context.setNeedsRender()
            case Self.fail.name:
                throw WorkFailure()
            case Self.hang.name:
                // Never answered, and deaf to cancellation: a badly behaved backend.
                await Gate.neverOpened.wait()
            case Self.spin.name:
                while !release.isReleased {}  // CPU on the page's own thread
            case Self.crunch.name:
                crunched = await Self.crunch(until: release)
                await context.setNeedsRender()
            default:
                break
            }
        }

        /// Heavy work said to be so: `@concurrent` runs it off the page.
        @concurrent nonisolated static func crunch(until release: Release) async -> Int {
            var rounds = 0
            while !release.isReleased { rounds &+= 1 }
            return rounds
        }
    }

    struct WorkFailure: Error {}

    /// Two pages (each its own isolation), the release their spinning work waits for, and
    /// what their modules started.
    struct Pages {
        let release = Release()
        let started: AsyncStream<String>
        let registry: SceneRegistry

        init() {
            let (started, starting) = AsyncStream.makeStream(of: String.self)
            self.started = started
            var registry = SceneRegistry()
            let release = release
            registry.register(WorkModule.self) { _, context in WorkModule(context: context, release: release, started: starting) }
            let problems = registry.addScene(
                id: "work",
                source: #"""
                    { "modules": [ { "id": "work", "type": "WorkModule" } ],
                      "events": [ { "on": "work.ask", "steps": [ { "confirm": { "title": "Sure?" } }, "continue" ] } ] }
                    """#)
            precondition(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
            self.registry = registry
        }

        func open(confirmer: ScriptedConfirmer = .decliningAll) async throws -> (scene: SceneInstance, host: RecordingHost) {
            let host = RecordingHost(confirmer: confirmer)
            let scene = try await registry.assemble("work", for: SceneContext(viewer: "1"), host: host)
            _ = await scene.takeBaseline()
            return (scene, host)
        }

        /// Waits until a module started `kind`'s work.
        func waitUntilStarted(_ kind: EventKind<WorkModule.Empty>) async {
            for await name in started where name == kind.name { return }
        }
    }

    @Test func aModuleThatBurnsCPUOnItsPageHoldsBackNoOtherPage() async throws {
        let pages = Pages()
        let (busy, other) = (try await pages.open(), try await pages.open())
        let spinning = Task { await busy.scene.send(WorkModule.spin.event(.init(), from: "work/like")) }
        await pages.waitUntilStarted(WorkModule.spin)

        let outcome = await other.scene.send(WorkModule.like.event(.init(), from: "work/like"))
        #expect(outcome.result == .delivered)
        #expect(other.host.updates.last?.node.visibleTexts.contains("Likes: 1") == true, "the other page's like was shown while the first page spun")
        pages.release.release()
        _ = await spinning.value
    }

    @Test func heavyWorkMarkedConcurrentRunsOffThePageWhichAnswersMeanwhile() async throws {
        let pages = Pages()
        let page = try await pages.open()
        let crunching = Task { await page.scene.send(WorkModule.crunch.event(.init(), from: "work/like")) }
        await pages.waitUntilStarted(WorkModule.crunch)

        // The crunch has not ended (nothing released it), and the same page takes a like.
        await page.scene.send(WorkModule.like.event(.init(), from: "work/like"))
        let shown = await page.scene.render().visibleTexts
        #expect(shown.contains("Likes: 1") && shown.contains("Not crunched"), "\(shown)")
        pages.release.release()
        _ = await crunching.value
        #expect(await page.scene.render().visibleTexts.contains("Crunched some"))
    }

    @Test func aPageWhoseModuleHangsStillAsksItsQuestionsAndLeaves() async throws {
        let pages = Pages()
        let page = try await pages.open(confirmer: .acceptingAll)
        Task { await page.scene.send(WorkModule.hang.event(.init(), from: "work/like")) }  // never ends
        await pages.waitUntilStarted(WorkModule.hang)

        let asked = await page.scene.send(WorkModule.ask.event(.init(), from: "work/like"))
        #expect(page.host.confirmations.map(\.title) == ["Sure?"])
        #expect(asked.result == .delivered, "confirmed and let through while another event hangs: \(asked.result)")
        await page.scene.leave()
        #expect(await page.scene.hasLeft)
    }

    @Test func aModuleThatThrowsFailsItsEventAloneAndThePageGoesOn() async throws {
        let pages = Pages()
        let page = try await pages.open()
        let failed = await page.scene.send(WorkModule.fail.event(.init(), from: "work/like"))
        guard case .failed = failed.result else {
            Issue.record("a thrown error fails the event: \(failed.result)")
            return
        }
        await page.scene.send(WorkModule.like.event(.init(), from: "work/like"))
        #expect(await page.scene.render().visibleTexts.contains("Likes: 1"))
    }

    @Test func aChangeForAPageThatLeftIsDroppedNotShown() async throws {
        let pages = Pages()
        let page = try await pages.open()
        await page.scene.send(WorkModule.like.event(.init(), from: "work/like"))
        let delivered = page.host.updates.count
        await page.scene.leave()
        // The module's own change after its page left: no update, no rendering for nobody.
        await page.scene.requestRender("work")
        await page.scene.moduleDidChange(ModuleChange(module: "work", nodes: nil))
        #expect(page.host.updates.count == delivered)
    }
}
