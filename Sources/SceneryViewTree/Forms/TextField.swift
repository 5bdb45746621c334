/// A field a person types text into: its label, what it holds, and the rules its text must
/// keep.
///
/// A field is a node of the view tree (``ViewNode/Kind/textField(_:)``), usually inside a
/// ``Form``. The tree carries the field's *initial* value; what a person types is held by
/// their host (a browser's `<input>`, a test's `ModuleHarness`) and reaches the module only when
/// the form is submitted, under the field's ``name``, on that person's own page.
///
/// ```swift
/// let title = TextField(name: "title", label: "Title", placeholder: "What is it about?",
///                       maximumLength: 120, rules: [.required()])
/// ViewNode.textField("title", title)
/// ```
public struct TextField: Sendable, Hashable {
    /// The key of the field's text in the submitted payload (`title` → `{"title": "…"}`).
    public var name: String
    /// What the field is for, shown beside it and read by assistive technology.
    public var label: String
    /// The text the field shows until someone types, and again once their form is submitted:
    /// what is typed stays the typist's (no patch replaces it) until they submit; from the
    /// answer on, the field shows this value. A module that refuses a submit renders the
    /// submitted text back here (with ``error``), so nothing typed is lost; one that saved
    /// it renders an empty value, which clears the field.
    public var value: String
    /// A hint shown while the field is empty; never a label's substitute.
    public var placeholder: String?
    /// One line, or several (a text area).
    public var lines: Lines
    /// The most characters the field holds (Unicode characters, as a person counts them),
    /// and at most ``bytesPerCharacter`` bytes each.
    public var maximumLength: Int?
    /// Which keyboard a touch host shows, and how a browser treats the text.
    public var keyboard: Keyboard
    /// The rules the text must keep, checked by the host before sending and again by the
    /// module (``Form/problems(in:)``).
    public var rules: [FieldRule]
    /// What is wrong with the text, shown next to the field (set by the module after a
    /// submit it refused).
    public var error: String?
    /// The event sent as the person types (after the host's pause), for checking as they
    /// type or searching as they type; `nil` sends nothing until the form is submitted.
    public var changes: EventDescriptor?

    /// One line or several.
    public enum Lines: Sendable, Hashable {
        /// A single line: Return submits the form.
        case single
        /// Several lines, about this many shown: Return starts a new line.
        case multiple(Int)
    }

    /// The kind of text a field takes.
    public enum Keyboard: String, Sendable, Hashable, Codable, CaseIterable {
        case text, email, number, search
    }

    /// A field named `name`, labelled `label`.
    public init(
        name: String, label: String, value: String = "", placeholder: String? = nil, lines: Lines = .single,
        maximumLength: Int? = nil, keyboard: Keyboard = .text, rules: [FieldRule] = [], error: String? = nil,
        changes: EventDescriptor? = nil
    ) {
        self.name = name
        self.label = label
        self.value = value
        self.placeholder = placeholder
        self.lines = lines
        self.maximumLength = maximumLength
        self.keyboard = keyboard
        self.rules = rules
        self.error = error
        self.changes = changes
    }

    /// The event a host sends as a person types `text` (after a pause): ``changes`` with the
    /// text added under ``name``; `nil` when the field sends no changes.
    ///
    /// - Throws: ``FormProblems`` (for this field's name) when no field takes `text`: over
    ///   ``Form/largestText`` bytes, or holding control characters. The field's rules are not
    ///   checked here: checking them as people type is the module's to do.
    public func change(to text: String, from source: NodeID) throws(FormProblems) -> Event? {
        guard let changes else { return nil }
        if let problem = Form.problemSending(text, in: self) { throw FormProblems(fields: [name: problem]) }
        var event = Event(changes, from: source)
        event.payload[name] = .string(text)
        return event
    }

    /// What is wrong with `text` for this field, in words for the person typing: its length
    /// against ``maximumLength`` (characters, and bytes: see ``lengthProblem(of:atMost:label:)``),
    /// then each rule in order; `nil` when it is fine.
    ///
    /// ```swift
    /// TextField(name: "title", label: "Title", rules: [.required()]).problem(with: "")
    /// // "Title is required."
    /// ```
    public func problem(with text: String) -> String? {
        if let maximumLength, let problem = Self.lengthProblem(of: text, atMost: maximumLength, label: label) { return problem }
        for rule in rules {
            if let problem = rule.problem(with: text, label: label) { return problem }
        }
        return nil
    }
}
