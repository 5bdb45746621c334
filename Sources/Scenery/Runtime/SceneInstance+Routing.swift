extension SceneInstance {
    /// Routes an event: the module that owns its source node first, then the scene's
    /// event rules, then the host. Returns the route it took.
    ///
    /// - A module may handle the event, pass it, transform it, or ask for a confirmation.
    /// - The first scene rule whose `on` and `when` match runs its steps: confirm (a
    ///   declined confirmation stops the event), navigate (an intent for the host), block,
    ///   and continue (let the event through at that point).
    /// - Letting the event through runs the module's default action (``Module/perform(_:)``)
    ///   and hands the event to ``SceneHost/receive(_:)``.
    ///
    /// The runtime's own events (`SceneEvents`: retry, refresh, load more, select tab)
    /// are handled by the scene before any module sees them.
    @discardableResult
    public func send(_ event: Event) async -> EventOutcome {
        // What the person's action changes is this page's doing (see ChangeSource).
        await WriteContext.current.onPage(origin).run { await route(event) }
    }

    private func route(_ event: Event) async -> EventOutcome {
        var trace = Trace(event: event)
        if phase == .left {
            return trace.finish(.ignored)
        }
        if SceneEvents.isBuiltIn(event.name) {
            await handleBuiltIn(event, trace: &trace)
        } else {
            await route(event, trace: &trace)
        }
        let outcome = trace.outcome
        if phase != .left {
            recentEvents.append(outcome)
        }
        return outcome
    }

    /// The record of one event's route while it is being built.
    struct Trace {
        var event: Event
        var current: Event
        var steps: [EventOutcome.Step] = []
        var navigations: [NavigationIntent] = []
        var result: EventOutcome.Result = .delivered
        var rule: EventOutcome.Rule?

        init(event: Event) {
            self.event = event
            self.current = event
        }

        mutating func note(_ level: EventOutcome.Level, _ action: EventOutcome.Step.Action) {
            steps.append(EventOutcome.Step(level, action))
        }

        mutating func finish(_ result: EventOutcome.Result) -> EventOutcome {
            self.result = result
            return outcome
        }

        var outcome: EventOutcome {
            EventOutcome(event: event, finalEvent: current, route: steps, result: result, navigations: navigations, rule: rule)
        }
    }

    private func route(_ event: Event, trace: inout Trace) async {
        let origin = slots[event.source.moduleComponent] != nil ? event.source.moduleComponent : nil
        // 0. An owner-only action for someone who is not its owner: refused first, so that no
        // module or rule asks them anything about it (a forged delete sees no question).
        if refusesOwnerOnly(event.name, of: origin, trace: &trace) { return }

        // 1. The module that rendered the source node.
        if let origin, let slot = slots[origin] {
            let local = Event(event.name, from: event.source.localComponent, payload: event.payload)
            switch await slot.module.handle(local) {
            case .handled:
                trace.note(.module(origin), .handled)
                trace.result = .handled(by: .module(origin))
                return
            case .pass:
                trace.note(.module(origin), .passed)
            case .transform(let transformed):
                trace.current = Event(transformed.name, from: transformed.source.qualified(by: origin), payload: transformed.payload)
                trace.note(.module(origin), .transformed(into: transformed.name))
                if refusesOwnerOnly(transformed.name, of: origin, trace: &trace) { return }
            case .confirm(let confirmation):
                let accepted = await host.confirm(confirmation)
                trace.note(.module(origin), .asked(confirmation.title, confirmed: accepted))
                guard accepted else {
                    trace.result = .cancelled(by: .module(origin))
                    return
                }
            }
            guard phase != .left else { return }
        }

        // 2. The scene's rules.
        let environment = context.environment(event: trace.current.payload)
        guard
            let rule = rules.first(where: { $0.matches(trace.current.name) && ($0.condition?.evaluate(in: environment) ?? true) })
        else {
            trace.note(.scene, .passed)
            await letThrough(origin: origin, trace: &trace)
            return
        }
        // Where the deciding rule was written (looked up only for an event a rule matched).
        trace.rule = EventOutcome.Rule(on: rule.on, file: rule.file, position: tooling.position(in: rule.file, of: rule.path))
        var delivered = false
        for step in rule.steps {
            guard phase != .left else { return }
            switch step {
            case .confirm(let template):
                let confirmation = Confirmation(
                    title: resolve(template.title, environment),
                    message: template.message.map { resolve($0, environment) },
                    confirmLabel: resolve(template.confirmLabel, environment),
                    cancelLabel: resolve(template.cancelLabel, environment), isDestructive: template.isDestructive)
                let accepted = await host.confirm(confirmation)
                trace.note(.scene, .asked(confirmation.title, confirmed: accepted))
                guard accepted else {
                    trace.result = .cancelled(by: .scene)
                    return
                }
            case .block:
                trace.note(.scene, .blocked)
                trace.result = .cancelled(by: .scene)
                return
            case .navigate(let scene, let arguments):
                let intent = NavigationIntent(
                    scene: scene,
                    arguments: arguments.mapValues { $0.resolvingTemplates(in: environment, allowsEventFields: true) },
                    trigger: trace.current.name)
                trace.navigations.append(intent)
                trace.note(.scene, .navigated(to: scene))
                await host.navigate(to: intent)
            case .continue:
                if !delivered {
                    trace.note(.scene, .letThrough)
                    await letThrough(origin: origin, trace: &trace)
                    delivered = true
                }
            }
        }
        if !delivered {
            trace.note(.scene, .letThrough)
            await letThrough(origin: origin, trace: &trace)
        }
    }

    private func resolve(_ text: String, _ environment: Condition.Environment) -> String {
        JSONValue.string(text).resolvingTemplates(in: environment, allowsEventFields: true).plainText
    }

    /// Runs the origin module's default action, then hands the event to the host (unless
    /// the action failed).
    private func letThrough(origin: ModuleID?, trace: inout Trace) async {
        guard phase != .left, !refusesOwnerOnly(trace.current.name, of: origin, trace: &trace) else { return }
        if let origin, let slot = slots[origin] {
            let local = Event(trace.current.name, from: trace.current.source.localComponent, payload: trace.current.payload)
            do {
                try await slot.module.perform(local)
                trace.note(.module(origin), .performed)
            } catch {
                let reason = SceneryError.message(for: error)
                trace.note(.module(origin), .failed(reason))
                trace.result = .failed(in: .module(origin), reason: reason)
                return
            }
        }
        guard phase != .left else { return }
        await host.receive(trace.current)
        trace.note(.host, .received)
        trace.result = .delivered
    }

    /// Refuses `name` when it is an owner-only action of `origin`'s module and the viewer is
    /// not its owner (nothing may take it then); whether it refused.
    private func refusesOwnerOnly(_ name: String, of origin: ModuleID?, trace: inout Trace) -> Bool {
        guard let origin, let slot = slots[origin], let owner = slot.actionOwners[name], owner == nil || owner != context.viewer else {
            return false
        }
        let parameter = slot.descriptor.ownerOnlyActions[name] ?? "owner"
        trace.note(.module(origin), .refused("only the user named by '\(parameter)' may take this action"))
        trace.result = .cancelled(by: .module(origin))
        return true
    }

    private func handleBuiltIn(_ event: Event, trace: inout Trace) async {
        let builtIn = event.builtIn
        switch builtIn {
        case .retry(let id)?, .refresh(let id)?, .loadMore(let id)?:
            guard slots[id] != nil else {
                trace.note(.scene, .ignored("no module '\(id)'"))
                trace.result = .handled(by: .scene)
                return
            }
            let request: LoadRequest =
                switch builtIn {
                case .loadMore?: .nextPage
                case .refresh?: .refresh
                default: .initial
                }
            await load(id, request)
            if let status = slots[id]?.status { trace.note(.scene, .reloaded(id, request, status: status)) }
        case .selectTab(let tab, let switchID)?:
            guard let tabs = tabs(ofSwitch: switchID), let newTab = tabs.first(where: { $0.id == tab }) else {
                trace.note(.scene, .ignored("no such tab"))
                trace.result = .handled(by: .scene)
                return
            }
            await selectTab(newTab, in: switchID, tabs: tabs)
            trace.note(.scene, .selectedTab(tab))
        case nil where event.name == SceneEvents.selectTab:
            trace.note(.scene, .ignored("no such tab"))
        case nil:
            trace.note(.scene, .ignored("unknown runtime event"))
        }
        trace.result = .handled(by: .scene)
    }

    private func selectTab(_ tab: TabSpec, in switchID: String, tabs: [TabSpec]) async {
        guard let previous = tabSelection[switchID], previous != tab.id else { return }
        let leaving = tabs.first { $0.id == previous }?.modules ?? []
        if isShown { for id in leaving { await slots[id]?.module.disappear() } }
        tabSelection[switchID] = tab.id
        if isShown { for id in tab.modules { await slots[id]?.module.appear() } }
        await commitTabSwitch(switchID, tabs: tabs, to: tab)
    }
}
