extension SceneInstance {
    /// Tells the scene how much of one of its nodes is on screen, for impressions and
    /// experiment exposures. Returns when the scene next needs ``recordImpressions(dueAt:)``
    /// (a node is being looked at but not yet long enough), or `nil`.
    ///
    /// A node counts once it has been at least `ImpressionRule.minimumVisibleFraction`
    /// visible for `ImpressionRule.minimumDuration` without a break, and at most once per
    /// scene (a page session), however often it is reported. Report a module by its id (the
    /// module frame's node), or a row of a module whose descriptor
    /// ``ModuleDescriptor/countsRowImpressions`` by the row's node id. The first impression
    /// of a module that differs between an experiment's arms is the experiment's exposure.
    ///
    /// ```swift
    /// // A host's visibility callback (IntersectionObserver, onAppear, a cell's display):
    /// if let deadline = try await scene.reportVisibility(of: "friends", fraction: 0.8, at: .now) {
    ///     try await ContinuousClock().sleep(until: deadline)
    ///     await scene.recordImpressions(dueAt: .now)
    /// }
    /// ```
    ///
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/notOnPage`` for a node the page
    ///   does not show (a module in an unselected tab, a row of a module that does not count
    ///   rows, a node of another page) or a fraction outside 0...1; nothing is counted.
    @discardableResult
    public func reportVisibility(of node: NodeID, fraction: Double, at instant: ContinuousClock.Instant) async throws(SceneryError)
        -> ContinuousClock.Instant?
    {
        guard fraction.isFinite, (0...1).contains(fraction) else {
            throw SceneryError(.notOnPage, "A visible fraction must be a number from 0 to 1, not \(fraction); nothing was counted.")
        }
        guard let target = await impressionTarget(for: node) else {
            throw SceneryError(
                .notOnPage,
                "The node \(node.rawValue.quoted) is not on this page of \(sceneID.quoted), or does not count impressions (a module shown, or a row of a module that counts rows); nothing was counted."
            )
        }
        if let seen = impressions.report(target, fraction: fraction, at: instant, rule: impressionRule) { recordSeen([seen]) }
        return impressions.nextDeadline(rule: impressionRule)
    }

    /// Counts what has been visible long enough by `instant`; returns the next deadline.
    @discardableResult
    public func recordImpressions(dueAt instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let shown = Set(visibleModules)
        impressions.keepTiming { shown.contains($0.module) }
        recordSeen(impressions.due(at: instant, rule: impressionRule))
        return impressions.nextDeadline(rule: impressionRule)
    }

    /// Counts every module shown now as seen, at once: for a host that shows the whole scene
    /// at a time (a terminal, a printed page), where nothing scrolls out of view.
    public func recordImpressionsOfShownModules() {
        recordSeen(visibleModules.compactMap { impressions.count(.module($0)) })
    }

    /// Records the assignments of the scene's context, once, when the scene is assembled.
    nonisolated func recordAssignments() {
        guard let sink = impressionSink else { return }
        for assignment in assignments where !assignment.isOverridden {
            sink.record(
                ImpressionRecord(
                    kind: .assignment, scene: sceneID, variant: variant, unit: assignment.unit, experiment: assignment.experiment, arm: assignment.arm))
        }
    }

    private func recordSeen(_ targets: [ImpressionTracker.Target]) {
        guard let sink = impressionSink, !targets.isEmpty else { return }
        let unit = context.experimentUnit
        for target in targets {
            switch target {
            case .module(let module):
                sink.record(ImpressionRecord(kind: .impression, scene: sceneID, variant: variant, unit: unit, module: module))
                for (index, assignment) in assignments.enumerated()
                where !assignment.isOverridden && assignment.isExposed(by: module) && impressions.expose(index) {
                    sink.record(
                        ImpressionRecord(
                            kind: .exposure, scene: sceneID, variant: variant, unit: assignment.unit, module: module,
                            experiment: assignment.experiment, arm: assignment.arm))
                }
            case .row(let module, let node):
                sink.record(ImpressionRecord(kind: .impression, scene: sceneID, variant: variant, unit: unit, module: module, node: node))
            }
        }
    }

    /// What a reported node is: a module shown now, or a row shown now of a module that
    /// counts rows; `nil` for anything else.
    private func impressionTarget(for node: NodeID) async -> ImpressionTracker.Target? {
        let shown = visibleModules
        if let module = shown.first(where: { $0.rawValue == node.rawValue }) { return .module(module) }
        guard let slash = node.rawValue.firstIndex(of: "/") else { return nil }
        let module = ModuleID(String(node.rawValue[..<slash]))
        guard shown.contains(module), let slot = slots[module], slot.descriptor.countsRowImpressions else { return nil }
        let frame = if let kept = frames[module]?.node { kept } else { await makeFrame(module) }
        for case .list(_, let sections) in frame.allNodes.map(\.kind) where sections.contains(where: { $0.rows.contains { $0.id == node } }) {
            return .row(module, node)
        }
        return nil
    }
}
