/// Fields grouped with the control that submits them: its submit event carries what was
/// typed, under each field's name, as the payload a module decodes.
///
/// A form is a node of the view tree (``ViewNode/Kind/form(_:)``) whose children are its
/// fields and any other nodes (a heading, a hint). Submitting sends ``submit``'s event with
/// its own payload plus a string per field, so the module reads a typed value, never a
/// dictionary:
///
/// ```swift
/// struct NewDraft: Codable, Sendable { var title: String; var body: String }
/// static let save = EventKind("draft.save", payload: NewDraft.self)
///
/// // in render():
/// .form("compose", submit: .init(title: "Save draft", sends: Self.save.name), [
///     .textField("title", TextField(name: "title", label: "Title", rules: [.required()])),
///     .textField("body", TextField(name: "body", label: "Text", lines: .multiple(6))),
/// ])
///
/// // in handle(_:):
/// if let draft = try? Self.save.payload(of: event) { … }
/// ```
///
/// Hosts check the fields' rules before they send (``submission(of:from:)``), and the module
/// checks them again with ``problems(in:)``: what a host sends is never trusted.
public struct Form: Sendable, Hashable {
    /// The control that submits the form.
    public struct Submit: Sendable, Hashable, Codable {
        /// What the control says ("Save draft").
        public var title: String
        /// The event it sends; the fields' text is added to its payload.
        public var event: EventDescriptor

        /// A submit control saying `title` that sends `event`.
        public init(title: String, sends event: EventDescriptor) {
            self.title = title
            self.event = event
        }

        /// A submit control saying `title` that sends the event named `name` with no
        /// payload of its own.
        public init(title: String, sends name: String) {
            self.init(title: title, sends: EventDescriptor(name))
        }
    }

    /// The fields and other nodes, in display order.
    public var children: [ViewNode]
    /// The control that submits the form.
    public var submit: Submit
    /// What went wrong with the last submit as a whole (the store was away, the draft
    /// changed elsewhere), shown by the submit control; field errors sit on the fields.
    public var error: String?

    /// A form of `children` submitted by `submit`.
    public init(children: [ViewNode], submit: Submit, error: String? = nil) {
        self.children = children
        self.submit = submit
        self.error = error
    }

    /// The form's fields, in display order, wherever they sit among its children.
    public var fields: [TextField] {
        children.flatMap(\.textFields).map(\.field)
    }

    /// The text each field starts with, by name: what a host shows before anyone types.
    public var initialValues: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
