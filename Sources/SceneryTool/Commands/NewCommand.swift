import ArgumentParser
import Foundation
import Scenery

/// `scenery new NAME`: writes a new app package that builds on Scenery — one module, its
/// scene, a test, and an executable that is the whole tool with the app's modules — so that
/// `swift run NAME run welcome` and `swift test` pass in it straight away.
struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new app package on Scenery: a module, its scene, a test, and the tool with the app's modules.",
        discussion: """
            Writes the folder NAME (or --output): Package.swift, Sources/NAMEModules (the module, \
            its scene file and its generated manifest; Scenery's build plugin checks the scene on \
            every build), Sources/NAME (the whole scenery tool with the app's modules), \
            Tests/NAMETests, README.md and .gitignore. Then: cd NAME && swift run NAME run welcome \
            --arg name=Ada, and swift test. With --part: Sources/NAME (a module and the scene that \
            adds it to the bundled user-profile), Sources/NAMETool (its tables and data in the \
            profile's database, and the tool with both), Tests/NAMETests; then swift run NAMETool \
            run user-profile --viewer 2 --arg user=1.
            """)

    @Argument(help: ArgumentHelp("The app's name: a letter, then letters and digits (as a Swift type name).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Where to write the package (default: ./NAME). It must not exist, or be empty.", valueName: "folder"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Scenery itself, as the package depends on it: a folder (a checkout; a relative one is written relative to the new package) or a git URL (default: the checkout this tool was built from).",
            valueName: "path-or-url"))
    var scenery: String?

    @Flag(
        help: ArgumentHelp(
            "Write a part of the bundled profile instead of an app of its own: a module on everyone's profile, the scene that adds it, its tables and data in the profile's database, a test, and the tool with both (NAMETool)."
        ))
    var part = false

    func validate() throws {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil) }), name.count <= 40
        else {
            throw ValidationError("\(name.quoted) is not an app name: use a letter, then letters and digits (at most 40), such as Garden.")
        }
        if NewPackage.keywords.contains(name) {
            throw ValidationError(
                "\(name.quoted) is a Swift keyword, which cannot name a module; choose another, such as \(name.prefix(1).uppercased() + name.dropFirst())App.")
        }
        for target in NewPackage(name: name, dependency: .url(""), isPart: part).targets where NewPackage.isReserved(target) {
            throw ValidationError(
                "\(name.quoted) would make the target \(target.quoted), a module name Scenery, its dependencies or Swift already use (SwiftPM compares them ignoring case); choose another, such as \(name)App."
            )
        }
    }

    func run() async throws {
        try await reportingFailures {
            let folder = URL(filePath: output ?? name, relativeTo: URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory))
                .standardizedFileURL
            let dependency = try NewPackage.Dependency(scenery ?? NewPackage.Dependency.builtFrom(), forPackageIn: folder)
            let package = NewPackage(name: name, dependency: dependency, isPart: part)
            try package.write(to: folder)
            Output.line("Wrote the \(part ? "part" : "app") \(name) to \(folder.path):")
            for file in package.files.keys.sorted() { Output.line("  \(file)") }
            Output.line("Next: cd \(folder.path) && \(package.firstRun); swift test")
        }
    }
}
