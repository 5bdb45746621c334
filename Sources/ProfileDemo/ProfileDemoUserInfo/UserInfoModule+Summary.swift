import ProfileDemoDomain
import Scenery

extension UserInfoModule {
    /// The owner's summary editor: the text typed, and what was wrong with the last save.
    struct SummaryEditor: Sendable {
        var text: String
        var fieldError: String?
        var formError: String?
    }

    /// Whether the viewer is the profile's user (who may edit the summary).
    var viewerIsOwner: Bool { viewer == user }

    /// The summary form; the module checks its rules again on what arrives.
    func summaryForm(_ editor: SummaryEditor) -> ViewNode {
        let field = TextField(
            name: "summary", label: wording.summaryLabel, value: editor.text, lines: .multiple(3), maximumLength: UserProfile.longestSummary,
            rules: [.length(0...UserProfile.longestSummary)], error: editor.fieldError)
        return .form(
            "summary.editor", submit: .init(title: wording.saveSummaryTitle, sends: UserEvents.saveSummary.name), error: editor.formError,
            [
                .textField("summary.editor.text", field),
                .button("summary.editor.cancel", title: wording.cancelTitle, sends: UserEvents.cancelSummary.descriptor(.init(user: user))),
            ])
    }

    /// The summary: its text, with the owner's edit button; the editor while it is open.
    func summaryNode(_ presenter: UserInfoPresenter) -> ViewNode {
        guard viewerIsOwner else { return .text("summary", presenter.summary) }
        if let summaryEditor { return summaryForm(summaryEditor) }
        return .stack(
            "summary.owner", axis: .horizontal,
            [
                .text("summary", presenter.summary),
                .button("summary.edit", title: wording.editSummaryTitle, sends: UserEvents.editSummary.descriptor(.init(user: user))),
            ])
    }
}
