/// An experiment of a resolved scene, with the scene file that declares it (where its
/// diagnostics point).
struct ResolvedExperiment: Sendable {
    var experiment: Experiment
    var owner: SceneDefinition
}

extension SceneRegistry {
    /// The variant an arm makes for a context whose conditions chose `chosen`: the arm's
    /// changes over `chosen`, or over the variant the arm extends. The result's condition is
    /// who may see it: the experiment's `"when"`, and `chosen`'s condition unless the arm
    /// starts from another variant (then only the experiment's decides).
    func variant(
        of arm: Experiment.Arm, in experiment: ResolvedExperiment, over chosen: ResolvedVariant, of scene: ResolvedScene,
        problems: inout [Diagnostic]
    ) -> ResolvedVariant {
        let changes = arm.changes
        let owner = experiment.owner
        var start = chosen
        var condition = Condition.all(chosen.condition, experiment.experiment.condition)
        if let parent = changes.extends {
            if let named = scene.variants.first(where: { $0.name == parent }) {
                start = named
                condition = experiment.experiment.condition
            } else {
                let names = scene.variants.map(\.name)
                problems.append(
                    Diagnostic(
                        .error,
                        "The arm '\(arm.name)' of the experiment '\(experiment.experiment.name)' extends '\(parent)', which is not a variant of '\(scene.id)'\(Suggestion.didYouMean(parent, in: names)); name one of: \(names.joined(separator: ", ")).",
                        file: changes.file, location: owner.location(of: "\(changes.path).extends"), path: "\(changes.path).extends"))
            }
        }
        var modules = apply(
            remove: changes.remove, replace: changes.replace, add: changes.add, to: start.modules, file: changes.file, path: changes.path,
            sceneFile: owner, problems: &problems)
        modules = apply(
            changes.parameterChanges, to: modules, file: changes.file, path: "\(changes.path).params", sceneFile: owner, problems: &problems)
        modules = apply(changes.displayChanges, to: modules, file: changes.file, path: "\(changes.path).display", sceneFile: owner, problems: &problems)
        var layout: [LayoutItem]? = changes.layout ?? start.layout
        var declaredLayout = start.declaredLayout
        if let own = changes.layout { declaredLayout = (changes.file, "\(changes.path).layout", own) }
        layout = apply(changes.tabChanges, to: layout, modules: modules, file: changes.file, sceneFile: owner, problems: &problems)
        for problem in placementProblems(of: modules) where !problems.contains(problem) { problems.append(problem) }
        return ResolvedVariant(
            name: start.name, condition: condition, modules: modules, layout: completeLayout(layout, modules: modules),
            rules: changes.events + start.rules, file: changes.file, path: changes.path, declaredLayout: declaredLayout,
            arm: (experiment.experiment.name, arm.name, start.name))
    }

    /// Applies the experiments that take part for `context` to the variant its conditions
    /// chose: each assigns an arm (by hash, or by the context's override) and changes the
    /// variant; experiments apply in the order the file declares them.
    func applyExperiments(
        of scene: ResolvedScene, to chosen: ResolvedVariant, for context: SceneContext
    ) throws(SceneryError) -> (variant: ResolvedVariant, assignments: [ExperimentAssignment]) {
        var variant = chosen
        var assignments: [ExperimentAssignment] = []
        let environment = context.environment()
        for resolved in scene.experiments {
            let experiment = resolved.experiment
            guard let unit = context.experimentUnit, experiment.condition?.evaluate(in: environment) ?? true else { continue }
            var arm = experiment.arm(for: unit)
            var isOverridden = false
            if let name = context.armOverrides[experiment.name] {
                guard let chosenArm = experiment.arms.first(where: { $0.name == name }) else {
                    throw SceneryError(
                        .invalidArgument,
                        "The experiment \(experiment.name.quoted) of \(scene.id.quoted) has no arm \(name.quoted)\(Suggestion.hint(for: name, in: experiment.arms.map(\.name), listing: "arms"))."
                    )
                }
                arm = chosenArm
                isOverridden = true
            }
            // What an exposure is: the modules the arms disagree on, for this context.
            var ignored: [Diagnostic] = []
            let outcomes = experiment.arms.map { self.variant(of: $0, in: resolved, over: variant, of: scene, problems: &ignored) }
            var exposing: Set<ModuleID> = []
            let ids = Set(outcomes.flatMap { $0.modules.map(\.id) })
            for id in ids {
                let shapes = Set(outcomes.map { $0.modules.first { $0.id == id }.map(ModuleShape.init) })
                if shapes.count > 1 { exposing.insert(id) }
            }
            // Arms that differ only in arrangement or rules expose on any module; arms that
            // show this context nothing different expose on none.
            let arrangements = Set(outcomes.map(\.layout))
            let rules = Set(outcomes.map { $0.rules.map { "\($0.file)#\($0.path)" } })
            let differ = !exposing.isEmpty || arrangements.count > 1 || rules.count > 1
            let index = experiment.arms.firstIndex { $0.name == arm.name } ?? 0
            variant = outcomes[index]
            assignments.append(
                ExperimentAssignment(
                    experiment: experiment.name, arm: arm.name, unit: unit, isOverridden: isOverridden, exposingModules: exposing,
                    armsDiffer: differ))
        }
        return (variant, assignments)
    }
}

/// What of a module instance a viewer can tell apart: two arms showing the same shape show
/// the same thing.
private struct ModuleShape: Hashable {
    var type: String
    var parameters: [String: JSONValue]
    var display: ViewNode.ListLayout?

    init(_ instance: ModuleInstance) {
        type = instance.type
        parameters = instance.parameters
        display = instance.display
    }
}
