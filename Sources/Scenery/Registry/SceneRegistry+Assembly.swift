extension SceneRegistry {
    /// Assembles a scene for a context and starts it: picks the variant whose condition
    /// holds, creates its modules, and loads them concurrently. Returns when every module
    /// has loaded, failed or timed out.
    ///
    /// - Parameters:
    ///   - sceneID: The scene's id (its file name without `.json`).
    ///   - context: Who is looking, and the scene's arguments.
    ///   - host: Answers confirmations, carries out navigation, learns of updates.
    ///   - page: The isolation the scene and its modules run in (see ``PageIsolation``): a
    ///     host whose own page object is an actor makes it run there too. A new one by
    ///     default.
    /// - Throws: ``SceneryError`` if the scene is unknown or invalid, an argument is
    ///   missing or mistyped, or a module cannot be created.
    public func assemble(
        _ sceneID: String, for context: SceneContext, host: any SceneHost, on page: PageIsolation = PageIsolation()
    ) async throws(SceneryError) -> SceneInstance {
        let scene = try instantiate(sceneID, for: context, host: host, on: page)
        await scene.start()
        return scene
    }

    /// Assembles a scene without starting it, for hosts that show it before its modules
    /// load. Call ``SceneInstance/start()`` next.
    public func instantiate(
        _ sceneID: String, for context: SceneContext, host: any SceneHost, on page: PageIsolation = PageIsolation()
    ) throws(SceneryError) -> SceneInstance {
        guard sceneIDs.contains(sceneID) else {
            throw SceneryError(
                .unknownScene, "No scene \(sceneID.quoted) is registered\(Suggestion.hint(for: sceneID, in: sceneIDs, listing: "scenes")).")
        }
        let problems = diagnostics(for: sceneID)
        guard !problems.containsErrors else {
            throw SceneryError(
                .invalidScene, "The scene \(sceneID.quoted) has errors; fix them and load it again:",
                diagnostics: problems.filter { $0.severity == .error })
        }
        let resolved = try resolve(sceneID)
        let arguments = try checkedArguments(context.arguments, for: resolved)
        var context = context
        context.arguments = arguments
        let environment = context.environment()
        guard let chosenIndex = resolved.variants.firstIndex(where: { $0.condition?.evaluate(in: environment) ?? true }) else {
            // Unreachable: resolution always ends with an unconditional variant.
            throw SceneryError(.invalidScene, "No variant of \(sceneID.quoted) applies to this context.")
        }
        let chosen = resolved.variants[chosenIndex]
        let (variant, assignments) = try applyExperiments(of: resolved, to: chosen, for: context)

        // The viewer's language, when a catalog has it; else the scene's own.
        let language = self.language(of: sceneID, for: context.locale)
        let translation =
            PseudoLocale.isPseudo(language)
            ? SceneTranslation.pseudo : catalogs[language].map { SceneTranslation(catalog: $0, sections: sceneSections(of: sceneID, in: $0)) }
        let locale = MessageLocale(language)
        let link = SceneLink()
        var slots: [SceneInstance.ModuleSlot] = []
        for written in variant.modules {
            guard let registration = registrations[written.type], let factory = registration.factory else {
                throw SceneryError(
                    .moduleCreationFailed,
                    "The module type \(written.type.quoted) is declared but has no factory; register it with register(_:factory:) to assemble \(sceneID.quoted)."
                )
            }
            let descriptor = registration.descriptor
            let (instance, defaults) = translation?.translated(written, descriptor: descriptor) ?? (written, [:])
            var parameters = try moduleParameters(
                for: instance, descriptor: descriptor, defaults: defaults, environment: environment, sceneID: sceneID)
            parameters.locale = locale
            let moduleContext = ModuleContext(id: instance.id, viewer: context.viewer, page: page) { [link] _, change in
                await link.scene?.moduleDidChange(change)
            }
            let module: any Module
            do {
                module = try factory(parameters, moduleContext)
            } catch {
                throw SceneryError(
                    .moduleCreationFailed,
                    "Cannot create the module \(instance.id.rawValue.quoted) (\(instance.type)) of \(sceneID.quoted): \(SceneryError.message(for: error))")
            }
            var slot = SceneInstance.ModuleSlot(
                instance: instance, descriptor: descriptor, module: module, timeout: instance.timeout ?? defaultModuleTimeout)
            // A list's first page is what a host shows first (see SceneInstance.pageSizes).
            if descriptor.parameters.contains(where: { $0.name == "pageSize" && $0.type == .int }) {
                slot.pageSize = try? parameters.int("pageSize")
            }
            for (event, parameter) in descriptor.ownerOnlyActions {
                slot.actionOwners[event] = parameters[parameter].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
            }
            slots.append(slot)
        }
        let scene = SceneInstance(
            sceneID: sceneID, variant: chosen.name, assignments: assignments, context: context,
            layout: translation?.translated(variant.layout) ?? variant.layout, rules: translation?.translated(variant.rules) ?? variant.rules,
            slots: slots, host: host, isPermanentFailure: isPermanentFailure, impressionSink: impressionSink, impressionRule: impressionRule,
            page: page,
            tooling: SceneTooling(
                definitions: definitions, observers: activityObservers, variantCondition: chosen.condition?.source,
                variantsPassedOver: resolved.variants[..<chosenIndex].map { .init(name: $0.name, condition: $0.condition?.source ?? "") }))
        link.scene = scene
        scene.recordAssignments()
        return scene
    }

    /// The context's arguments checked against the scene's parameters, converted to their
    /// types (so `"20"` from a command line becomes `20`), defaults filled in.
    private func checkedArguments(_ given: [String: JSONValue], for scene: ResolvedScene) throws(SceneryError)
        -> [String: JSONValue]
    {
        var arguments: [String: JSONValue] = [:]
        let names = scene.parameters.map(\.name)
        for key in given.keys.sorted() where !names.contains(key) {
            throw SceneryError(
                .invalidArgument,
                "The scene \(scene.id.quoted) has no parameter \(key.quoted)\(Suggestion.hint(for: key, in: names, listing: "parameters")).")
        }
        for spec in scene.parameters {
            guard let value = given[spec.name] else {
                if let defaultValue = spec.defaultValue {
                    arguments[spec.name] = defaultValue
                } else {
                    throw SceneryError(
                        .invalidArgument,
                        "The scene \(scene.id.quoted) needs the argument \(spec.name.quoted) (\(spec.type.phrase)); pass it, for example --arg \(spec.name)=….",
                        missingArgument: spec.name)
                }
                continue
            }
            // Command lines give text, navigation arguments may give numbers for text.
            let converted: JSONValue? =
                spec.type.coerce(value) ?? value.stringValue.flatMap(spec.type.parse)
                ?? (spec.type == .string && value.doubleValue != nil ? .string(value.plainText) : nil)
            guard let converted else {
                throw SceneryError(
                    .invalidArgument,
                    "The argument \(spec.name.quoted) of \(scene.id.quoted) must be \(spec.type.phrase), not \(value.kindDescription) \(value.plainText.quoted)."
                )
            }
            arguments[spec.name] = converted
        }
        return arguments
    }

    /// The values a module is created with: what the scene sets (templates filled in, each
    /// checked against its parameter), else `defaults` (translations of the module type's
    /// wording, checked when translated), else the parameter's default.
    private func moduleParameters(
        for instance: ModuleInstance, descriptor: ModuleDescriptor, defaults: [String: JSONValue], environment: Condition.Environment,
        sceneID: String
    ) throws(SceneryError) -> ModuleParameters {
        var values: [String: JSONValue] = [:]
        for spec in descriptor.parameters {
            let resolved = instance.parameters[spec.name]?.resolvingTemplates(in: environment, allowsEventFields: false)
            guard let value = resolved, value != .null else {
                if let defaultValue = defaults[spec.name] ?? spec.defaultValue {
                    values[spec.name] = defaultValue
                    continue
                }
                throw SceneryError(
                    .invalidArgument,
                    "The module \(instance.id.rawValue.quoted) of \(sceneID.quoted) needs \(spec.name.quoted), which is empty in this context (is the viewer signed in?)."
                )
            }
            guard let typed = spec.type.coerce(value) else {
                throw SceneryError(
                    .invalidArgument,
                    "The module \(instance.id.rawValue.quoted) of \(sceneID.quoted) got \(value.kindDescription) for \(spec.name.quoted), which must be \(spec.type.phrase)."
                )
            }
            if let problem = spec.restrictionProblem(typed) {
                throw SceneryError(.invalidArgument, "The module \(instance.id.rawValue.quoted) of \(sceneID.quoted): \(problem).")
            }
            values[spec.name] = typed
        }
        return ModuleParameters(values)
    }
}
