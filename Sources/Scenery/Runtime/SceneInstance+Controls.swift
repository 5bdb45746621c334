extension SceneInstance {
    /// Why ``activate(_:values:)`` sent nothing.
    public enum ActivationRefusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The tree the host was given has no control with this id (any more).
        case noControl(NodeID)
        /// Text was sent to a control that takes none: a button, a tab, a field by another
        /// name, or a field that sends no changes.
        case takesNoText(NodeID)
        /// The text breaks the form's or the field's rules.
        case invalidText(FormProblems)

        public var description: String {
            switch self {
            case .noControl(let id): "The scene shows no control \(id.rawValue.quoted); look it up in the tree the host was given."
            case .takesNoText(let id): "The control \(id.rawValue.quoted) takes no text; send its event without values."
            case .invalidText(let problems): "The form was not sent: \(problems)"
            }
        }
    }

    /// Activates the control with this id as a person would, in one call: finds it in the
    /// tree the host was given (by an index, building that control's event alone), checks
    /// the text typed into a form or a field against the form's rules and sizes, and sends
    /// the event through the scene's route.
    ///
    /// What a host calls when a person taps or submits; the event travels cell → module →
    /// scene → host as ``send(_:)`` describes.
    ///
    /// ```swift
    /// let outcome = try await scene.activate("blogs/blog.27.like")
    /// try await scene.activate("drafts/compose", values: ["title": "March", "body": "…"])
    /// ```
    ///
    /// - Parameters:
    ///   - id: The control's id, as `ViewNode/actions` names it.
    ///   - values: For a form, the text of its fields by name; for a field that sends its
    ///     text as people type, its text under its name; `nil` for any other control.
    /// - Returns: The route the event took.
    /// - Throws: ``ActivationRefusal``, and then nothing was sent.
    @discardableResult
    public func activate(_ id: NodeID, values: [String: String]? = nil) async throws(ActivationRefusal) -> EventOutcome {
        guard let action = action(withID: id) else { throw .noControl(id) }
        var event = action.event
        if let values {
            let typed: Event?
            do throws(FormProblems) {
                switch shownControl(withID: id)?.kind {
                case .form(let form)?:
                    typed = try form.submission(of: values, from: id)
                case .textField(let field)? where Set(values.keys) == [field.name]:
                    typed = try field.change(to: values[field.name] ?? "", from: id)
                default:
                    typed = nil
                }
            } catch {
                throw .invalidText(error)
            }
            guard let typed else { throw .takesNoText(id) }
            event = typed
        }
        return await send(event)
    }

    /// The control with an action id in the tree as the host was given it (its baseline and
    /// the updates since), or `nil`: what a host checks a person's tap against without
    /// keeping a copy of the tree. Ids as `ViewNode/actions` names them: a button's or
    /// selectable node's id (`blogs/blog.27.like`), a placeholder's for its retry,
    /// `switch#tab` for a tab.
    public func action(withID id: NodeID) -> ViewAction? {
        if let control = id.tabControl, let tabs = tabs(ofSwitch: control.tabSwitch.rawValue),
            let shown = shownTabs[control.tabSwitch.rawValue]
        {
            return tabSwitch(control.tabSwitch.rawValue, tabs, selection: shown, content: []).action(withID: id)
        }
        guard let module = frameShowing(id), let frame = frames[module]?.node else { return nil }
        return controlIndex(of: module)?.action(withID: id, in: frame)
    }

    /// The form with this id in the tree as the host was given it, or `nil`: what a host
    /// checks a submitted form's text against (its fields, their rules and sizes) with
    /// `Form/submission(of:from:)`.
    public func form(withID id: NodeID) -> Form? {
        guard case .form(let form)? = shownControl(withID: id)?.kind else { return nil }
        return form
    }

    /// The field with this id in the tree as the host was given it, or `nil`: what a host
    /// checks the text of a change event against (`TextField/change(to:from:)`).
    public func field(withID id: NodeID) -> TextField? {
        guard case .textField(let field)? = shownControl(withID: id)?.kind else { return nil }
        return field
    }

    private func shownControl(withID id: NodeID) -> ViewNode? {
        guard let module = frameShowing(id), let frame = frames[module]?.node else { return nil }
        return controlIndex(of: module)?.node(carrying: id, in: frame)
    }

    /// The module whose frame would hold a node with this id (`blogs` for `blogs/blog.27`).
    private func frameShowing(_ id: NodeID) -> ModuleID? {
        let module = id.moduleComponent
        return frames[module] == nil ? nil : module
    }

    /// The control index of a module's frame, made now if the frame has none yet.
    private func controlIndex(of module: ModuleID) -> ControlIndex? {
        if let index = frames[module]?.controls { return index }
        guard let frame = frames[module]?.node else { return nil }
        let index = ControlIndex(frame)
        frames[module]?.controls = index
        return index
    }
}
