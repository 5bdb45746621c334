import Scenery

extension ModuleHarness {
    /// Types `text` into the field with this (module-local) id, replacing what it held, as a
    /// person does: the module hears nothing until the form is submitted (or, for a field
    /// with `TextField.changes`, until ``ModuleHarness/change(_:_:)``).
    ///
    /// ```swift
    /// try await harness.type("March notes", into: "compose.title")
    /// try await harness.submit("compose") { tree in try RenderExpectation.shows("March notes").verify(tree) }
    /// ```
    /// - Throws: ``ExpectationFailure`` if the tree has no such field (it lists the fields).
    public func type(_ text: String, into field: NodeID) async throws {
        _ = try Self.field(field, in: await module.render())
        typed.withLock { $0[field] = text }
    }

    /// The text a field holds for the test now: what was typed since its form was last
    /// submitted, else the value the module renders.
    public func text(in field: NodeID) async throws -> String {
        let tree = await module.render()
        let found = try Self.field(field, in: tree)
        return Self.text(of: found, id: field, typed: typed.withLock { $0 })
    }

    /// What a host would refuse to send if the form were submitted now, by field name (its
    /// rules, its maximum length, fields left out); empty when it would send.
    ///
    /// ```swift
    /// try await harness.type("", into: "compose.title")
    /// #expect(try await harness.problems(submitting: "compose").fields["title"] == "Title is required.")
    /// ```
    public func problems(submitting form: NodeID) async throws -> FormProblems {
        let (found, values, _) = try await valuesToSubmit(form)
        return found.problems(in: values)
    }

    /// Submits the form with this id with what was typed (each field's own value where
    /// nothing was), as a host does: the fields' rules are checked first, then the form's
    /// event goes to the module with the text under each field's name (see
    /// ``send(_:letThrough:confirming:_:)``). Then, as in a browser, what was typed is let go:
    /// each field shows the value the module renders (the text back with an error, or an
    /// empty field after a save).
    ///
    /// - Throws: ``ExpectationFailure`` if there is no such form, or when a host would not
    ///   send it (the message lists ``problems(submitting:)``: check those with that method).
    @discardableResult
    public func submit(
        _ form: NodeID, letThrough: Bool = true, confirming: Bool = true, _ assert: ((ViewNode) throws -> Void)? = nil
    ) async throws -> EventDisposition {
        let (found, values, fields) = try await valuesToSubmit(form)
        let event: Event
        do {
            event = try found.submission(of: values, from: form)
        } catch {
            throw ExpectationFailure("a host would not send form '\(form)': \(error). Check them with problems(submitting:).")
        }
        typed.withLock { typed in typed = typed.filter { !fields.contains($0.key) } }
        return try await send(event, letThrough: letThrough, confirming: confirming, assert)
    }

    /// Sends the change event of the field with this id with what was typed into it, as a
    /// host does after a person pauses typing.
    /// - Throws: ``ExpectationFailure`` if there is no such field, or it sends no changes.
    @discardableResult
    public func change(_ field: NodeID, _ assert: ((ViewNode) throws -> Void)? = nil) async throws -> EventDisposition {
        let tree = await module.render()
        let found = try Self.field(field, in: tree)
        let text = Self.text(of: found, id: field, typed: typed.withLock { $0 })
        let change: Event?
        do {
            change = try found.change(to: text, from: field)
        } catch {
            throw ExpectationFailure("a host would not send the change of field '\(field)': \(error)")
        }
        guard let change else {
            throw ExpectationFailure("field '\(field)' sends no changes as people type (its TextField has no `changes` event).")
        }
        return try await send(change, assert)
    }

    /// The form with this id, the text of each of its fields by name, and the fields' ids.
    private func valuesToSubmit(_ id: NodeID) async throws -> (Form, [String: String], Set<NodeID>) {
        let tree = await module.render()
        guard let node = tree.node(withID: id), case .form(let form) = node.kind else {
            let forms = tree.allNodes.compactMap { node -> String? in
                if case .form = node.kind { node.id.rawValue } else { nil }
            }
            throw ExpectationFailure("there is no form '\(id)' to submit; forms: \(forms.isEmpty ? "none" : forms.joined(separator: ", ")).")
        }
        let typed = typed.withLock { $0 }
        let fields = node.textFields
        var values: [String: String] = [:]
        for (id, field) in fields { values[field.name] = Self.text(of: field, id: id, typed: typed) }
        return (form, values, Set(fields.map(\.id)))
    }

    private static func text(of field: TextField, id: NodeID, typed: [NodeID: String]) -> String {
        typed[id] ?? field.value
    }

    private static func field(_ id: NodeID, in tree: ViewNode) throws(ExpectationFailure) -> TextField {
        if let node = tree.node(withID: id), case .textField(let field) = node.kind { return field }
        let fields = tree.textFields.map(\.id.rawValue)
        throw ExpectationFailure("there is no field '\(id)' to type into; fields: \(fields.isEmpty ? "none" : fields.joined(separator: ", ")).")
    }
}

extension RenderExpectation {
    /// The field with this id shows `message` as its error (next to it, for assistive
    /// technology too).
    public static func showsError(_ message: String, onField field: NodeID) -> RenderExpectation {
        RenderExpectation("show the error \"\(message)\" on field '\(field)'") { tree in
            guard let node = tree.node(withID: field), case .textField(let found) = node.kind else { return "it has no such field." }
            guard let error = found.error else { return "the field shows no error." }
            return error == message ? nil : "its error is \"\(error)\"."
        }
    }

    /// The field with this id shows no error.
    public static func showsNoError(onField field: NodeID) -> RenderExpectation {
        RenderExpectation("show no error on field '\(field)'") { tree in
            guard let node = tree.node(withID: field), case .textField(let found) = node.kind else { return "it has no such field." }
            return found.error.map { "its error is \"\($0)\"." }
        }
    }
}
