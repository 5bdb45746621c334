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
