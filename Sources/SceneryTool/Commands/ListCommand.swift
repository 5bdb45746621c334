import ArgumentParser
import Scenery

/// `scenery list`: the registered module types and the scenes with their variants.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List registered module types and scenes with their parameters and variants.")

    @OptionGroup var scenes: SceneOptions

    @Flag(
        help: ArgumentHelp(
            "Print the module types as a *.modules.json manifest (generated from their Swift descriptors) instead, for tools that validate scene files without the modules."
        ))
    var manifest = false

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp("With --manifest: only this module type (repeatable), as a package writes the manifest of its own modules.", valueName: "type"))
    var types: [String] = []

    func validate() throws {
        if !types.isEmpty, !manifest {
            throw ValidationError("--type chooses the module types of a manifest; use it with --manifest.")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let registry = try await scenes.loadRegistry(services: nil)
            if manifest {
                let known = registry.moduleDescriptors.map(\.type)
                for type in types where !known.contains(type) {
                    throw CommandFailure(
                        "--type: no module type \(type.quoted) is registered\(didYouMean(type, in: known)); types: \(known.joined(separator: ", ")).",
                        code: .usage)
                }
                let chosen = registry.moduleDescriptors.filter { types.isEmpty || types.contains($0.type) }
                Output.write(try ModuleManifest(modules: chosen).jsonText())
                return
            }
            Output.line("Module types:")
            for descriptor in registry.moduleDescriptors {
                Output.line("  \(descriptor.type) — \(descriptor.summary)")
                for parameter in descriptor.parameters {
                    Output.line("      \(Self.describe(parameter))")
                }
                if !descriptor.events.isEmpty {
                    Output.line("      emits: \(descriptor.events.sorted().joined(separator: ", "))")
                }
            }
            Output.line("Scenes (\(scenes.description)):")
            for id in registry.sceneIDs {
                let problems = registry.diagnostics(for: id).filter { $0.severity == .error }.count
                let status = problems == 0 ? "" : "  ✗ \(problems) error(s); run scenery validate"
                let parameters = registry.parameters(of: id).map { "\($0.name): \($0.type)" }.joined(separator: ", ")
                Output.line("  \(id)(\(parameters))\(status)")
                let variants = registry.variantNames(of: id)
                if !variants.isEmpty { Output.line("      variants: \(variants.joined(separator: ", "))") }
                for experiment in registry.experiments(of: id) {
                    let arms = experiment.arms.map { "\($0.name) \(ExperimentsCommand.ReportCommand.number($0.weight))" }
                    let who = experiment.condition.map { "; when \($0.source)" } ?? ""
                    Output.line("      experiment \(experiment.name): \(arms.joined(separator: ", "))\(who)")
                }
            }
        }
    }

    /// `name: type (required | default "x"; one of a, b; 1…100) summary`
    static func describe(_ parameter: ParameterSpec) -> String {
        var facts = [parameter.defaultValue.map { value in value.stringValue.map { "default \"\($0)\"" } ?? "default \(value.plainText)" } ?? "required"]
        if let allowed = parameter.allowedValues { facts.append("one of \(allowed.joined(separator: ", "))") }
        if let range = parameter.range { facts.append("\(range.lowerBound)…\(range.upperBound)") }
        return "\(parameter.name): \(parameter.type) (\(facts.joined(separator: "; "))) \(parameter.summary)"
    }
}
