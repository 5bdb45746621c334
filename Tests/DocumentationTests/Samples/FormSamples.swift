// The samples of "Forms: text people type" that are not the board's module.
import Foundation
import ProfileDemoDomain
import Scenery
import Testing

/// The editor of something two tabs may edit at once: its submit event names the thing and
/// the version it was opened at; the fields add what was typed.
func versionedEditor(of draft: Draft, typed: String) -> ViewNode {
    let edit = DraftEdit(draft: draft.id, version: draft.version, title: "", body: "")
    let title = TextField(name: "title", label: "Title", value: typed)
    let body = TextField(name: "body", label: "Text", value: draft.body, lines: .multiple(6))
    return .form(
        "draft.\(draft.id).editor", submit: .init(title: "Save", sends: DraftEvents.save.descriptor(edit)),
        [
            .textField("draft.\(draft.id).editor.title", title),
            .textField("draft.\(draft.id).editor.body", body),
        ])
}

@Suite struct FormSamples {
    @Test func aVersionedEditorSubmitsTheVersionItWasOpenedAtWithWhatWasTyped() throws {
        let draft = Draft(id: 7, owner: "1", title: "Tea", body: "", editedAt: Date(timeIntervalSince1970: 0), version: 3)
        guard case .form(let form) = versionedEditor(of: draft, typed: "Tea at four").kind else {
            Issue.record("not a form")
            return
        }
        let event = try form.submission(of: ["title": "Tea at four", "body": "Soon."], from: "drafts/draft.7.editor")
        let edit = try DraftEvents.save.payload(of: event)
        #expect(edit == DraftEdit(draft: 7, version: 3, title: "Tea at four", body: "Soon."))
    }
}
