import ProfileDemoDomain
import Scenery

extension DraftModule {
    /// What one editor holds: the draft it edits (none for a new one) at the version it was
    /// opened, what the owner typed, and what was wrong with the last save.
    struct Editor: Sendable {
        var draft: Int64?
        var version: Int?
        var title = ""
        var body = ""
        var fieldErrors: [String: String] = [:]
        var formError: String?

        /// A new draft's editor with `title` and `body` typed, or an empty one.
        init(title: String = "", body: String = "") {
            self.title = title
            self.body = body
        }

        /// The editor of `draft`, as stored.
        init(opening draft: Draft) {
            self.draft = draft.id
            version = draft.version
            title = draft.title
            body = draft.body
        }

        /// What the editor's form submits before the fields add their text.
        var edit: DraftEdit { DraftEdit(draft: draft, version: version, title: "", body: "") }
    }

    /// What the editor's controls say, from the scene's parameters.
    struct EditorWording: Sendable {
        var compose, titleLabel, bodyLabel, save, edit, cancel, publish, delete, emptyDraft: String

        init(_ parameters: ModuleParameters) throws {
            compose = try parameters.text("composeTitle")
            titleLabel = try parameters.text("titleLabel")
            bodyLabel = try parameters.text("bodyLabel")
            save = try parameters.text("saveTitle")
            edit = try parameters.text("editTitle")
            cancel = try parameters.text("cancelTitle")
            publish = try parameters.text("publishTitle")
            delete = try parameters.text("deleteTitle")
            emptyDraft = try parameters.text("emptyDraftText")
        }
    }

    /// The form a draft is written in: `compose` for a new one, `draft.7.editor` for draft 7.
    func form(_ editor: Editor, id: NodeID, heading: String?, error: String?) -> ViewNode {
        let fieldID = id.rawValue
        let title = TextField(
            name: "title", label: wording.titleLabel, value: editor.title, placeholder: untitledPlaceholder,
            maximumLength: Self.longestTitle, rules: [.length(0...Self.longestTitle)], error: editor.fieldErrors["title"])
        let body = TextField(
            name: "body", label: wording.bodyLabel, value: editor.body, lines: .multiple(6), maximumLength: Self.longestBody,
            rules: [.length(0...Self.longestBody)], error: editor.fieldErrors["body"])
        var children: [ViewNode] = []
        if let heading { children.append(.text(NodeID("\(fieldID).heading"), heading, role: .headline)) }
        children += [.textField(NodeID("\(fieldID).title"), title), .textField(NodeID("\(fieldID).body"), body)]
        if let target = editor.draft {
            let cancel = DraftEvents.Target(draft: target, version: editor.version ?? 0, title: editor.title)
            children.append(.button(NodeID("\(fieldID).cancel"), title: wording.cancel, sends: DraftEvents.cancel.descriptor(cancel)))
        }
        return .form(id, submit: .init(title: wording.save, sends: DraftEvents.save.descriptor(editor.edit)), error: error, children)
    }

    /// The new-draft form.
    func composeForm() -> ViewNode {
        form(compose, id: "compose", heading: wording.compose, error: compose.formError)
    }

    /// The editor of a listed draft (`stored`), or of one no longer stored (`nil`): then it
    /// saves as a new draft, and says why.
    func editorForm(_ editor: Editor, stored: Draft?) -> ViewNode {
        guard let stored else {
            var orphan = editor
            orphan.draft = nil
            orphan.version = nil
            let error =
                editor.formError
                ?? "This draft is no longer stored (it was published or deleted in another tab). What you typed is kept here; saving makes it a new draft."
            return form(orphan, id: "draft.\(editor.draft ?? 0).editor", heading: nil, error: error)
        }
        var error = editor.formError
        if error == nil, let version = editor.version, stored.version != version {
            error =
                "This draft was saved in another tab since you opened it, so saving here will be refused. Copy what you need, then Cancel and Edit it again."
        }
        return form(editor, id: "draft.\(stored.id).editor", heading: nil, error: error)
    }

    private var untitledPlaceholder: String { untitledText }

    /// What the form's rules find in `edit`, checked again here (a host is never trusted),
    /// and a draft with neither title nor text.
    func problems(in edit: DraftEdit) -> FormProblems {
        guard case .form(let form) = self.form(Editor(), id: "check", heading: nil, error: nil).kind else { return FormProblems() }
        var problems = form.problems(in: ["title": edit.title, "body": edit.body])
        if problems.isEmpty, edit.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            edit.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            problems.form.append(wording.emptyDraft)
        }
        return problems
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
