import ProfileDemoDomain
import Scenery

/// The one layout every user row shares: avatar, name, a line of text, and an action button.
/// Presenters decide the words and the button; the layout never changes.
public struct UserCell: Sendable, Hashable {
    /// The row's button: what it says and the event it sends (with the row's person).
    public struct Action: Sendable, Hashable {
        public var title: String
        public var event: EventKind<UserEvents.Person>
        public var style: ViewNode.ButtonStyle

        public init(title: String, event: EventKind<UserEvents.Person>, style: ViewNode.ButtonStyle = .secondary) {
            self.title = title
            self.event = event
            self.style = style
        }
    }

    public var user: UserID
    public var name: String
    public var subtitle: String
    public var avatar: ViewNode.ImageSource
    public var action: Action?
    /// What went wrong with the viewer's last action on this row, said under it (and
    /// announced); `nil` when nothing did.
    public var failure: String?

    public init(user: UserID, name: String, subtitle: String, avatar: ViewNode.ImageSource, action: Action?, failure: String? = nil) {
        self.user = user
        self.name = name
        self.subtitle = subtitle
        self.avatar = avatar
        self.action = action
        self.failure = failure
    }

    /// The row; selecting it sends `user.open`.
    public func render() -> ViewNode {
        let id = "user.\(user.rawValue)"
        var line: [ViewNode] = [
            .image("\(id).avatar", avatar, alt: name),
            .text("\(id).name", name, role: .headline),
        ]
        if let action {
            line.append(
                .button(
                    "\(id).action", title: action.title,
                    sends: action.event.descriptor(.init(user: user, name: name)),
                    style: action.style))
        }
        var parts: [ViewNode] = [.stack("\(id).line", axis: .horizontal, line), .text("\(id).subtitle", subtitle, role: .caption)]
        if let failure { parts.append(.text("\(id).failure", failure, role: .status)) }
        return ViewNode.stack(NodeID(id), parts).selectable(sending: UserEvents.open.descriptor(.init(user: user)))
    }
}
