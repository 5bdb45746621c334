import SceneryText
import SceneryViewTree

/// A scene as a scene file describes it: parameters, modules, variants, layout, event rules.
///
/// Definitions are data, loaded at run time from `Scenes/<id>.json` by
/// ``SceneRegistry/loadScenes(in:)``; the file name is the scene id. See <doc:SceneFiles>
/// for the format.
package struct SceneDefinition: Sendable {
    /// The scene id: the file name without `.json`.
    package var id: String
    /// The path the definition was loaded from, as given to the loader.
    package var file: String
    /// A human title, if the file gives one.
    package var title: String?
    /// The language of the scene's wording (a BCP 47 tag such as `zh-Hans`), if the file
    /// gives one; hosts use it for the page's `lang`. Inherited through `extends`.
    package var language: String?
    /// The id of the scene this one extends, if any.
    package var extends: String?
    /// The scene's parameters (filled from the context's arguments).
    package var parameters: [ParameterSpec]
    /// Module instances added by this file (after the inherited ones).
    package var modules: [ModuleInstance]
    /// Inherited module instances this file removes.
    package var remove: [ModuleID]
    /// Inherited module instances this file replaces (matched by id).
    package var replace: [ModuleInstance]
    /// Parameters this file changes on inherited modules, by module id (`"params"`): merged
    /// over the instance's own, so a child changes wording without copying the instance.
    package var parameterChanges: [ModuleID: [String: JSONValue]] = [:]
    /// How the modules are arranged; `nil` stacks them in order.
    package var layout: [LayoutItem]?
    /// Variants, tried in order; the first whose condition holds is used.
    package var variants: [Variant]
    /// Event rules applied at the scene level.
    package var events: [EventRule]
    /// Experiments run on this scene (`"experiments"`), with the parent's not redeclared.
    package var experiments: [Experiment] = []
    /// What the file needs from the app (`format`, `requires`, `fallback`).
    package var requirements = SceneRequirements()

    /// Where each JSON path of the file starts, for diagnostics.
    package var sourceMap: [String: SourcePosition] = [:]

    /// The location of a JSON path of the file (`modules[1].params.user`, `requires.BlogModule`),
    /// or of the closest enclosing path that has one, for diagnostics about the file.
    package func location(of path: String) -> SourcePosition? {
        var path = path
        while true {
            if let location = sourceMap[path] { return location }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return sourceMap[""] }
            path = String(path[..<cut])
        }
    }
}

/// One module instance in a scene: an id, a module type and parameters.
package struct ModuleInstance: Sendable, Hashable {
    /// The instance's id, unique in its scene.
    package var id: ModuleID
    /// The registered module type.
    package var type: String
    /// Parameters as written, `$references` unresolved.
    package var parameters: [String: JSONValue]
    /// How long the first load may take before the module shows a time-out error.
    package var timeout: Duration?
    /// The JSON path of this instance in its file.
    package var path: String = ""
    /// The file the instance was written in (a parent's, when inherited).
    package var file: String = ""
    /// Where parameters changed by a child scene or variant (`"params"`) are written, by name.
    package var parameterOrigins: [String: ParameterOrigin] = [:]

    /// Creates an instance.
    /// How the module's list lays out its items (the `"display"` key), or `nil` for the
    /// module's own choice. The module's rows are the same nodes in every layout.
    package var display: ViewNode.ListLayout?
    /// How the module's content moves when it changes (the `"transitions"` key), or `nil`:
    /// nothing moves.
    package var transitions: Transitions?
    /// Where a module that no layout names goes (the `"after"`, `"before"` or `"at": "top"`
    /// key), or `nil` for the bottom of the page.
    package var placement: Placement?

    /// Where a module the layout does not name is placed: at the top of the page, or next to
    /// another module (inside the same tab when that module is in one).
    ///
    /// ```json
    /// "add": [ { "id": "bin", "type": "RecycleBinModule", "after": "info" } ]
    /// ```
    package enum Placement: Sendable, Hashable {
        case top
        case after(ModuleID)
        case before(ModuleID)

        /// The module it is placed next to, if any.
        package var anchor: ModuleID? {
            switch self {
            case .top: nil
            case .after(let id), .before(let id): id
            }
        }
    }

    package init(id: ModuleID, type: String, parameters: [String: JSONValue] = [:], timeout: Duration? = nil, display: ViewNode.ListLayout? = nil) {
        self.id = id
        self.type = type
        self.parameters = parameters
        self.timeout = timeout
        self.display = display
    }
}

/// One element of a layout: a module, or a tab switch over groups of modules.
package enum LayoutItem: Sendable, Hashable {
    /// The module with this id.
    case module(ModuleID)
    /// A tab switch; only the selected tab's modules are shown (and appear).
    case tabs(id: String, tabs: [TabSpec])

    /// The module ids the item places.
    package var moduleIDs: [ModuleID] {
        switch self {
        case .module(let id): [id]
        case .tabs(_, let tabs): tabs.flatMap(\.modules)
        }
    }
}

/// One tab of a tab switch in a layout.
package struct TabSpec: Sendable, Hashable {
    package var id: String
    package var title: String
    package var modules: [ModuleID]

    package init(id: String, title: String, modules: [ModuleID]) {
        self.id = id
        self.title = title
        self.modules = modules
    }
}

/// A variant of a scene: what changes when its condition holds.
package struct Variant: Sendable {
    /// The variant's name, for logs and `scenery list`.
    package var name: String
    /// When the variant applies; `nil` means always.
    package var condition: Condition?
    /// Module instances added.
    package var add: [ModuleInstance]
    /// Module instances removed (by id).
    package var remove: [ModuleID]
    /// Module instances replaced (by id).
    package var replace: [ModuleInstance]
    /// The layout, replacing the scene's, if given.
    package var layout: [LayoutItem]?
    /// Event rules tried before the scene's own.
    package var events: [EventRule]
    /// The name of the inherited variant this one builds on (`"extends"`), if any: it gets
    /// that variant's condition (unless it has a `when`), modules, layout and rules, with its
    /// own changes applied on top.
    package var extends: String?
    /// Parameters changed on the variant's modules, by module id (`"params"`).
    package var parameterChanges: [ModuleID: [String: JSONValue]] = [:]
    /// How the variant's modules lay out their lists, by module id (`"display"`): a carousel
    /// becomes rows without rewriting the module.
    ///
    /// ```json
    /// "display": { "friends": "rows" }
    /// ```
    package var displayChanges: [ModuleID: ViewNode.ListLayout] = [:]
    /// Tabs added to the layout's tab switches and tab titles changed (`"tabs"`).
    package var tabChanges: [TabChange] = []
    /// The JSON path of this variant in its file.
    package var path: String = ""
    /// The file the variant was written in (a parent's, when inherited).
    package var file: String = ""
}

/// Where a parameter value is written: a file and a JSON path in it.
package struct ParameterOrigin: Sendable, Hashable {
    package var file: String
    package var path: String

    package init(file: String, path: String) {
        self.file = file
        self.path = path
    }
}

/// Changes to one tab switch of an inherited layout, by the switch's id: tabs added at the
/// end, and tab titles changed.
///
/// ```json
/// "tabs": { "sections": { "add": [ { "id": "bin", "title": "Bin", "modules": ["bin"] } ],
///                         "titles": { "blogs": "博客" } } }
/// ```
package struct TabChange: Sendable, Hashable {
    /// The id of the tab switch changed.
    package var switchID: String
    /// Tabs added after the switch's own.
    package var add: [TabSpec]
    /// New titles, by tab id.
    package var titles: [String: String]
    /// The JSON path of this change in its file.
    package var path: String = ""
}

/// A scene-level rule for an event: confirm, navigate, block, let through.
///
/// ```json
/// { "on": "user.unfollow",
///   "steps": [ { "confirm": { "title": "Unfollow $event.name?", "confirm": "Unfollow" } },
///              "continue",
///              { "navigate": { "scene": "follow-list", "args": { "user": "$viewer" } } } ] }
/// ```
package struct EventRule: Sendable {
    /// The event name the rule applies to; a trailing `*` matches a prefix (`user.*`).
    package var on: String
    /// An extra condition, which may use `event.field`.
    package var condition: Condition?
    /// What to do, in order.
    package var steps: [Step]
    /// The JSON path of this rule in its file.
    package var path: String = ""
    /// The file the rule was written in (a parent's, when inherited).
    package var file: String = ""

    /// One step of a rule.
    package enum Step: Sendable, Hashable {
        /// Ask the host; a declined confirmation stops the event. Its texts may hold
        /// `$references`, resolved when it is asked.
        case confirm(Confirmation)
        /// Ask the host to show another scene.
        case navigate(scene: String, arguments: [String: JSONValue])
        /// Stop the event here.
        case block
        /// Let the event through now: the module's default action runs and the host
        /// receives it. Without this step, the event is let through after the last step.
        case `continue`
    }

    /// Whether the rule applies to an event name.
    package func matches(_ name: String) -> Bool {
        if on.hasSuffix("*") { return name.hasPrefix(on.dropLast()) }
        return name == on
    }
}
