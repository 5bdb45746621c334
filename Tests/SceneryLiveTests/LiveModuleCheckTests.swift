import Scenery
import SceneryTesting
import Synchronization
import Testing

@testable import SceneryLive

/// The live-module check finds the race a hand-written "fetch when it changed" has, and a
/// module on `LiveQuery` passes it: what `LiveModuleCheck` promises an app's author.
@Suite(.timeLimit(.minutes(5))) struct LiveModuleCheckTests {
    @Test func aModuleOnLiveQueryPassesBothStories() async {
        let store = NoteStore()
        let gate = ReadGate()
        let check = LiveModuleCheck(reads: gate, viewer: "ann", action: NotesOnLiveQuery.add.event(.init(), from: "add")) { context in
            NotesOnLiveQuery(store: store, gate: gate, context: context)
        } changeBySomeoneElse: {
            store.add("from someone else")
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The race Board's module had: a fetch that read before the owner's own write returns
    /// after it, and nothing fetches again, so the page keeps a list without the write.
    @Test func aHandWrittenModuleThatLetsAnOlderReadLandAfterItsWriteFailsTheSecondStory() async throws {
        let store = NoteStore()
        let gate = ReadGate()
        let check = LiveModuleCheck(
            reads: gate, viewer: "ann", action: HandWrittenNotes.add.event(.init(), from: "add"), timeout: .milliseconds(500)
        ) { context in
            HandWrittenNotes(store: store, gate: gate, context: context)
        } changeBySomeoneElse: {
            store.add("from someone else")
        }
        let problems = await check.problems()
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.hasPrefix("A read that returns after the module's own write:"), "\(problem)")
        #expect(problem.contains("mine") && problem.contains("LiveQuery"), "says what is missing and what to do: \(problem)")
    }

    @Test func aModuleThatFollowsNothingIsToldToFollowInAppear() async {
        let store = NoteStore()
        let gate = ReadGate()
        let check = LiveModuleCheck(
            reads: gate, viewer: "ann", action: HandWrittenNotes.add.event(.init(), from: "add"), timeout: .milliseconds(200)
        ) { context in
            HandWrittenNotes(store: store, gate: gate, context: context, follows: false)
        } changeBySomeoneElse: {
            store.add("from someone else")
        }
        let problems = await check.problems()
        #expect(problems.count == 2 && problems.allSatisfy { $0.contains("follow it in appear()") }, "\(problems)")
    }
}

/// Notes on a board: what both modules show, with a change hub.
private final class NoteStore: ChangeFeed, Sendable {
    private let notes = Mutex<[String]>([])
    private let hub = ChangeHub<BoardChange>()

    func changes(to entities: Set<BoardChange>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<BoardChange> {
        hub.changes(to: entities, ignoringWritesOf: writer)
    }

    var changeMark: Int? { hub.changeMark }

    func hasChanged(_ entities: Set<BoardChange>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

    func all() async throws -> [String] { notes.withLock { $0 } }

    func add(_ note: String) {
        notes.withLock { $0.append(note) }
        hub.publish([.task(1)])
    }
}

private struct NoNote: Codable, Sendable, Hashable {}

private func noteList(_ notes: [String]) -> ViewNode {
    .stack("notes", notes.enumerated().map { .text(NodeID("note.\($0.offset)"), $0.element) })
}

/// Written as the guide says: the query fetches again while the notes changed.
private actor NotesOnLiveQuery: Module {
    static let add = EventKind("note.add", payload: NoNote.self)
    static let descriptor = ModuleDescriptor(type: "NotesOnLiveQuery", summary: "Notes, live.", sends: [add], performs: [add])

    private let store: NoteStore
    private let gate: ReadGate
    private let context: ModuleContext
    private let live: LiveQuery<NotesOnLiveQuery, BoardChange>
    private var notes: [String] = []

    init(store: NoteStore, gate: ReadGate, context: ModuleContext) {
        self.store = store
        self.gate = gate
        self.context = context
        live = LiveQuery(store, context: context, retryDelay: .zero) { module, _ in
            module.notes = try await module.gate.read { try await module.store.all() }
            await module.context.setNeedsRender()
        }
    }

    func load(_ request: LoadRequest) async throws { notes = try await gate.read { try await store.all() } }
    func appear() async { await live.follow([.task(1)], for: self) }
    func disappear() async { live.stop() }

    func perform(_ event: Event) async throws {
        await live.write(.task(1), for: self) {
            notes.append("mine")
            await context.setNeedsRender()
            store.add("mine")
        }
    }

    func render() -> ViewNode { noteList(notes) }
}

/// Written by hand as Board's module was: fetches when told, skips a fetch while its own
/// write is in flight, and never fetches again when the read was older than its write.
private actor HandWrittenNotes: Module {
    static let add = EventKind("note.add", payload: NoNote.self)
    static let descriptor = ModuleDescriptor(type: "HandWrittenNotes", summary: "Notes, live, by hand.", sends: [add], performs: [add])

    private let store: NoteStore
    private let gate: ReadGate
    private let context: ModuleContext
    private let live: LiveChanges<BoardChange>
    private let follows: Bool
    private var notes: [String] = []
    private var isWriting = false

    init(store: NoteStore, gate: ReadGate, context: ModuleContext, follows: Bool = true) {
        self.store = store
        self.gate = gate
        self.context = context
        self.follows = follows
        live = LiveChanges(store)
    }

    func load(_ request: LoadRequest) async throws { notes = try await gate.read { try await store.all() } }

    func appear() async {
        guard follows else { return }
        live.follow([.task(1)]) { [weak self] _ in await self?.changed() }
    }

    func disappear() async { live.stop() }

    private func changed() async {
        guard !isWriting, let fresh = try? await gate.read({ try await store.all() }) else { return }
        if !isWriting { notes = fresh }
        await context.setNeedsRender()
    }

    func perform(_ event: Event) async throws {
        isWriting = true
        notes.append("mine")
        await context.setNeedsRender()
        await live.writing { store.add("mine") }
        isWriting = false
        await context.setNeedsRender()
    }

    func render() -> ViewNode { noteList(notes) }
}
