import SceneryText
/// What was wrong with a submitted form: a message per field, by field name, and for the
/// form as a whole (fields it does not have, text no field can hold).
public struct FormProblems: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with each field's text, by the field's name.
    public var fields: [String: String]
    /// What is wrong with the submission as a whole.
    public var form: [String]

    /// Problems by field and for the whole form.
    public init(fields: [String: String] = [:], form: [String] = []) {
        self.fields = fields
        self.form = form
    }

    /// Whether nothing is wrong.
    public var isEmpty: Bool { fields.isEmpty && form.isEmpty }

    public var description: String {
        (form + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }).joined(separator: " ")
    }
}

extension Form {
    /// The most bytes one field's text may have on its way to a module, whatever the
    /// field declares: 64 KiB (a pasted chapter fits; a 10 MB paste is refused by name).
    public static let largestText = 64 * 1024

    /// What is wrong with `values` for this form's fields: a name the form has no field for,
    /// a field left out, text with control characters (other than tabs and new lines in a
    /// text area), a character with more than ``TextField/mostMarksPerCharacter`` marks, or
    /// longer than ``largestText`` bytes, and each field's own rules
    /// (``TextField/problem(with:)``). Empty when nothing is.
    ///
    /// Hosts call it before they send; a module calls it again on what arrived.
    ///
    /// ```swift
    /// let problems = composeForm.problems(in: ["title": "", "body": "Hello"])
    /// problems.fields["title"]   // "Title is required."
    /// ```
    public func problems(in values: [String: String]) -> FormProblems {
        var problems = FormProblems()
        let fields = self.fields
        let names = Set(fields.map(\.name))
        for name in values.keys.sorted() where !names.contains(name) {
            problems.form.append("This form has no field \(name.quoted); send only \(names.sorted().map(\.quoted).joined(separator: ", ")).")
        }
        for field in fields {
            guard let text = values[field.name] else {
                problems.fields[field.name] = "\(field.label) was not sent; send every field of the form."
                continue
            }
            if let problem = Self.problemSending(text, in: field) ?? field.problem(with: text) {
                problems.fields[field.name] = problem
            }
        }
        return problems
    }

    /// The event that submits `values` from the form node `source`: ``submit``'s event with
    /// each field's text added to its payload under the field's name.
    ///
    /// - Throws: ``FormProblems`` when ``problems(in:)`` finds any; nothing is sent then.
    public func submission(of values: [String: String], from source: NodeID) throws(FormProblems) -> Event {
        let problems = problems(in: values)
        guard problems.isEmpty else { throw problems }
        var payload = submit.event.payload
        for field in fields { payload[field.name] = .string(values[field.name] ?? "") }
        return Event(submit.event.name, from: source, payload: payload)
    }

    /// The event that submits the form as it is shown (each field's initial text), unchecked:
    /// the form's action in ``ViewNode/actions`` for hosts that list controls. A host where
    /// people type sends ``submission(of:from:)`` instead.
    public func submissionAsShown(from source: NodeID) -> Event {
        var payload = submit.event.payload
        for field in fields { payload[field.name] = .string(field.value) }
        return Event(submit.event.name, from: source, payload: payload)
    }

    /// What no field takes, whatever it declares: text over ``largestText`` bytes, control
    /// characters (other than tabs and new lines in a text area), and a character with more
    /// than ``TextField/mostMarksPerCharacter`` marks; `nil` when `text` is fine.
    package static func problemSending(_ text: String, in field: TextField) -> String? {
        if text.utf8.count > Self.largestText {
            return "\(field.label) is \(text.utf8.count) bytes; at most \(Self.largestText) are taken."
        }
        if let character = text.unicodeScalars.first(where: { !Self.isAllowed($0, in: field) }) {
            return "\(field.label) holds a control character (U+\(String(character.value, radix: 16, uppercase: true))); type text only."
        }
        return TextField.markProblem(in: text, label: field.label)
    }

    /// Tabs and new lines are text in a text area; every other control character (NUL,
    /// escape sequences, bidirectional overrides) is refused.
    private static func isAllowed(_ scalar: Unicode.Scalar, in field: TextField) -> Bool {
        if scalar == "\t" || scalar == "\n" || scalar == "\r" {
            if case .multiple = field.lines { return true }
            return scalar == "\t"
        }
        if scalar.properties.generalCategory == .control { return false }
        return !Self.bidiControls.contains(scalar.value)
    }

    /// The bidirectional embedding, override and isolate controls (they can make text read
    /// otherwise than it is stored).
    private static let bidiControls: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
}
