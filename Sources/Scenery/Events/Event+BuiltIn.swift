extension Event {
    /// What one of the runtime's own events (`SceneEvents`) asks the scene to do, read
    /// from the event's name and payload in one place, so that no host or renderer spells
    /// the payload's keys.
    ///
    /// ```swift
    /// .button("more", title: "More", sends: EventDescriptor(.loadMore("blogs")))
    /// if case .selectTab(let tab, let tabSwitch)? = event.builtIn { selectedTabs[tabSwitch] = tab }
    /// ```
    public enum BuiltIn: Sendable, Hashable {
        /// Load a module that failed again (`SceneEvents/retry`).
        case retry(ModuleID)
        /// Load a module again from its start (`SceneEvents/refresh`).
        case refresh(ModuleID)
        /// Load a module's next page (`SceneEvents/loadMore`).
        case loadMore(ModuleID)
        /// Select the tab with this id in the tab switch with this id (`SceneEvents/selectTab`).
        case selectTab(String, inSwitch: String)

        /// The event's name.
        public var name: String {
            switch self {
            case .retry: SceneEvents.retry
            case .refresh: SceneEvents.refresh
            case .loadMore: SceneEvents.loadMore
            case .selectTab: SceneEvents.selectTab
            }
        }

        /// The event's payload, as the runtime reads it back.
        public var payload: [String: JSONValue] {
            switch self {
            case .retry(let module), .refresh(let module), .loadMore(let module): [Key.module.rawValue: .string(module.rawValue)]
            case .selectTab(let tab, let tabSwitch): [Key.tabSwitch.rawValue: .string(tabSwitch), Key.tab.rawValue: .string(tab)]
            }
        }

        /// The payload's keys (the names in the wire format and in scene files' conditions).
        private enum Key: String {
            case module
            case tabSwitch = "tabs"
            case tab
        }

        /// Reads a runtime event; `nil` for any other event, or one whose payload does not
        /// say what it asks (a tab selection without its switch or tab). A module event
        /// without its `module` is about the module its source belongs to.
        init?(_ event: Event) {
            func module() -> ModuleID {
                event.payload[Key.module.rawValue]?.stringValue.map { ModuleID($0) } ?? event.source.moduleComponent
            }
            switch event.name {
            case SceneEvents.retry: self = .retry(module())
            case SceneEvents.refresh: self = .refresh(module())
            case SceneEvents.loadMore: self = .loadMore(module())
            case SceneEvents.selectTab:
                guard let tabSwitch = event.payload[Key.tabSwitch.rawValue]?.stringValue, let tab = event.payload[Key.tab.rawValue]?.stringValue
                else { return nil }
                self = .selectTab(tab, inSwitch: tabSwitch)
            default: return nil
            }
        }
    }

    /// What this event asks of the runtime, if it is one of the runtime's own events and
    /// its payload says what it asks.
    public var builtIn: BuiltIn? { BuiltIn(self) }

    /// The runtime event that asks for `builtIn`, from `source`.
    public init(_ builtIn: BuiltIn, from source: NodeID) {
        self.init(builtIn.name, from: source, payload: builtIn.payload)
    }
}

extension EventDescriptor {
    /// The runtime event a control sends to ask for `builtIn`: a retry, refresh or
    /// load-more button, a tab.
    public init(_ builtIn: Event.BuiltIn) {
        self.init(builtIn.name, payload: builtIn.payload)
    }
}
