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

    /// Opens or closes the owner's editor; `nil` for any other event.
    func handleSummary(_ event: Event) async -> EventDisposition? {
        if UserEvents.editSummary.matches(event) {
            guard viewerIsOwner, let profile = state.value else { return .handled }
            summaryEditor = SummaryEditor(text: profile.user.summary)
        } else if UserEvents.cancelSummary.matches(event) {
            summaryEditor = nil
        } else {
            return nil
        }
        await context.setNeedsRender()
        return .handled
    }

    /// Saves the summary the owner's form sent: checked again here, written once; the
    /// editor closes when it is saved and keeps the text, with what went wrong, when not.
    func saveSummary(_ text: String) async {
        guard viewerIsOwner, let viewer else { return }
        guard case .form(let form) = summaryForm(SummaryEditor(text: "")).kind else { return }
        let problems = form.problems(in: ["summary": text])
        guard problems.isEmpty else {
            summaryEditor = SummaryEditor(text: text, fieldError: problems.fields["summary"], formError: problems.form.first)
            return await context.setNeedsRender()
        }
        do {
            try await liveProfile.write(for: self) { try await profiles.setSummary(text, of: user, by: viewer) }
            summaryEditor = nil
            if var profile = state.value {
                profile.user.summary = text
                state = .loaded(profile)
            }
        } catch let error as ProfileError where error.kind == .alreadyApplied {
            summaryEditor = nil  // its page sent it twice: the first save is there
        } catch {
            summaryEditor = SummaryEditor(
                text: text, formError: "Couldn't save the summary: \(SceneryError.messageForViewers(of: error)) Your text is kept here; save again.")
        }
        await context.setNeedsRender()
    }
}
