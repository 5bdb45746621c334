import Synchronization

/// The validation of a registry's scenes, computed once per version of the registry.
/// A mutation replaces the cache instead of clearing it, so copies never share a stale one.
final class ValidationCache: Sendable {
    struct State {
        /// Every scene's problems, once all were validated.
        var all: [String: [Diagnostic]]?
        /// Problems of scenes validated one at a time.
        var byScene: [String: [Diagnostic]] = [:]
        /// The validator of scenes validated one at a time, kept for the next one.
        var validator: SceneValidator?
        /// Scene definitions applied by the validation of all scenes.
        var appliedByAll = 0
        /// Every scene the validation of all scenes resolved.
        var resolved: [String: ResolvedScene] = [:]
    }

    let state = Locked(State())
}
