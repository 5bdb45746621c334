import ArgumentParser
import Foundation
import Scenery

/// `scenery validate`: check scene files and print every problem in compiler form.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate scene files; print each problem as file:line:column: error: message.",
        discussion: "Scenes are validated together, so 'extends' and 'navigate' may name any scene among the files given.")

    @Argument(help: ArgumentHelp("Scene files or directories (default: ./Scenes).", valueName: "path"))
    var paths: [String] = []

    func run() async throws {
        try await reportingFailures {
            var registry = ModuleCatalog.registry(services: nil)
            var files: [URL] = []
            for path in paths.isEmpty ? ["Scenes"] : paths {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw CommandFailure("No such file or directory '\(path)'; pass scene files or a directory of them.", code: .sceneryError)
                }
                if isDirectory.boolValue {
                    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                    files += entries.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted()
                        .map { URL(filePath: path).appending(path: $0) }
                } else {
                    files.append(URL(filePath: path))
                }
            }
            let diagnostics = try registry.loadScenes(files: files)
            for diagnostic in diagnostics { Output.line(diagnostic.description) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            if errors > 0 {
                throw CommandFailure("\(errors) error(s) in \(Set(diagnostics.map(\.file)).count) scene file(s).", code: .invalidFile)
            }
            Output.line("\(files.count) scene file(s) valid.")
        }
    }
}
