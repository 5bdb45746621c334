import ProfileDemoDomain
import Scenery
import SceneryLive

/// The owner's drafts, most recently edited first, with an editor: the owner writes a new
/// draft, edits, deletes or publishes one; a published draft becomes a blog on every page
/// that shows the owner's blogs (through the change feed).
///
/// Every save names the version it started from (`DraftEdit`): a save from a tab that
/// opened an older version is refused, and the text typed stays in that tab's form with a
/// message saying so, never lost silently. A save, delete or publish a page sends again
/// (a resumed page, a double click) is applied once (its action key).
///
/// Drafts are private. The module refuses to load for anyone but the owner by itself —
/// before it asks its service — so no scene file, argument or navigation can show them to
/// someone else; and its descriptor marks `owner` as owner-only, so validation rejects a
/// scene variant that could place it before another viewer.
///
/// ```json
/// { "id": "drafts", "type": "DraftModule", "params": { "owner": "$user" } }
/// ```
public actor DraftModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "DraftModule",
        summary: "The owner's unpublished drafts (owner only).",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose drafts; must be the viewer."),
            ParameterSpec("pageSize", .int, default: 20, range: 1...100, summary: "Drafts per page."),
            .message("header", default: "Drafts", summary: "The list's header."),
            .message("emptyText", default: "No drafts yet: start one above.", summary: "Shown when there are none: what to do."),
            .message("untitled", default: "Untitled draft", summary: "Title when empty."),
            .message(
                "editedFormat", default: "Edited {date}", arguments: [MessageArgumentSpec("date", .text, summary: "When, as the page shows dates.")],
                summary: "Last-edited line."),
            .message("moreTitle", default: "Load more", summary: "The load-more button."),
            .message("composeTitle", default: "New draft", summary: "The new-draft form's heading."),
            .message("titleLabel", default: "Title", summary: "The title field's label."),
            .message("bodyLabel", default: "Text", summary: "The text field's label."),
            .message("saveTitle", default: "Save draft", summary: "The save button."),
            .message("editTitle", default: "Edit", summary: "A draft's edit button."),
            .message("cancelTitle", default: "Cancel", summary: "The editor's cancel button."),
            .message("publishTitle", default: "Publish", summary: "A draft's publish button."),
            .message("deleteTitle", default: "Delete", summary: "A draft's delete button."),
            .message("emptyDraftText", default: "Write a title or some text first.", summary: "Said when both fields are empty."),
        ],
        sends: [DraftEvents.save, DraftEvents.publish, DraftEvents.delete],
        performs: [DraftEvents.save, DraftEvents.publish, DraftEvents.delete],
        ownerOnlyParameter: "owner",
        ownerOnlyActions: [DraftEvents.save.name: "owner", DraftEvents.publish.name: "owner", DraftEvents.delete.name: "owner"])

    /// The most characters a draft's title may have.
    public static let longestTitle = 200
    /// The most characters a draft's text may have.
    public static let longestBody = 20_000

    /// The error a non-owner gets.
    public static let privacyMessage = "Drafts are private: only their owner can see them."

    let owner: UserID
    private let header: String
    private let emptyText: String
    private let untitled: String
    /// What an untitled draft is called, and the title field's placeholder.
    var untitledText: String { untitled }
    private let editedFormat: LocalizedMessage
    private let moreTitle: String
    let wording: EditorWording
    let drafts: any DraftService
    let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

    private(set) var list: PagedList<Draft>
    /// The drafts shown.
    public var state: LoadState<[Draft]> { list.state }
    /// Whether another page exists.
    public var hasMore: Bool { list.hasMore }
    /// Says that what is shown may be out of date (a live change could not be fetched; it
    /// is tried again).
    public var notice: String? { liveDrafts.staleNotice }
    /// What the owner is typing into the new-draft form (kept when a save fails).
    private(set) var compose = Editor()
    /// The draft open in the editor, with what the owner typed into it.
    private(set) var editing: Editor?
    /// What went wrong with a row's publish or delete, shown under that row.
    private(set) var rowProblem: (draft: Int64, text: String)?

    /// The drafts, kept true while the module is visible (to its owner only); their writes.
    let liveDrafts: LiveQuery<DraftModule, ProfileChange>

    public init(parameters: ModuleParameters, context: ModuleContext, drafts: any DraftService, changes: (any ChangeFeed<ProfileChange>)? = nil) throws {
        liveDrafts = LiveQuery(changes, context: context) { module, _ in try await module.reload() }
        owner = UserID(try parameters.string("owner"))
        list = PagedList(pageSize: try parameters.int("pageSize"))
        header = try parameters.text("header")
        emptyText = try parameters.text("emptyText")
        untitled = try parameters.text("untitled")
        editedFormat = try parameters.message("editedFormat")
        moreTitle = try parameters.text("moreTitle")
        wording = try EditorWording(parameters)
        self.drafts = drafts
        self.context = context
    }

    /// Whether the viewer may see these drafts.
    var viewerIsOwner: Bool { context.viewer == owner.rawValue }

    public func load(_ request: LoadRequest) async throws {
        guard viewerIsOwner, let viewer = context.viewer else {
            throw ProfileError.notPermitted(Self.privacyMessage)
        }
        guard let fetch = list.begin(request) else { return }
        if fetch.showsIndicator { await context.setNeedsRender() }
        try await run(fetch, viewer: UserID(viewer))
    }

    func run(_ fetch: PagedList<Draft>.Fetch, viewer: UserID) async throws {
        do {
            let request = list.pageRequest(for: fetch, after: PageCursor.drafts(after:))
            let page = try await drafts.drafts(of: owner, viewer: viewer, page: request)
            list.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
        } catch {
            list.fail(fetch)
            throw error
        }
    }

    /// Follows the owner's drafts while visible, for the owner alone: nobody else's page
    /// even subscribes to them.
    /// Shown again after being hidden, it fetches the drafts again.
    public func appear() async {
        guard viewerIsOwner else { return }
        await liveDrafts.follow([.drafts(of: owner)], for: self)
    }

    public func disappear() async { liveDrafts.stop() }

    /// The owner's drafts changed (another tab, an import): every row shown is fetched
    /// again; if that fails, the drafts shown stay, with a notice.
    func reload() async throws {
        guard state.hasResult else { return }
        try await run(list.reload(), viewer: owner)
        await context.setNeedsRender()
    }

    /// For the inspector: the list, what it follows, and the draft being edited (its id and
    /// version; its text stays in the form).
    public func inspectableState() -> [String: JSONValue] {
        var facts = list.inspectableState.merging(liveDrafts.inspectableState) { list, _ in list }
        facts["editing"] =
            editing.map { .object(["draft": $0.draft.map { .int(Int($0)) } ?? .null, "version": $0.version.map { .int($0) } ?? .null]) } ?? .null
        facts["composing"] = .bool(!compose.title.isEmpty || !compose.body.isEmpty)
        return facts
    }

    public func render() -> ViewNode {
        // Belt and braces: whatever the state, a non-owner sees no draft.
        guard viewerIsOwner else { return .error("drafts", Self.privacyMessage) }
        let listed = state.render(id: "drafts", loadingMessage: "Loading drafts…", emptyMessage: emptyText) { drafts in
            let rows = drafts.map(row)
            var children: [ViewNode] = [.list("list", sections: [.init(id: "all", header: header, rows: rows)])]
            if let more = list.moreButton(title: moreTitle, module: context.id) { children.append(more) }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
        var children = [composeForm()]
        // A draft open here that is no longer stored (published or deleted in another tab)
        // keeps its editor, above the list, so what was typed is not lost.
        if let editing, let id = editing.draft, state.hasResult, list.item(withID: id) == nil {
            children.append(editorForm(editing, stored: nil))
        }
        children.append(listed)
        return .stack("owner", children)
    }

    /// One draft's row: its editor while open, else its title, date and buttons.
    private func row(_ draft: Draft) -> ViewNode {
        if let editing, editing.draft == draft.id { return editorForm(editing, stored: draft) }
        let presenter = DraftCellPresenter(draft: draft, untitled: untitled, editedFormat: editedFormat)
        let target = DraftEvents.Target(draft: draft.id, version: draft.version, title: presenter.title)
        let base = "draft.\(draft.id)"
        var cells: [ViewNode] = [
            presenter.render(),
            .stack(
                NodeID("\(base).actions"), axis: .horizontal,
                [
                    .button(NodeID("\(base).edit"), title: wording.edit, sends: DraftEvents.edit.descriptor(target)),
                    .button(NodeID("\(base).publish"), title: wording.publish, sends: DraftEvents.publish.descriptor(target)),
                    .button(NodeID("\(base).delete"), title: wording.delete, sends: DraftEvents.delete.descriptor(target)),
                ]),
        ]
        if let rowProblem, rowProblem.draft == draft.id { cells.append(.text(NodeID("\(base).problem"), rowProblem.text, role: .caption)) }
        return .stack(NodeID("\(base).row"), cells)
    }
}

// MARK: - Events

extension DraftModule {
    /// Opening and closing the editor stays on the owner's page: nothing is written.
    public func handle(_ event: Event) async -> EventDisposition {
        guard viewerIsOwner else { return .pass }
        if let target = try? DraftEvents.edit.payload(of: event) {
            if let draft = list.item(withID: target.draft) { editing = Editor(opening: draft) }
            rowProblem = nil
        } else if let target = try? DraftEvents.cancel.payload(of: event) {
            if editing?.draft == target.draft { editing = nil }
        } else {
            return .pass
        }
        await context.setNeedsRender()
        return .handled
    }

    /// Saves, publishes or deletes, once the scene let the event through (a delete is
    /// confirmed by the bundled scenes) and the router checked that the viewer is the owner.
    public func perform(_ event: Event) async throws {
        guard viewerIsOwner, let viewer = context.viewer.map({ UserID($0) }) else { return }
        if let edit = try? DraftEvents.save.payload(of: event) {
            await save(edit, by: viewer)
        } else if let target = try? DraftEvents.publish.payload(of: event) {
            await change(target) { [drafts] in _ = try await drafts.publishDraft(target.draft, version: target.version, by: viewer) }
        } else if let target = try? DraftEvents.delete.payload(of: event) {
            await change(target) { [drafts] in try await drafts.deleteDraft(target.draft, version: target.version, by: viewer) }
        }
    }

    /// Saves what a form sent: the form's rules checked again, then written once. The form
    /// clears (or the editor closes) when it is saved, and keeps the text with what went
    /// wrong when it is not.
    private func save(_ edit: DraftEdit, by viewer: UserID) async {
        var editor = Editor(title: edit.title, body: edit.body)
        editor.draft = edit.draft
        editor.version = edit.version
        let problems = problems(in: edit)
        if !problems.isEmpty {
            editor.fieldErrors = problems.fields
            editor.formError = problems.form.first
            keep(editor)
            return await context.setNeedsRender()
        }
        do {
            _ = try await liveDrafts.write(for: self) { try await drafts.save(edit, by: viewer) }
            if edit.draft == nil { compose = Editor() } else if editing?.draft == edit.draft { editing = nil }
        } catch let error as ProfileError where error.kind == .outdated || error.kind == .notFound {
            editor.formError = error.messageForViewers + " Your text is kept here."
            keep(editor)
        } catch {
            editor.formError = "Couldn't save the draft: \(SceneryError.messageForViewers(of: error)) Your text is kept here; save again."
            keep(editor)
        }
        await refresh()
    }

    /// Puts a form's text back where it was typed.
    private func keep(_ editor: Editor) {
        if editor.draft == nil { compose = editor } else { editing = editor }
    }

    /// Publishes or deletes a row's draft; what went wrong is said under that row.
    private func change(_ target: DraftEvents.Target, _ write: @Sendable () async throws -> Void) async {
        rowProblem = nil
        do {
            try await liveDrafts.write(for: self, write)
            if editing?.draft == target.draft { editing = nil }
        } catch {
            rowProblem = (target.draft, SceneryError.messageForViewers(of: error))
        }
        await refresh()
    }

    /// Fetches the drafts again after a write of this page's (its own writes do not come
    /// back through the feed); a failure is said as a live change's is, and tried again.
    private func refresh() async {
        await liveDrafts.refresh(.drafts(of: owner), for: self)
    }
}
