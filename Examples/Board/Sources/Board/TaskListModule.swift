import Foundation
import Scenery
import SceneryLive

/// A member's board of tasks, live: every signed-in viewer ticks tasks off; only the board's
/// owner adds one (typing its title into the board's form) or removes one.
///
/// The descriptor declares `task.remove` owner-only, so the router refuses it to anyone but
/// `owner` before ``perform(_:)`` runs (and the store checks again). A tick shows at once,
/// is written once (`liveTasks.write`), and reaches every other page of the board through the
/// store's change feed; a failed write puts the task back and says so under the list.
///
/// ```json
/// { "id": "tasks", "type": "TaskListModule", "params": { "owner": "$owner", "order": "oldest" } }
/// ```
public actor TaskListModule: Module {
    /// What `task.toggle` carries.
    public struct Toggle: Codable, Sendable, Hashable {
        public var task: Int64

        public init(task: Int64) { self.task = task }
    }

    /// What `task.remove` carries: the task, and its title for the scene's question.
    public struct Removal: Codable, Sendable, Hashable {
        public var task: Int64
        public var title: String

        public init(task: Int64, title: String) {
            self.task = task
            self.title = title
        }
    }

    /// What `task.add` carries: the title typed into the board's form.
    public struct NewTask: Codable, Sendable, Hashable {
        public var title: String

        public init(title: String) { self.title = title }
    }

    public static let toggle = EventKind("task.toggle", payload: Toggle.self)
    public static let remove = EventKind("task.remove", payload: Removal.self)
    public static let add = EventKind("task.add", payload: NewTask.self)

    /// What `task.filter` carries: what a viewer typed into the board's search field, as
    /// they type. It stays on their page: only their list is filtered.
    public struct Filter: Codable, Sendable, Hashable {
        public var filter: String

        public init(filter: String) { self.filter = filter }
    }

    public static let filter = EventKind("task.filter", payload: Filter.self)

    /// The form the owner adds a task with: the browser checks its rule as people type, and
    /// ``perform(_:)`` checks it again (a host is never trusted).
    static func newTaskForm(_ draft: Draft = Draft(), open: Int = 0) -> ViewNode {
        let title = TextField(
            name: "title", label: "New task", value: draft.text, placeholder: "What needs doing? (\(open) open)", maximumLength: 120,
            rules: [.required("Name the task first."), .length(3...120)], error: draft.fieldError)
        return .form("new", submit: .init(title: "Add task", sends: add.name), error: draft.formError, [.textField("new.title", title)])
    }

    /// What the form shows after a submit: the text back with what was wrong, or nothing.
    struct Draft: Sendable {
        var text = ""
        var fieldError: String?
        var formError: String?
    }

    public static let descriptor = ModuleDescriptor(
        type: "TaskListModule",
        summary: "A member's board of tasks, live; members tick them off, the owner removes them.",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose board."),
            ParameterSpec("order", .string, default: "newest", summary: "newest or oldest first."),
            // Wording is a message: a scene (or a translation) may count the open tasks with
            // the plural cases its language needs; the validator checks it at build time.
            .message(
                "header", default: "Tasks", arguments: [MessageArgumentSpec("open", .number, summary: "How many tasks are not done.")],
                summary: "The list's header."),
        ],
        sends: [toggle, remove, add],
        performs: [toggle, remove, add],
        ownerOnlyActions: [remove.name: "owner", add.name: "owner"])

    private let owner: String
    private let newestFirst: Bool
    private let header: LocalizedMessage
    private let board: any BoardService
    private let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    /// The board's tasks, kept true while the module is visible; the viewer's writes.
    private let liveTasks: LiveQuery<TaskListModule, BoardChange>
    /// Why the viewer's last change could not be saved.
    private var failure: String?
    private var state: LoadState<[BoardTask]> = .idle
    private var draft = Draft()
    /// What this viewer's list shows: tasks whose title contains it (all when empty).
    private var shownFilter = ""

    public init(parameters: ModuleParameters, context: ModuleContext, board: some BoardService) throws {
        owner = try parameters.string("owner")
        let order = try parameters.string("order")
        guard ["newest", "oldest"].contains(order) else {
            throw SceneryError(.invalidArgument, "TaskListModule's 'order' is \(order.debugDescription); use \"newest\" or \"oldest\".")
        }
        newestFirst = order == "newest"
        header = try parameters.message("header")
        self.board = board
        self.context = context
        liveTasks = LiveQuery(board, context: context) { module, _ in try await module.reload() }
    }

    public func load(_ request: LoadRequest) async throws {
        if request == .nextPage { return }
        state = .loading
        do {
            show(try await board.tasks(on: owner))
        } catch {
            state = .failed(SceneryError.message(for: error))
            throw error
        }
    }

    public func appear() async { await liveTasks.follow([.board(owner)], for: self) }

    public func disappear() async { liveTasks.stop() }

    /// Another page (or process) changed the board: fetch it. ``LiveQuery`` holds the
    /// change while a write of ours is on its way, and fetches again if the board changed
    /// while this fetch was away.
    private func reload() async throws {
        guard state.hasResult else { return }
        show(try await board.tasks(on: owner))
        await context.setNeedsRender()
    }

    private func show(_ tasks: [BoardTask]) {
        state = tasks.isEmpty ? .empty : .loaded(newestFirst ? tasks.reversed() : tasks)
    }

    /// A search typed into the board's field filters this page's list at once; every other
    /// event goes on to the scene.
    public func handle(_ event: Event) async -> EventDisposition {
        guard let typed = try? Self.filter.payload(of: event) else { return .pass }
        shownFilter = typed.filter.trimmingCharacters(in: .whitespaces)
        await context.setNeedsRender()
        return .handled
    }

    public func perform(_ event: Event) async throws {
        if let new = try? Self.add.payload(of: event), let viewer = context.viewer {
            return await add(new.title, by: viewer)
        }
        guard case .loaded(let tasks) = state, let viewer = context.viewer else { return }
        await liveTasks.write(.board(owner), for: self) {
            let write: @Sendable () async throws -> Void
            if let toggle = try? Self.toggle.payload(of: event), let task = tasks.first(where: { $0.id == toggle.task }) {
                state = .loaded(tasks.map { $0.id == task.id ? BoardTask(id: task.id, title: task.title, isDone: !task.isDone) : $0 })
                write = { [board, owner] in try await board.setDone(!task.isDone, task: task.id, on: owner) }
            } else if let removal = try? Self.remove.payload(of: event) {
                let left = tasks.filter { $0.id != removal.task }
                state = left.isEmpty ? .empty : .loaded(left)
                write = { [board, owner] in try await board.remove(task: removal.task, from: owner, by: viewer) }
            } else {
                return
            }
            await context.setNeedsRender()  // shown at once
            do {
                try await write()
                failure = nil
            } catch {
                state = .loaded(tasks)
                failure = "Couldn't save: \(SceneryError.messageForViewers(of: error))"
            }
            await context.setNeedsRender()
        }
    }

    /// Adds a task from the form: its rule checked again here, then written once; the form
    /// clears when it is saved and keeps the text (with what went wrong) when it is not.
    private func add(_ typed: String, by viewer: String) async {
        let title = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard case .form(let form) = Self.newTaskForm().kind else { return }
        let problems = form.problems(in: ["title": title])
        guard problems.isEmpty else {
            draft = Draft(text: typed, fieldError: problems.fields["title"] ?? problems.form.first)
            return await context.setNeedsRender()
        }
        let saved: Void? = await liveTasks.write(.board(owner), for: self) {
            do {
                let task = try await board.add(task: title, to: owner, by: viewer)
                let tasks = state.value ?? []
                state = .loaded(newestFirst ? [task] + tasks : tasks + [task])
                draft = Draft()
            } catch {
                draft = Draft(text: typed, formError: "Couldn't add the task: \(SceneryError.messageForViewers(of: error))")
            }
            await context.setNeedsRender()
        }
        if saved == nil {
            draft = Draft(text: typed, formError: "Another change to the board is being saved; add the task again in a moment.")
            await context.setNeedsRender()
        }
    }

    /// For the inspector (`board serve --inspect`): how many tasks it holds and shows, the
    /// filter the viewer typed, and what it follows.
    public func inspectableState() -> [String: JSONValue] {
        var facts = liveTasks.inspectableState
        facts["tasks"] = .int(state.value?.count ?? 0)
        facts["filter"] = .string(shownFilter)
        return facts
    }

    public func render() -> ViewNode {
        let (isOwner, signedIn) = (context.viewer == owner, context.viewer != nil)
        let board = renderBoard(isOwner: isOwner, signedIn: signedIn)
        guard isOwner else { return board }
        // The placeholder counts what is open: each tick anywhere re-renders the field, and
        // what the owner is typing in it stays (the host keeps typed text under patches).
        let open = (state.value ?? []).filter { !$0.isDone }.count
        return .stack("owner", [board, Self.newTaskForm(draft, open: open)])
    }

    private func renderBoard(isOwner: Bool, signedIn: Bool) -> ViewNode {
        state.render(id: "board", loadingMessage: "Opening the board…", emptyMessage: "Nothing to do.") { tasks in
            let shown = shownFilter.isEmpty ? tasks : tasks.filter { $0.title.localizedStandardContains(shownFilter) }
            let rows = shown.map { task in
                var cells: [ViewNode] = [.text("task.\(task.id).title", task.isDone ? "✓ \(task.title)" : task.title, role: .body)]
                if signedIn {
                    let title = task.isDone ? "Undo" : "Done"
                    cells.append(.button("task.\(task.id).toggle", title: title, sends: Self.toggle.descriptor(Toggle(task: task.id))))
                }
                if isOwner {
                    let removal = Self.remove.descriptor(Removal(task: task.id, title: task.title))
                    cells.append(.button("task.\(task.id).remove", title: "Remove", sends: removal))
                }
                return ViewNode.stack("task.\(task.id)", axis: .horizontal, cells)
            }
            // Search as you type: each pause sends the text, and only this page's list changes.
            let search = TextField(
                name: "filter", label: "Find a task", value: shownFilter, placeholder: "Type part of a title", maximumLength: 80,
                keyboard: .search, changes: Self.filter.descriptor(Filter(filter: "")))
            var children: [ViewNode] = [
                .textField("filter", search),
                .list("list", sections: [.init(id: "tasks", header: header(["open": .integer(tasks.count { !$0.isDone })]), rows: rows)]),
            ]
            if rows.isEmpty { children.append(.text("no-match", "No task matches “\(shownFilter)”.", role: .caption)) }
            if let text = failure ?? liveTasks.staleNotice { children.append(.text("notice", text, role: .caption)) }
            return .stack("content", children)
        }
    }
}
