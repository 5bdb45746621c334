/// The render passes of a scene's modules: which run, and whether a pass may still put its
/// rendering in the host's copy.
///
/// Every change renders its module in a pass of its own. A module that runs on its page
/// (``PageIsolation``) renders in line, so its passes never overlap. A module that is an actor
/// of its own renders across a hop, so a pass may begin while an older one is away; the
/// newer one renders the whole module (it may be the one that counts), and a pass that comes
/// back after a newer pass committed is dropped: the newer rendering was made after the same
/// changes and more, so the host never goes back to an older one. No pass waits for another.
///
/// A baseline (``SceneInstance/takeBaseline()``) renders every shown module too: it
/// supersedes the passes begun before it rendered the module.
struct RenderPasses: Sendable {
    /// One render pass of one module.
    struct Pass: Sendable, Equatable {
        let module: ModuleID
        /// The pass's place among the module's passes, from 1.
        let number: Int
        /// Whether another pass of the module was running when this one began.
        let overlapped: Bool
    }

    /// One module's passes: how many began, how many run, the oldest that may still commit.
    private struct ModulePasses: Sendable {
        var begun = 0
        var running = 0
        var oldestCommitting = 0
    }

    /// One entry per module that rendered (a page keeps one dictionary, not three).
    private var modules: [ModuleID: ModulePasses] = [:]

    /// Begins a pass of `module`.
    mutating func begin(_ module: ModuleID) -> Pass {
        var state = modules[module, default: ModulePasses()]
        state.begun += 1
        let pass = Pass(module: module, number: state.begun, overlapped: state.running > 0)
        state.running += 1
        modules[module] = state
        return pass
    }

    /// The pass ended, committed or dropped.
    mutating func end(_ pass: Pass) {
        modules[pass.module]?.running -= 1
    }

    /// Whether a pass of `module` runs.
    func isRendering(_ module: ModuleID) -> Bool {
        (modules[module]?.running ?? 0) > 0
    }

    /// Whether `pass` may commit its rendering: no pass begun after it committed one (a pass
    /// may commit more than once: some nodes, then its whole module).
    func mayCommit(_ pass: Pass) -> Bool {
        pass.number >= (modules[pass.module]?.oldestCommitting ?? 0)
    }

    /// `pass` put its rendering in the host's copy.
    mutating func commit(_ pass: Pass) {
        raiseOldestCommitting(of: pass.module, to: pass.number)
    }

    /// The number of the latest pass of `module` begun so far (0 before the first).
    func latest(of module: ModuleID) -> Int {
        modules[module]?.begun ?? 0
    }

    /// A rendering made after pass `number` began replaced the host's copy of `module` (a
    /// baseline): passes begun up to it may no longer commit.
    mutating func supersede(_ module: ModuleID, through number: Int) {
        raiseOldestCommitting(of: module, to: number + 1)
    }

    private mutating func raiseOldestCommitting(of module: ModuleID, to number: Int) {
        var state = modules[module, default: ModulePasses()]
        state.oldestCommitting = max(state.oldestCommitting, number)
        modules[module] = state
    }
}
