import Foundation

/// Loading: a module's load under its deadline, how it ended, and the windows of long lists.
extension SceneInstance {
    /// Loads one module under its deadline and records the outcome.
    func load(_ id: ModuleID, _ request: LoadRequest) async {
        guard let load = await prepareLoad(id, request) else { return }
        let outcome = await run(timeout: load.slot.timeout, load.work)
        await finishLoad(id, request, load, outcome)
    }

    /// What a load needs after it ends: the module's slot and window when it started.
    struct StartedLoad: Sendable {
        let slot: ModuleSlot
        let window: RowWindow?
        var started = ContinuousClock.now
        let work: @Sendable () async throws -> Void
    }

    /// Marks the module loading (a retry shows its loading state at once) and returns the
    /// load's work; `nil` when the scene does not load (not started, or left).
    func prepareLoad(_ id: ModuleID, _ request: LoadRequest) async -> StartedLoad? {
        guard phase == .started, let slot = slots[id] else { return nil }
        if request == .initial || slot.status == .failed {
            slots[id]?.status = .loading
            slots[id]?.failure = nil
            // A retry replaces the error block with the module's loading state at once.
            if slot.status != .idle { await requestRender(id) }
        }
        let module = slot.module
        let window = request == .nextPage ? nil : windows[id]
        // A load is made for this page: what it writes is on the page's behalf.
        let context = WriteContext.current.onPage(origin)
        return StartedLoad(slot: slot, window: window) {
            try await context.run {
                try await module.load(request)
                // Fresh data: the rows of the window a host set are fetched before it renders.
                // Their failure is the module's to tell (as a failed next page), not a failed load.
                if let window { try? await module.load(window: window) }
            }
        }
    }

    /// Records how a load ended, and renders the module.
    func finishLoad(_ id: ModuleID, _ request: LoadRequest, _ load: StartedLoad, _ outcome: LoadRace.Outcome) async {
        guard phase == .started else { return }  // left: nothing updates
        let slot = load.slot
        if tooling.isObserved, let ended = SceneRegistry.LoadOutcome(outcome) {
            tooling.record(.loaded(id, type: slot.instance.type, duration: .now - load.started, outcome: ended), inScene: sceneID)
        }
        switch outcome {
        case .finished:
            slots[id]?.status = .ready
            // A host moved the window while the module loaded: fetch what the newest reaches.
            if request != .nextPage, let latest = windows[id], latest != load.window, await !loadWindow(latest, of: slot) { return }
        case .failed(let error):
            if request == .nextPage && slot.status == .ready {
                break  // the module keeps what it shows; its own state tells of the failure
            }
            slots[id]?.status = .failed
            slots[id]?.failure = SceneryError.messageForViewers(of: error)
            slots[id]?.isRetryable = !isPermanentFailure(error)
        case .timedOut:
            slots[id]?.status = .failed
            slots[id]?.isRetryable = true
            slots[id]?.failure = "This part of the page did not load within \(Self.describe(slot.timeout)); try again."
        case .cancelled:
            return
        }
        await requestRender(id)
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
    }

    /// Asks a module to render only the rows inside `window` of its long list (or all rows
    /// again for `nil`), and sends the host the change.
    ///
    /// The module first fetches what the window reaches (``Module/load(window:)``), under
    /// the module's deadline. When windows come faster than they load (a person scrolling),
    /// only the latest is rendered. Set before ``start()``, the window is what the first
    /// load fetches and the first rendering shows.
    public func setWindow(_ window: RowWindow?, for module: ModuleID) async {
        guard let slot = slots[module], windows[module] != window else { return }
        windows[module] = window
        guard phase != .created else { return }  // the first load fetches it, the first render shows it
        if let window, phase == .started, slot.status == .ready {
            guard await loadWindow(window, of: slot), phase == .started, windows[module] == window else { return }
        }
        await requestRender(module)
    }

    /// Has a module fetch what a window reaches, under its deadline. A failure leaves the
    /// module as it was (it says so in its own state); `false` when the scene was left.
    private func loadWindow(_ window: RowWindow, of slot: ModuleSlot) async -> Bool {
        let module = slot.module
        let context = WriteContext.current.onPage(origin)
        if case .cancelled = await run(timeout: slot.timeout, { try await context.run { try await module.load(window: window) } }) { return false }
        return true
    }
}

extension SceneRegistry.LoadOutcome {
    /// How a load race ended, as an observer hears it; `nil` for a cancelled load.
    init?(_ outcome: LoadRace.Outcome) {
        switch outcome {
        case .finished: self = .finished
        case .failed: self = .failed
        case .timedOut: self = .timedOut
        case .cancelled: return nil
        }
    }
}
