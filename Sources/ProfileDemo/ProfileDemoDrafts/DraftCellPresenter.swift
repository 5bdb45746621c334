import Foundation
import ProfileDemoDomain
import Scenery

/// What one draft cell shows, formatted.
public struct DraftCellPresenter: Sendable, Hashable {
    public let draft: Draft
    /// Title when the draft has none.
    public let untitled: String
    /// The edited line (`{date}`).
    public let editedFormat: LocalizedMessage

    public init(draft: Draft, untitled: String = "Untitled draft", editedFormat: LocalizedMessage = "Edited {date}") {
        self.draft = draft
        self.untitled = untitled
        self.editedFormat = editedFormat
    }

    public var title: String {
        let title = draft.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? untitled : title
    }

    public var edited: String { editedFormat(["date": .text(DisplayDate.string(from: draft.editedAt))]) }

    public func render() -> ViewNode {
        .stack(
            NodeID("draft.\(draft.id)"),
            [.text("draft.\(draft.id).title", title, role: .headline), .text("draft.\(draft.id).edited", edited, role: .caption)])
    }
}
