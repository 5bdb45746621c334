import ArgumentParser
import Foundation
import Scenery

/// `scenery validate`: check scene files and print every problem in compiler form.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate scene files; print each problem as file:line:column: error: message.",
        discussion: """
            A file is validated with the scenes beside it and those built into the tool, so 'extends' and \
            'navigate' may name them; only the files given are reported. *.modules.json manifests declare \
            module types.
            """)

    @Argument(
        help: ArgumentHelp(
            "Scene files or directories (default: ./Scenes, else every Sources/<target>/Scenes of the package here).", valueName: "path"))
    var paths: [String] = []

    /// The folders `validate` checks when given none: `./Scenes` (Scenery's own layout), else
    /// each target's `Sources/<target>/Scenes` (a package made by `scenery new`, or any app
    /// whose scenes are its target's resources), in name order.
    static func defaultPaths(in directory: URL = URL(filePath: FileManager.default.currentDirectoryPath)) throws -> [String] {
        let fileManager = FileManager.default
        func isDirectory(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if isDirectory(directory.appending(path: "Scenes")) { return ["Scenes"] }
        let targets = (try? fileManager.contentsOfDirectory(atPath: directory.appending(path: "Sources").path)) ?? []
        let found = targets.sorted().map { "Sources/\($0)/Scenes" }.filter { isDirectory(directory.appending(path: $0)) }
        guard !found.isEmpty else {
            throw CommandFailure(
                "No scene files here: neither ./Scenes nor a Sources/<target>/Scenes folder exists in \(directory.path); "
                    + "run `validate` in your package's folder, or pass scene files or a directory of them.",
                code: .sceneryError)
        }
        return found
    }

    func run() async throws {
        try await reportingFailures {
            var registry = try ModuleCatalog.current.toolRegistry(services: nil)
            var checked: [URL] = []
            var catalogs: [URL] = []
            var themes: [URL] = []
            var context: [URL] = []
            for path in paths.isEmpty ? try Self.defaultPaths() : paths {
                let given = try SceneDirectory(path: path)
                try given.declareManifests(in: &registry)
                checked += given.sceneFiles
                catalogs += given.messageCatalogs
                themes += given.themes
                // A single file is checked among its directory's scenes and manifests.
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    let siblings = try? SceneDirectory(path: URL(filePath: path).deletingLastPathComponent().path)
                {
                    try siblings.declareManifests(in: &registry)
                    context += siblings.sceneFiles
                }
            }
            let checkedIDs = Set(checked.map { $0.deletingPathExtension().lastPathComponent })
            try registry.addScenes(files: context.filter { !checkedIDs.contains($0.deletingPathExtension().lastPathComponent) })
            registry.addMessageCatalogs(files: catalogs)
            var diagnostics = try registry.loadScenes(files: checked)
            if !catalogs.isEmpty { diagnostics += registry.messageCatalogDiagnostics }
            // The themes asked about, with the contrast of every pair a page can show.
            registry.addThemes(files: themes)
            diagnostics += registry.themeDiagnostics.filter { problem in themes.contains { $0.relativePath == problem.file } }
            // A scene that needs newer modules than this tool's is valid, but apps like it
            // will not use it: say so (``SceneRequirements``).
            for file in checked {
                guard let definition = registry.definition(of: file.deletingPathExtension().lastPathComponent) else { continue }
                for case .moduleVersion(let type, let needed, let available) in registry.unmetRequirements(of: definition) {
                    let consequence =
                        definition.requirements.fallback == .drop
                        ? "runs it without \(type) (\"fallback\": \"drop\")" : "keeps its previous version of the scene (\"fallback\": \"previous\")"
                    diagnostics.append(
                        Diagnostic(
                            .warning,
                            "The scene needs \(type) version \(needed), and this tool has version \(available): an app with these modules \(consequence).",
                            file: definition.file, location: definition.location(of: "requires.\(type)"), path: "requires.\(type)"))
                }
            }
            for diagnostic in diagnostics { Output.line(diagnostic.description) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            if errors > 0 {
                throw CommandFailure("\(errors) error(s) in \(Set(diagnostics.map(\.file)).count) scene file(s).", code: .invalidFile)
            }
            let others = [catalogs.isEmpty ? nil : "\(catalogs.count) message catalog(s)", themes.isEmpty ? nil : "\(themes.count) theme(s)"].compactMap { $0 }
            Output.line("\(checked.count) scene file(s)\(others.isEmpty ? "" : ", " + others.joined(separator: ", ")) valid.")
        }
    }
}
