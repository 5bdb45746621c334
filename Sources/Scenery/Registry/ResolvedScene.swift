/// A scene with `extends` applied and every variant turned into a concrete module list.
struct ResolvedScene: Sendable {
    var id: String
    var parameters: [ParameterSpec]
    /// The declared variants in order, then the scene's base (named "default") unless a
    /// declared variant always applies.
    var variants: [ResolvedVariant]
    /// The experiments run on the scene, its ancestors' first, each with the file declaring it.
    var experiments: [ResolvedExperiment] = []
}

/// One variant of a scene, ready to assemble.
struct ResolvedVariant: Sendable {
    var name: String
    var condition: Condition?
    var modules: [ModuleInstance]
    var layout: [LayoutItem]
    var rules: [EventRule]
    /// Where the variant was declared (empty for the base).
    var file: String
    var path: String
    /// The layout as a variant of its chain wrote it (before tab changes), and where: what
    /// the validator checks placements against. `nil`: the scene's base layout.
    var declaredLayout: (file: String, path: String, items: [LayoutItem])?
    /// For an experiment's arm made into a variant: the experiment, the arm, and the variant
    /// it was applied over (diagnostics name them).
    var arm: (experiment: String, arm: String, over: String)? = nil
}

/// A variant and the inherited variants it builds on (`"extends"`), oldest first, each with
/// the scene whose file declares it.
struct VariantChain: Sendable {
    var steps: [(variant: Variant, scene: SceneDefinition)]

    var name: String { steps[steps.count - 1].variant.name }
    /// The newest condition of the chain: a variant without `when` keeps the one it extends.
    var condition: Condition? { steps.last { $0.variant.condition != nil }?.variant.condition }
}

/// A scene with its ancestors applied, before its variants: what a child scene builds on.
/// Kept per scene while validating, so a chain of `extends` is resolved once, not once per
/// scene in it.
struct ResolvedBase: Sendable {
    var parameters: [ParameterSpec] = []
    var modules: [ModuleInstance] = []
    var layout: [LayoutItem]?
    var rules: [EventRule] = []
    var variants: [VariantChain] = []
    var experiments: [ResolvedExperiment] = []
}

/// Resolved bases by scene id (or the error that ended a scene's resolution), shared by the
/// resolutions of one validation.
struct ResolutionMemo: Sendable {
    /// Why a scene has no base.
    enum Failure: Error {
        case unknownAncestor, cycle

        func error(for sceneID: String) -> SceneryError {
            switch self {
            case .unknownAncestor: SceneryError(.invalidScene, "The scene '\(sceneID)' extends an unknown scene.")
            case .cycle: SceneryError(.invalidScene, "The scene '\(sceneID)' extends itself.")
            }
        }
    }

    var bases: [String: Result<ResolvedBase, Failure>] = [:]
    /// How many scene definitions were applied: a chain of n scenes costs n, not n².
    var appliedDefinitions = 0
}
