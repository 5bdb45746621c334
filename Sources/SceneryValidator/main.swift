// scenery-validator: the tool behind the build plugin. It validates scene files, prints
// every problem as `file:line:column: error: message` (so the build fails and editors jump
// to the line), and writes a Swift file with a typed list of the scene ids.
//
// Usage: SceneryValidator [--output FILE.swift] [--base NAME (FILE.json | DIRECTORY) …] [--swift FILE.swift …] (FILE.json | DIRECTORY) …
//   Files named *.modules.json declare module types (see ModuleManifest). Module types
//   are known from manifests: the validator links no module. `--swift FILE` is a Swift
//   source of the target: a module type it declares (`ModuleDescriptor(type: "Name", …)`)
//   and no manifest does may be used by the scenes, unchecked, with a warning that says
//   how to generate its manifest (so a new module builds before its manifest exists).
//   `--base NAME FILE` is a scene file or manifest of a package the target depends on
//   (NAME says which, for messages): its scenes are added first, for the target's scenes
//   to extend or replace, and are not reported on (their own package validates them).

import Foundation
import Scenery

let usage = "Usage: SceneryValidator [--output FILE.swift] [--base NAME (FILE.json | DIRECTORY) …] [--swift FILE.swift …] (FILE.json | DIRECTORY) …"
var output: String?
var files: [URL] = []
var swiftFiles: [URL] = []
var baseFiles: [URL] = []
var searched: [String] = []

/// The scene files and manifests `argument` stands for: itself, or those in the directory.
func filesNamed(by argument: String) -> [URL] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else { return [URL(filePath: argument)] }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
    return entries.filter {
        SceneRegistry.isSceneFile($0) || SceneRegistry.isManifestFile($0) || MessageCatalog.isCatalogFile($0) || Theme.isThemeFile($0)
    }.sorted().map {
        URL(filePath: argument).appending(path: $0)
    }
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--output":
        output = arguments.popFirst()
    case "--base":
        guard let name = arguments.popFirst(), let file = arguments.popFirst() else {
            FileHandle.standardError.write(Data("error: --base takes a name and a file.\n\(usage)\n".utf8))
            exit(2)
        }
        if !searched.contains(name) { searched.append(name) }
        baseFiles += filesNamed(by: file)
    case "--swift":
        guard let file = arguments.popFirst() else {
            FileHandle.standardError.write(Data("error: --swift takes a Swift file.\n\(usage)\n".utf8))
            exit(2)
        }
        swiftFiles.append(URL(filePath: file))
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        files += filesNamed(by: argument)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

var registry = SceneRegistry()
for manifest in (baseFiles + files) where SceneRegistry.isManifestFile(manifest.lastPathComponent) {
    do {
        registry.declareModules(from: try ModuleManifest.load(from: manifest))
    } catch {
        fail(error.description)
    }
}
// Module types the target declares in Swift and no manifest does yet.
var swiftOnly: [(type: String, file: URL)] = []
for file in swiftFiles {
    guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
    for type in SceneRegistry.moduleTypes(declaredInSwift: source)
    where !registry.moduleDescriptors.contains(where: { $0.type == type }) && !swiftOnly.contains(where: { $0.type == type }) {
        swiftOnly.append((type, file))
    }
}
registry.declareInSwiftOnly(swiftOnly.map(\.type))
for (type, file) in swiftOnly {
    FileHandle.standardError.write(
        Data(
            "\(file.standardizedFileURL.path):1:1: warning: \(type) is declared here and in no module manifest: scenes may use it, but their parameters and event rules for it are checked only when they run. Generate its manifest with the tool whose catalog registers it, into the scenes' folder: TOOL list --manifest --type \(type) > Scenes/NAME.modules.json\n"
                .utf8))
}
let scenes = files.filter { SceneRegistry.isSceneFile($0.lastPathComponent) }.sorted { $0.lastPathComponent < $1.lastPathComponent }
var diagnostics: [Diagnostic]
do {
    // The dependencies' scenes first: the target's own may extend or replace them.
    try registry.addScenes(files: baseFiles.filter { SceneRegistry.isSceneFile($0.lastPathComponent) })
    registry.addMessageCatalogs(files: (baseFiles + files).filter { MessageCatalog.isCatalogFile($0.lastPathComponent) })
    diagnostics = try registry.loadScenes(files: scenes)
    // The target's own catalogs: a dependency's are checked by its own build.
    let own = Set(files.filter { MessageCatalog.isCatalogFile($0.lastPathComponent) }.map(\.relativePath))
    diagnostics += registry.messageCatalogDiagnostics.filter { own.contains($0.file) }
    // The target's own themes: every semantic token, no alias cycle, and WCAG contrast for
    // every pair of colours a page can show.
    registry.addThemes(files: files.filter { Theme.isThemeFile($0.lastPathComponent) })
    diagnostics += registry.themeDiagnostics
} catch {
    fail(error.description)
}
// A scene it cannot find to extend: say where the plugin looked.
diagnostics = diagnostics.map { diagnostic in
    guard diagnostic.severity == .error, diagnostic.path == "extends" else { return diagnostic }
    var named = diagnostic
    let places = ["this target"] + searched
    named.message +=
        " Searched \(places.joined(separator: ", ")); if the scene is in another package, add the target that ships it (ProfileDemoScenes for Scenery's) to this target's dependencies."
    return named
}
// Absolute paths, so build logs and editors can open the file.
for diagnostic in diagnostics {
    var absolute = diagnostic
    absolute.file = URL(filePath: diagnostic.file).standardizedFileURL.path
    FileHandle.standardError.write(Data("\(absolute)\n".utf8))
}
if diagnostics.containsErrors { exit(1) }

if let output {
    // The target's own scenes (a dependency's are its package's to list).
    let own = Set(scenes.map { $0.deletingPathExtension().lastPathComponent })
    let ids = registry.sceneIDs.filter(own.contains)
    func caseName(_ id: String) -> String {
        let parts = id.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        var name = parts.enumerated().map { $0.offset == 0 ? $0.element.lowercased() : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
        if name.first?.isNumber ?? true { name = "scene" + name }
        return "`\(name)`"
    }
    var source = """
        // Generated by the Scenery build plugin from the package's Scenes/. Do not edit.

        /// The scenes bundled in this package's `Scenes/` directory, checked at build time,
        /// with the text of each file, so they travel with the executable.
        enum BundledScene: String, CaseIterable, Sendable {

        """
    for id in ids {
        let parameters = registry.parameters(of: id).map { "\($0.name): \($0.type)" }.joined(separator: ", ")
        let variants = registry.variantNames(of: id).joined(separator: ", ")
        source += "    /// `\(id)` — parameters: \(parameters.isEmpty ? "none" : parameters); variants: \(variants).\n"
        source += "    case \(caseName(id)) = \"\(id)\"\n"
    }
    source += "\n    /// The scene file's text, as it was at build time.\n    var source: String {\n        switch self {\n"
    for (id, file) in zip(ids, ids.map { id in scenes.first { $0.deletingPathExtension().lastPathComponent == id } }) {
        guard let file, let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
        // A raw string with more #s than any run in the text after a quote or a backslash
        // (so the text can neither end the literal nor interpolate).
        var longest = 0
        var run = -1
        for character in text {
            if character == "\"" || character == "\\" {
                run = 0
            } else if character == "#", run >= 0 {
                run += 1
                longest = max(longest, run)
            } else {
                run = -1
            }
        }
        let hashes = String(repeating: "#", count: longest + 1)
        source += "        case .\(caseName(id)):\n            return \(hashes)\"\"\"\n\(text)\(text.hasSuffix("\n") ? "" : "\n")\"\"\"\(hashes)\n"
    }
    source += "        }\n    }\n}\n"
    do {
        // Only rewrite when it changed, so dependent code is not rebuilt for nothing.
        if (try? String(contentsOfFile: output, encoding: .utf8)) != source {
            try source.write(toFile: output, atomically: true, encoding: .utf8)
        }
    } catch {
        fail("Cannot write '\(output)': \(error.localizedDescription)")
    }
}
