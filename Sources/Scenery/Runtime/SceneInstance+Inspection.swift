extension SceneInstance {
    /// What a development tool shows about a part of a running page: the module that shows
    /// it, where the scene file placed that module, and why this page is what it is (the
    /// variant its context chose, the experiments' arms).
    ///
    /// It holds the page's own bookkeeping and what the module says of its state
    /// (``Module/inspectableState()``), for this page's viewer: the viewer's id is the page's
    /// own context, and the state is cut to a bound whatever the module holds.
    ///
    /// ```swift
    /// if let inspection = await scene.inspect("blogs/blog.26.like") {
    ///     print(inspection)  // blogs (BlogModule), placed at Scenes/user-profile.json:23:9 …
    /// }
    /// ```
    package struct Inspection: Sendable, Hashable, CustomStringConvertible {
        /// The scene's id.
        package var scene: String
        /// The module whose part of the page holds the node, and its registered type.
        package var module: ModuleID
        package var moduleType: String
        /// The scene file that placed the module (a parent's, when the scene inherits it),
        /// as the registry loaded it, and where in it the module's entry starts.
        package var file: String
        package var position: SourcePosition?
        /// Where the module is in its life: loading, ready, failed.
        package var status: ModuleStatus
        /// The module's parameters as its scene file wrote them (`$references` unresolved).
        package var parameters: [String: JSONValue]
        /// The rows of its long list the page shows, when the host windows it.
        package var window: RowWindow?
        /// What the module says of its state (``Module/inspectableState()``), its texts cut to
        /// ``longestStateText`` characters and its lists and objects to ``mostStateEntries``
        /// entries at every depth: a module of 10,000 rows inspects in a few kilobytes.
        package var state: [String: JSONValue]
        /// The variant the page's context chose, and its condition as the scene file wrote it
        /// (`nil`: it applies always).
        package var variant: String
        package var variantCondition: String?
        /// The variants tried before it, whose conditions did not hold for this page, each
        /// with its condition: why what they would show is not on this page (the reason,
        /// never what they hold).
        package var variantsPassedOver: [PassedVariant]
        /// The arm of each experiment the page takes part in.
        package var arms: [String: String]
        /// The context the page was assembled for: its viewer (the page's own), arguments
        /// and language.
        package var viewer: String?
        package var arguments: [String: JSONValue]
        package var locale: String?

        /// A variant whose condition did not hold for the page.
        package struct PassedVariant: Sendable, Hashable, Encodable {
            /// The variant's name, and its condition as the scene file wrote it.
            package var name: String
            package var condition: String

            package init(name: String, condition: String) {
                self.name = name
                self.condition = condition
            }
        }

        /// The longest text of a module's state an inspection keeps, and how many entries of
        /// each list or object.
        package static let longestStateText = 120
        package static let mostStateEntries = 16

        /// `file:line:column`, as compilers and editors write it, or the file alone.
        package var placement: String { position.map { "\(file):\($0)" } ?? file }

        package var description: String {
            var lines = [
                "\(module) (\(moduleType)), \(status.rawValue)", "placed at \(placement)",
                "scene \(scene), variant \(variant.quoted)" + (variantCondition.map { " (when \($0))" } ?? ""),
            ]
            if !variantsPassedOver.isEmpty {
                lines.append("passed over: " + variantsPassedOver.map { "\($0.name.quoted) (when \($0.condition))" }.joined(separator: ", "))
            }
            if !arms.isEmpty { lines.append("arms: " + arms.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")) }
            if !parameters.isEmpty { lines.append("parameters: " + Self.facts(parameters)) }
            if let window { lines.append("window: rows \(window.start)–\(window.start + window.count - 1)") }
            if !state.isEmpty { lines.append("state: " + Self.facts(state)) }
            let given = arguments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.plainText)" }.joined(separator: " ")
            let who = "viewer \(viewer.map(\.quoted) ?? "signed out")"
            lines.append(who + (given.isEmpty ? "" : ", arguments \(given)") + (locale.map { ", language \($0)" } ?? ""))
            return lines.joined(separator: "\n")
        }

        /// `name=value` pairs by name, a list as `[a, b]` and an object as `{k: v}`.
        private static func facts(_ entries: [String: JSONValue]) -> String {
            func text(_ value: JSONValue) -> String {
                switch value {
                case .null: "null"
                case .string(let string): string.quoted
                case .array(let values): "[" + values.map(text).joined(separator: ", ") + "]"
                case .object(let fields): "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ") + "}"
                default: value.plainText
                }
            }
            return entries.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: " ")
        }
    }

    /// The inspection of the module that shows the node with this id (`blogs/blog.26.like`,
    /// or a module's id alone), or `nil` when no module of this page would show it.
    /// Where the module that shows `node` was placed, `file:line:column`, with its id and type
    /// (`Scenes/user-profile.json:13:5, module blogs (BlogModule)`), or `nil`: what a log line
    /// names, without asking the module anything (`inspect(_:)` asks it for its state).
    package func placement(of node: NodeID) -> String? {
        guard let instance = slots[node.moduleComponent]?.instance else { return nil }
        let position = tooling.position(in: instance.file, of: instance.path)
        return (position.map { "\(instance.file):\($0)" } ?? instance.file) + ", module \(instance.id) (\(instance.type))"
    }

    package func inspect(_ node: NodeID) async -> Inspection? {
        guard let slot = slots[node.moduleComponent] else { return nil }
        let instance = slot.instance
        let abridged = JSONValue.object(await slot.module.inspectableState())
            .abridged(longestText: Inspection.longestStateText, mostEntries: Inspection.mostStateEntries)
        guard case .object(let state) = abridged else { return nil }
        return Inspection(
            scene: sceneID, module: instance.id, moduleType: instance.type, file: instance.file,
            position: tooling.position(in: instance.file, of: instance.path), status: slot.status, parameters: instance.parameters,
            window: windows[instance.id], state: state, variant: variant, variantCondition: tooling.variantCondition,
            variantsPassedOver: tooling.variantsPassedOver,
            arms: Dictionary(assignments.map { ($0.experiment, $0.arm) }, uniquingKeysWith: { first, _ in first }),
            viewer: context.viewer, arguments: context.arguments, locale: context.locale)
    }
}

extension SceneInstance.Inspection: Encodable {
    private enum CodingKeys: String, CodingKey {
        case scene, module, moduleType, file, line, column, placement, status, parameters, window, state, variant, variantCondition
        case variantsPassedOver, arms, viewer, arguments, locale
    }

    /// Its fields as JSON, the position as `line` and `column` when known, `window` when set,
    /// and `placement`
    /// (`file:line:column`): what `/inspect` answers and `interact --format json` prints.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scene, forKey: .scene)
        try container.encode(module.rawValue, forKey: .module)
        try container.encode(moduleType, forKey: .moduleType)
        try container.encode(file, forKey: .file)
        try container.encodeIfPresent(position?.line, forKey: .line)
        try container.encodeIfPresent(position?.column, forKey: .column)
        try container.encode(placement, forKey: .placement)
        try container.encode(status, forKey: .status)
        try container.encode(parameters, forKey: .parameters)
        try container.encodeIfPresent(window, forKey: .window)
        try container.encode(state, forKey: .state)
        try container.encode(variant, forKey: .variant)
        try container.encodeIfPresent(variantCondition, forKey: .variantCondition)
        try container.encode(variantsPassedOver, forKey: .variantsPassedOver)
        try container.encode(arms, forKey: .arms)
        try container.encode(viewer, forKey: .viewer)
        try container.encode(arguments, forKey: .arguments)
        try container.encode(locale, forKey: .locale)
    }
}
