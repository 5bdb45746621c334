/// A scene shown before its slowest module: the first rendering holds each module that is
/// still loading as its loading placeholder, and the module's content reaches the host as
/// an update when it loads, like any other change.
extension SceneInstance {
    /// Starts every module's first load concurrently and returns when all have ended or
    /// when `budget` has passed, whichever comes first; loads still running go on, and
    /// each one's outcome reaches the host as an update.
    ///
    /// A web host answers a page request this way: the fast modules are in the first
    /// response, a slow one is its placeholder there and is patched in when it loads, and
    /// a slow or failing module never holds back the rest.
    ///
    /// ```swift
    /// await scene.start(waitingAtMost: .milliseconds(200))
    /// let first = await scene.takeBaseline()       // slow modules show "Loading…"
    /// // … send `first`; later updates bring the slow modules in
    /// ```
    ///
    /// Calling it (or ``start()``) again does nothing. ``leave()`` cancels the loads.
    public func start(waitingAtMost budget: Duration) async {
        guard phase == .created else { return }
        phase = .started
        await startFirstLoads()
        await waitForFirstLoads(atMost: budget)
    }

    /// Whether every module's first load has ended (loaded, failed or timed out).
    public var hasFinishedFirstLoads: Bool { firstLoads.haveEnded }

    /// Waits until every module's first load has ended, or at most `budget` (`nil`: until
    /// they have).
    func waitForFirstLoads(atMost budget: Duration? = nil) async {
        guard phase == .started, let signal = firstLoads.startWaiting() else { return }
        await signal.wait(atMost: budget)
    }
}
