import Foundation
import Scenery

/// The files of a new app package (``NewCommand``): what `scenery new NAME` writes.
struct NewPackage {
    /// How the package depends on Scenery.
    enum Dependency: Equatable {
        /// A checkout on disk.
        case path(String)
        /// A git URL, from a version.
        case url(String)

        /// A folder or a URL. A relative folder is written relative to the new package
        /// (`package`), so the two folders can move together; an absolute one stays absolute.
        init(_ text: String, forPackageIn package: URL? = nil) throws(CommandFailure) {
            // It is written into Package.swift: a line break (or another control character)
            // there would end the string literal.
            if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw CommandFailure(
                    "--scenery \(text.debugDescription) holds a control character (U+\(String(control.value, radix: 16, uppercase: true))), which a Package.swift cannot name; move or rename that folder, or give a git URL.",
                    code: .usage)
            }
            if text.contains("://") || text.hasPrefix("git@") {
                self = .url(text)
                return
            }
            let folder = URL(filePath: text, relativeTo: URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory))
                .standardizedFileURL
            guard FileManager.default.fileExists(atPath: folder.appending(path: "Package.swift").path) else {
                throw CommandFailure(
                    "--scenery \(text.quoted) is not a Scenery checkout (it has no Package.swift); give the folder of one, or a git URL.", code: .usage)
            }
            guard let package, !text.hasPrefix("/") else {
                self = .path(folder.path)
                return
            }
            self = .path(Self.relativePath(of: folder, from: package.standardizedFileURL))
        }

        /// How to reach `folder` from `base`, both absolute: `../main`, `../../Scenery`, `.`.
        static func relativePath(of folder: URL, from base: URL) -> String {
            let to = folder.pathComponents.filter { $0 != "/" }
            let from = base.pathComponents.filter { $0 != "/" }
            let shared = zip(to, from).prefix { $0 == $1 }.count
            let steps = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)
            return steps.isEmpty ? "." : steps.joined(separator: "/")
        }

        /// The checkout this tool was built from, if it is still there.
        static func builtFrom() throws(CommandFailure) -> String {
            // Sources/SceneryTool/New/NewPackage.swift → the checkout.
            let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: root.appending(path: "Package.swift").path) else {
                throw CommandFailure(
                    "This tool was not built from a Scenery checkout that is still on disk; say where Scenery is with --scenery PATH or --scenery URL.",
                    code: .usage)
            }
            return root.path
        }

        /// The `dependencies:` line of the manifest.
        var manifestLine: String {
            switch self {
            case .path(let path): ".package(name: \"Scenery\", path: \(NewPackage.literal(path)))"
            case .url(let url): ".package(name: \"Scenery\", url: \(NewPackage.literal(url)), from: \"\(sceneryVersion)\")"
            }
        }
    }

    let name: String
    let dependency: Dependency
    /// Whether it is a part of the bundled profile (`--part`) rather than an app of its own.
    var isPart = false

    /// The targets it makes, whose names must be free.
    var targets: [String] { isPart ? [name, partTool] : [name, modules] }

    /// The command that runs it first, as its README and `new` say.
    var firstRun: String {
        isPart ? "swift run \(partTool) run user-profile --viewer 2 --arg user=1" : "swift run \(name) run welcome --arg name=Ada"
    }

    /// The library target with the app's modules and scenes.
    var modules: String { "\(name)Modules" }

    /// The files, by path in the package.
    var files: [String: String] { isPart ? partFiles : appFiles }

    /// An app's files, by path in the package.
    private var appFiles: [String: String] {
        [
            "Package.swift": packageManifest,
            ".gitignore": ".build/\n.build-*/\nPackage.resolved\n.swiftpm/\n",
            "README.md": readme,
            "Sources/\(modules)/WelcomeModule.swift": welcomeModule,
            "Sources/\(modules)/\(name)Scenes.swift": scenesFolder,
            "Sources/\(modules)/Scenes/welcome.json": welcomeScene,
            "Sources/\(modules)/Scenes/\(name.lowercased()).modules.json": manifest,
            "Sources/\(name)/main.swift": toolMain,
            "Sources/\(name)/ModuleCatalog+\(name).swift": catalog,
            "Tests/\(name)Tests/WelcomeModuleTests.swift": welcomeTests,
        ]
    }

    /// Writes the files into `folder`, which must not exist or be empty; nothing is written
    /// when it is not.
    func write(to folder: URL) throws(CommandFailure) {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue || !existing.isEmpty {
            throw CommandFailure("\(folder.path.quoted) exists and is not an empty folder; nothing was written. Choose another name or --output.", code: .usage)
        }
        do {
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                let file = folder.appending(path: path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file, options: .withoutOverwriting)
            }
        } catch {
            throw CommandFailure("Cannot write the package to \(folder.path.quoted): \(error.localizedDescription).", code: .sceneryError)
        }
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The module's descriptor, as the generated Swift declares it: what the manifest lists.
    static let welcomeDescriptor = ModuleDescriptor(
        type: "WelcomeModule", summary: "Welcomes someone by name, and counts their waves.",
        parameters: [ParameterSpec("name", .string, summary: "Whom to welcome.")], events: ["welcome.wave"], defaultActions: ["welcome.wave"])

    var manifest: String { (try? ModuleManifest(modules: [Self.welcomeDescriptor]).jsonText()) ?? "" }
}
