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

    private var begun: [ModuleID: Int] = [:]
    private var running: [ModuleID: Int] = [:]
    /// The oldest pass of each module that may still commit.
    private var oldestCommitting: [ModuleID: Int] = [:]

    /// Begins a pass of `module`.
    mutating func begin(_ module: ModuleID) -> Pass {
        let number = begun[module, default: 0] + 1
        begun[module] = number
        let overlapped = running[module, default: 0] > 0
        running[module, default: 0] += 1
        return Pass(module: module, number: number, overlapped: overlapped)
    }

    /// The pass ended, committed or dropped.
    mutating func end(_ pass: Pass) {
        let left = running[pass.module, default: 1] - 1
        running[pass.module] = left > 0 ? left : nil
    }

    /// Whether a pass of `module` runs.
    func isRendering(_ module: ModuleID) -> Bool {
        running[module] != nil
    }

    /// Whether `pass` may commit its rendering: no pass begun after it committed one (a pass
    /// may commit more than once: some nodes, then its whole module).
    func mayCommit(_ pass: Pass) -> Bool {
        pass.number >= oldestCommitting[pass.module, default: 0]
    }

    /// `pass` put its rendering in the host's copy.
    mutating func commit(_ pass: Pass) {
        oldestCommitting[pass.module] = max(oldestCommitting[pass.module, default: 0], pass.number)
    }

    /// The number of the latest pass of `module` begun so far (0 before the first).
    func latest(of module: ModuleID) -> Int {
        begun[module, default: 0]
    }

    /// A rendering made after pass `number` began replaced the host's copy of `module` (a
    /// baseline): passes begun up to it may no longer commit.
    mutating func supersede(_ module: ModuleID, through number: Int) {
        oldestCommitting[module] = max(oldestCommitting[module, default: 0], number + 1)
    }
}
