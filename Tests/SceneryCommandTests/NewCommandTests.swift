import Foundation
import Scenery
import Testing

/// `scenery new NAME`: the package it writes, and what it refuses. (`.ci/run` builds the
/// package it writes, runs its scene and its tests.)
@Suite struct NewCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    @Test func aNewAppHasAModuleItsSceneItsManifestATestAndTheToolOnThisCheckout() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["new", "Garden"], in: cli.directory)
        #expect(result.status == 0, "\(result.error)")
        let package = cli.directory.appending(path: "Garden")
        #expect(result.output.hasPrefix("Wrote the app Garden to \(package.path):\n"), "\(result.output)")
        #expect(result.output.contains("Next: cd \(package.path) && swift run Garden run welcome --arg name=Ada; swift test"))
        let files = FileManager.default.enumerator(atPath: package.path)?.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") } ?? []
        for file in [
            "Package.swift", "README.md", ".gitignore", "Sources/GardenModules/WelcomeModule.swift", "Sources/GardenModules/Scenes/welcome.json",
            "Sources/GardenModules/Scenes/garden.modules.json", "Sources/Garden/main.swift", "Sources/Garden/ModuleCatalog+Garden.swift",
            "Tests/GardenTests/WelcomeModuleTests.swift",
        ] {
            #expect(files.contains(file), "\(file) among \(files.sorted())")
        }
        let manifest = try String(contentsOf: package.appending(path: "Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".package(name: "Scenery", path: "\#(CommandRunner.packageRoot.standardizedFileURL.path)")"#), "\(manifest)")
        #expect(manifest.contains(#"plugins: [.plugin(name: "SceneryValidationPlugin", package: "Scenery")]"#))
        // The scene validates against the manifest the package ships, as the build plugin checks it.
        let validate = try await cli.run(["validate", package.appending(path: "Sources/GardenModules/Scenes").path])
        #expect(validate.status == 0 && validate.output == "1 scene file(s) valid.\n", "\(validate.output)\(validate.error)")
        let modules = try ModuleManifest.load(from: package.appending(path: "Sources/GardenModules/Scenes/garden.modules.json")).modules
        #expect(modules.map(\.type) == ["WelcomeModule"])
        #expect(modules.first?.defaultActions == ["welcome.wave"])
    }

    @Test func aURLDependsOnThisVersionAndAFolderThatIsNotACheckoutIsRefused() async throws {
        defer { cli.cleanUp() }
        let byURL = try await cli.run(["new", "Board", "--scenery", "https://example.com/scenery.git"], in: cli.directory)
        #expect(byURL.status == 0, "\(byURL.error)")
        let manifest = try String(contentsOf: cli.directory.appending(path: "Board/Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".package(name: "Scenery", url: "https://example.com/scenery.git", from: "\#(sceneryVersion)")"#), "\(manifest)")
        let notACheckout = try await cli.run(["new", "Other", "--scenery", cli.directory.path], in: cli.directory)
        #expect(notACheckout.status == 64)
        #expect(notACheckout.error.contains("is not a Scenery checkout (it has no Package.swift)"), "\(notACheckout.error)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appending(path: "Other").path), "nothing written")
    }

    @Test(arguments: ["9lives", "my-app", "Café", "", "Scenery", "ProfileTool"])
    func aNameThatIsNotATypeNameIsRefused(name: String) async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["new", name], in: cli.directory)
        #expect(result.status == 64)
        #expect(result.error.contains("\(name.quoted)"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).allSatisfy { !$0.hasPrefix(name) || name.isEmpty })
    }

    /// The names `new` refuses are every target of Scenery's manifest, so a new app never
    /// clashes with one (SwiftPM refuses two targets of one name in a build).
    @Test func theReservedNamesAreEveryTargetOfScenerysManifest() throws {
        let manifest = try String(contentsOf: CommandRunner.packageRoot.appending(path: "Package.swift"), encoding: .utf8)
        let declared = manifest.matches(of: /\.(?:target|executableTarget|systemLibrary|plugin)\(\s*name: "([^"]+)"/).map { String($0.output.1) }
        #expect(declared.count > 20)
        #expect(SceneryPackage.targetNames == Set(declared))
    }

    @Test func aFolderThatIsNotEmptyIsLeftAlone() async throws {
        defer { cli.cleanUp() }
        let folder = cli.directory.appending(path: "Garden")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: folder.appending(path: "notes.txt"))
        let result = try await cli.run(["new", "Garden"], in: cli.directory)
        #expect(result.status == 64)
        #expect(result.error.contains("exists and is not an empty folder; nothing was written"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }
}
