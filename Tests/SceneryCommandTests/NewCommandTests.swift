import Foundation
import Scenery
import Testing

@testable import SceneryTool

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
        // The tool serves out of the box (`.ci/run` serves the welcome scene and reads it back):
        // the SceneryTool product carries `serve`. A new app depends on none of the profile demo.
        #expect(manifest.contains(#".product(name: "SceneryTool", package: "Scenery")"#), "\(manifest)")
        #expect(!manifest.contains("ProfileDemo"), "\(manifest)")
        let main = try String(contentsOf: package.appending(path: "Sources/Garden/main.swift"), encoding: .utf8)
        #expect(main.contains("await SceneryTool.main(catalog: .garden, adding: [.serve])"), "\(main)")
        // The scene validates against the manifest the package ships, as the build plugin checks it.
        let validate = try await cli.run(["validate", package.appending(path: "Sources/GardenModules/Scenes").path])
        #expect(validate.status == 0 && validate.output == "1 scene file(s) valid.\n", "\(validate.output)\(validate.error)")
        let modules = try ModuleManifest.load(from: package.appending(path: "Sources/GardenModules/Scenes/garden.modules.json")).modules
        #expect(modules.map(\.type) == ["WelcomeModule"])
        #expect(modules.first?.defaultActions == ["welcome.wave"])
    }

    /// `--part`: a feature package that adds a module to the bundled profile, its tables and
    /// data in the profile's database (`.ci/run` builds it, runs it and its tests).
    @Test func aNewPartAddsItsModuleToTheBundledProfileWithItsTablesAndData() async throws {
        defer { cli.cleanUp() }
        let written = try await cli.run(["new", "Thanks", "--part"], in: cli.directory)
        #expect(written.status == 0, "\(written.error)")
        let package = cli.directory.appending(path: "Thanks")
        #expect(written.output.hasPrefix("Wrote the part Thanks to \(package.path):\n"), "\(written.output)")
        #expect(written.output.contains("Next: cd \(package.path) && swift run ThanksTool run user-profile --viewer 2 --arg user=1; swift test"))
        let files = FileManager.default.enumerator(atPath: package.path)?.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") } ?? []
        for file in [
            "Package.swift", "README.md", ".gitignore", "Sources/Thanks/Thanks.swift", "Sources/Thanks/ThanksModule.swift",
            "Sources/Thanks/Scenes/user-profile.json", "Sources/Thanks/Scenes/thanks.modules.json", "Sources/ThanksTool/SQLiteThanks.swift",
            "Sources/ThanksTool/main.swift", "Tests/ThanksTests/ThanksModuleTests.swift",
        ] {
            #expect(files.contains(file), "\(file) among \(files.sorted())")
        }
        let main = try String(contentsOf: package.appending(path: "Sources/ThanksTool/main.swift"), encoding: .utf8)
        #expect(main.contains("await SceneryTool.main(catalog: .profile + .thanks, adding: [.serve])"), "\(main)")
        #expect(main.contains(".addingTables(SQLiteThanks.tables)") && main.contains(".addingData(SQLiteThanks.data)"))
        // The scene extends the bundled user-profile and validates against the shipped manifest.
        let validate = try await cli.run(["validate", package.appending(path: "Sources/Thanks/Scenes").path])
        #expect(validate.status == 0 && validate.output == "1 scene file(s) valid.\n", "\(validate.output)\(validate.error)")
        let modules = try ModuleManifest.load(from: package.appending(path: "Sources/Thanks/Scenes/thanks.modules.json")).modules
        #expect(modules == [NewPackage.partDescriptor(named: "Thanks")])
    }

    @Test func aRelativeSceneryFolderIsWrittenRelativeToTheNewPackage() async throws {
        defer { cli.cleanUp() }
        // The checkout, as a path relative to the folder the command runs in.
        let checkout = CommandRunner.packageRoot.standardizedFileURL
        let hops = cli.directory.standardizedFileURL.pathComponents.count - 1
        let relative = Array(repeating: "..", count: hops).joined(separator: "/") + checkout.path
        let result = try await cli.run(["new", "Garden", "--output", "apps/Garden", "--scenery", relative], in: cli.directory)
        #expect(result.status == 0, "\(result.error)")
        let package = cli.directory.appending(path: "apps/Garden")
        let manifest = try String(contentsOf: package.appending(path: "Package.swift"), encoding: .utf8)
        let written = try #require(manifest.firstMatch(of: /\.package\(name: "Scenery", path: "([^"]*)"\)/)?.output.1)
        #expect(!written.hasPrefix("/"), "relative, as given: \(written)")
        #expect(package.appending(path: String(written)).standardizedFileURL.path == checkout.path, "it leads from the package to the checkout")
    }

    /// The README's commands keep their comments in one column, whatever the name's length.
    @Test(arguments: ["Io", "Garden", "AVeryLongNameForAnApp"])
    func theReadmesCommentsLineUpForAnyName(_ name: String) throws {
        let readme = NewPackage(name: name, dependency: .path("../Scenery")).readme
        let block = try #require(readme.firstMatch(of: /```sh\n([\s\S]*?)```/)?.output.1)
        let columns = Set(
            block.split(separator: "\n").compactMap { line in
                line.firstRange(of: "   # ").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            })
        #expect(columns.count == 1, "\(block)")
        #expect(block.contains("swift run \(name) serve"), "\(block)")
    }

    @Test func theWayFromOneFolderToAnotherIsDotsThenTheRest() {
        let path = NewPackage.Dependency.relativePath
        #expect(path(URL(filePath: "/work/main"), URL(filePath: "/work/Garden")) == "../main")
        #expect(path(URL(filePath: "/work/main"), URL(filePath: "/work/apps/Garden")) == "../../main")
        #expect(path(URL(filePath: "/work/main/Examples/Board"), URL(filePath: "/work/main")) == "Examples/Board")
        #expect(path(URL(filePath: "/work/main"), URL(filePath: "/work/main")) == ".")
        // SwiftPM reads the path from the package's folder: it leads back to the checkout.
        let written = path(URL(filePath: "/tmp/ci"), URL(filePath: "/tmp/x/apps/Garden"))
        #expect(written == "../../../ci")
        #expect(URL(filePath: "/tmp/x/apps/Garden").appending(path: written).standardizedFileURL.path == "/tmp/ci")
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

    @Test(arguments: [
        "9lives", "my-app", "Café", "", "Scenery", "ProfileDemoTool",
        // Swift keywords: a module of that name cannot be imported.
        "class", "struct", "func", "Self", "Protocol", "init",
        // Modules of Scenery's dependencies and of the toolchain, in any case (SwiftPM
        // compares module names ignoring case).
        "Logging", "NIOCore", "Hummingbird", "ArgumentParser", "Crypto", "PostgresNIO", "logging", "Foundation", "Testing",
    ])
    func aNameThatIsNotATypeNameIsRefused(name: String) async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["new", name], in: cli.directory)
        #expect(result.status == 64)
        #expect(result.error.contains("\(name.quoted)"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).allSatisfy { !$0.hasPrefix(name) || name.isEmpty })
    }

    @Test func aKeywordOrADependencysModuleIsRefusedSayingWhy() async throws {
        defer { cli.cleanUp() }
        let keyword = try await cli.run(["new", "class"], in: cli.directory)
        #expect(keyword.error.contains("'class' is a Swift keyword, which cannot name a module; choose another, such as ClassApp."), "\(keyword.error)")
        let module = try await cli.run(["new", "nioCore"], in: cli.directory)
        #expect(module.error.contains("would make the target 'nioCore', a module name Scenery, its dependencies or Swift already use"), "\(module.error)")
    }

    /// A folder whose name holds a line break would end the manifest's string literal.
    @Test func aSceneryFolderThatAManifestCannotNameIsRefused() async throws {
        defer { cli.cleanUp() }
        let folder = cli.directory.appending(path: "scenery\ncheckout")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: folder.appending(path: "Package.swift"))
        let result = try await cli.run(["new", "Garden", "--scenery", folder.path], in: cli.directory)
        #expect(result.status == 64)
        #expect(result.error.contains("holds a control character (U+A), which a Package.swift cannot name"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appending(path: "Garden").path), "nothing written")
    }

    /// Every target the manifests of Scenery's dependencies declare is a name `new` refuses.
    @Test func theReservedNamesHoldEveryModuleOfScenerysDependencies() throws {
        // The build folder the tool was built in: <scratch>/<triple>/debug/scenery.
        let scratch = CommandRunner.executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let checkouts = scratch.appending(path: "checkouts")
        let packages = try FileManager.default.contentsOfDirectory(atPath: checkouts.path)
        #expect(packages.contains("swift-nio") && packages.contains("hummingbird"), "\(checkouts.path): \(packages)")
        var declared: Set<String> = []
        for package in packages {
            guard let manifest = try? String(contentsOf: checkouts.appending(path: "\(package)/Package.swift"), encoding: .utf8) else { continue }
            for match in manifest.matches(of: /\.(?:target|executableTarget|systemLibrary|binaryTarget|macro)\(\s*name:\s*"([A-Za-z_][A-Za-z0-9_]*)"/) {
                declared.insert(String(match.output.1))
            }
        }
        #expect(declared.count > 100)
        let missing = declared.filter { !NewPackage.isReserved($0) }.sorted()
        #expect(missing.isEmpty, "add these to NewPackage.dependencyModules: \(missing)")
    }

    /// The names `new` refuses are every target of Scenery's manifest, so a new app never
    /// clashes with one (SwiftPM refuses two targets of one name in a build).
    @Test func theReservedNamesAreEveryTargetOfScenerysManifest() throws {
        let manifest = try String(contentsOf: CommandRunner.packageRoot.appending(path: "Package.swift"), encoding: .utf8)
        let declared = manifest.matches(of: /\.(?:target|executableTarget|systemLibrary|plugin)\(\s*name: "([^"]+)"/).map { String($0.output.1) }
        #expect(declared.count > 20)
        #expect(Set(NewPackage.sceneryTargets) == Set(declared))
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
