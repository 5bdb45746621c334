import SceneryText
import SceneryViewTree

/// What a scene file needs from the app that runs it, and what to do when the app has less:
/// the `format`, `requires` and `fallback` keys of a scene file.
///
/// ```json
/// { "format": 1,
///   "requires": { "BlogModule": 2 },
///   "fallback": "drop",
///   "modules": [ … ] }
/// ```
///
/// A scene delivered to apps already installed may need a module type, or a version of one,
/// that an older app lacks. The app then degrades as the file says, never crashes and never
/// shows a blank screen (the model is Adaptive Cards' `requires` and `fallback`):
/// - ``Fallback/previous`` (the default): this version of the file is not used; the app
///   keeps the version it had (the last good one it fetched, or the one it ships with).
/// - ``Fallback/drop``: the modules whose type is missing or too old are left out, with a
///   warning, and the rest of the scene runs.
///
/// A `format` newer than ``SceneRequirements/currentFormat`` always keeps the previous
/// version: the app cannot know what else in the file means.
package struct SceneRequirements: Sendable, Hashable {
    /// The scene-file format this version of Scenery reads.
    package static let currentFormat = 1

    /// What an app does with a scene file whose requirements it does not meet.
    package enum Fallback: String, Sendable, Hashable, CaseIterable {
        /// Keep the previous version of the scene.
        case previous
        /// Leave out the modules the app cannot run, and run the rest.
        case drop
    }

    /// The scene-file format the file is written in.
    package var format: Int
    /// Module types the file needs, each with the lowest ``ModuleDescriptor/version`` it works with.
    package var modules: [String: Int]
    /// What to do when a requirement is not met.
    package var fallback: Fallback

    /// Creates requirements; the defaults need nothing beyond format 1.
    package init(format: Int = 1, modules: [String: Int] = [:], fallback: Fallback = .previous) {
        self.format = format
        self.modules = modules
        self.fallback = fallback
    }
}

/// A requirement of a scene file that an app does not meet.
package enum UnmetRequirement: Sendable, Hashable, CustomStringConvertible {
    /// The file is in a newer format than the app reads.
    case format(needed: Int, supported: Int)
    /// The app has no module of this type.
    case missingModule(type: String)
    /// The app's module is older than the file needs.
    case moduleVersion(type: String, needed: Int, available: Int)

    package var description: String {
        switch self {
        case .format(let needed, let supported):
            "it is in scene-file format \(needed), and this app reads format \(supported)"
        case .missingModule(let type):
            "it needs the module type \(type), which this app does not have"
        case .moduleVersion(let type, let needed, let available):
            "it needs \(type) version \(needed), and this app has version \(available)"
        }
    }

    /// The module type this requirement is about, if any.
    package var moduleType: String? {
        switch self {
        case .format: nil
        case .missingModule(let type), .moduleVersion(let type, _, _): type
        }
    }
}
