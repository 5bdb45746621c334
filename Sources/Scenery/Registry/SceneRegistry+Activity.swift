extension SceneRegistry {
    /// What a page's runtime did, as a host's metrics or a development tool records it.
    ///
    /// ```swift
    /// struct SlowLoads: SceneRegistry.ActivityObserver {
    ///     func record(_ activity: SceneRegistry.Activity, inScene sceneID: String) {
    ///         if case .loaded(let module, _, let duration, _) = activity, duration > .seconds(1) {
    ///             print("\(sceneID)/\(module) took \(duration) to load")
    ///         }
    ///     }
    /// }
    /// registry.activityObservers.append(SlowLoads())
    /// ```
    package enum Activity: Sendable, Hashable {
        /// A module's load ended (its first, a refresh, a retry, a next page): the module,
        /// its registered type, how long the load took and how it ended.
        case loaded(ModuleID, type: String, duration: Duration, outcome: LoadOutcome)
        /// A module rendered what changed, and the change was diffed for the host: the
        /// module, its type, how long both took.
        case rendered(ModuleID, type: String, duration: Duration)
    }

    /// How a module's load ended.
    package enum LoadOutcome: String, Sendable, Hashable, CaseIterable {
        /// It loaded.
        case finished
        /// It threw: the module shows its error (or keeps what it showed, for a next page).
        case failed
        /// It did not end within the module's deadline.
        case timedOut = "timed-out"
    }

    /// Receives what every scene of a registry does, as it happens, on the scene's page:
    /// keep it cheap (count, time, hand over), for it runs between a module's work and the
    /// host's update. A left scene's loads that were cancelled are not reported.
    package protocol ActivityObserver: Sendable {
        /// Records `activity` of a scene of id `sceneID`.
        func record(_ activity: Activity, inScene sceneID: String)
    }
}

/// What a registry gives the scenes it assembles for tools: where scene files place things
/// (for `SceneInstance.inspect(_:)`), and who records what they do.
struct SceneTooling: Sendable {
    /// The registry's scene definitions (shared, not copied), searched only when inspecting.
    var definitions: [String: SceneDefinition] = [:]
    var observers: [any SceneRegistry.ActivityObserver] = []
    /// Why the page is the variant it is: the chosen variant's condition (`nil`: always), and
    /// the variants tried before it whose conditions did not hold, with their conditions.
    var variantCondition: String?
    var variantsPassedOver: [SceneInstance.Inspection.PassedVariant] = []

    /// Where the JSON path `path` of the scene file `file` starts, if a definition has it.
    func position(in file: String, of path: String) -> SourcePosition? {
        definitions.values.first { $0.file == file }?.location(of: path)
    }

    /// Whether anyone records activity (when nobody does, nothing is timed).
    var isObserved: Bool { !observers.isEmpty }

    func record(_ activity: SceneRegistry.Activity, inScene sceneID: String) {
        for observer in observers { observer.record(activity, inScene: sceneID) }
    }
}
