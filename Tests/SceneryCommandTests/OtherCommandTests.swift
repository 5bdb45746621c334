import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import Testing

@Suite struct ValidateAndListCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    /// No command is a usage mistake, as the exit codes are documented: the commands are
    /// listed on standard error and the exit code is 64 (it was 0, which a script took for
    /// success).
    @Test func noCommandIsAUsageMistakeThatListsTheCommands() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run([])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("SUBCOMMANDS:") && result.error.contains("run"), "\(result.error)")
    }

    @Test func theBundledScenesValidate() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["validate"])
        #expect(result.status == 0)
        #expect(result.output == "5 scene file(s), 2 message catalog(s), 3 theme(s) valid.\n")
    }

    @Test func validateWithNoPathFindsAPackagesTargetSceneFolders() async throws {
        defer { cli.cleanUp() }
        let package = cli.directory.appending(path: "Garden")
        for target in ["GardenModules", "GardenExtras"] {
            let scenes = package.appending(path: "Sources/\(target)/Scenes")
            try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
            try Data(#"{ "modules": [ { "id": "hi", "type": "TextModule", "params": { "title": "Hi" } } ] }"#.utf8)
                .write(to: scenes.appending(path: "\(target.lowercased()).json"))
        }
        try FileManager.default.createDirectory(at: package.appending(path: "Sources/Garden"), withIntermediateDirectories: true)
        let result = try await cli.run(["validate"], in: package)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "2 scene file(s) valid.\n")
    }

    @Test func validateWithNoPathWhereThereAreNoScenesSaysWhereItLooked() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["validate"], in: cli.directory)
        #expect(result.status != 0)
        #expect(result.error.contains("neither ./Scenes nor a Sources/<target>/Scenes folder exists"), "\(result.error)")
    }

    @Test func aBrokenSceneFailsWithCompilerStyleDiagnostics() async throws {
        defer { cli.cleanUp() }
        let scene = cli.directory.appending(path: "broken.json")
        try Data(
            """
            {
              "parameters": { "user": "userID" },
              "modules": [
                { "id": "blogs", "type": "BlogModul", "params": { "author": "$user" } },
                { "id": "drafts", "type": "DraftModule", "params": { "owner": "$user" } }
              ]
            }
            """.utf8
        ).write(to: scene)
        let result = try await cli.run(["validate", scene.path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("\(scene.path):4:30: error: Unknown module type 'BlogModul'; did you mean 'BlogModule'?"))
        #expect(lines[1].hasPrefix("\(scene.path):5:5: error: DraftModule 'drafts' shows private data of '$user' but is in the scene's base modules"))
        #expect(result.error == "error: 2 error(s) in 1 scene file(s).\n")
    }

    @Test func aMissingPathIsAnError() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["validate", "/no/such/scenes"])
        #expect(result.status == 2)
        #expect(result.error.contains("No such file or directory '/no/such/scenes'"))
    }

    @Test func aSingleFileIsValidatedAmongItsNeighbours() async throws {
        defer { cli.cleanUp() }
        // user-profile navigates to blog-detail, which sits in the same folder.
        let result = try await cli.run(["validate", "Scenes/user-profile.json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output == "1 scene file(s) valid.\n")
    }

    @Test func listManifestPrintsTheModuleTypesAsAManifestAToolReads() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["list", "--manifest"])
        #expect(result.status == 0, "\(result.error)")
        let file = cli.directory.appending(path: "generated.modules.json")
        try result.output.write(to: file, atomically: true, encoding: .utf8)
        let manifest = try ModuleManifest.load(from: file)
        let blogs = try #require(manifest.modules.first { $0.type == "BlogModule" })
        #expect(blogs.parameter(named: "pageSize")?.defaultValue == 10)
        #expect(blogs.parameter(named: "pageSize")?.range == 1...100)
        #expect(blogs.events == ["blog.open"])
        #expect(manifest.modules.first { $0.type == "DraftModule" }?.ownerOnlyParameter == "owner")
        #expect(manifest.modules.first { $0.type == "UserInfoModule" }?.defaultActions == ["summary.save", "user.follow", "user.unfollow"])
        #expect(manifest.modules.first { $0.type == "UserInfoModule" }?.ownerOnlyActions == ["summary.save": "user"])
    }

    @Test func manifestsDeclareModulesAndAreNeverReadAsScenes() async throws {
        defer { cli.cleanUp() }
        let fixture = CommandRunner.packageRoot.appending(path: "Tests/SceneFileToolingTests/Fixtures/PluginConsumer/Sources/Consumer/Scenes")
        let validate = try await cli.run(["validate", fixture.path])
        #expect(validate.status == 0, "\(validate.output)\(validate.error)")
        #expect(validate.output == "3 scene file(s) valid.\n")
        let list = try await cli.run(["list", "--scenes", fixture.path])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("  GreetingModule — Greets a user."))
        #expect(list.output.contains("  hello(") && !list.output.contains("greeting.modules"))
    }

    @Test func theToolCarriesItsScenesOutsideTheRepository() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1"], in: cli.directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Alice Liddell"))
        let list = try await cli.run(["list"], in: cli.directory)
        #expect(list.output.contains("Scenes (built into the tool):"))
    }

    @Test func listShowsModulesAndScenes() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["list"])
        #expect(result.status == 0)
        for expected in [
            "  DraftModule — The owner's unpublished drafts (owner only).",
            "      list: string (default \"following\"; one of followers, following, friends) Which list.",
            "  user-profile(user: userID)", "      variants: owner, default", "  friend-list(user: userID)",
        ] {
            #expect(result.output.contains(expected), "missing \(expected)")
        }
    }
}

@Suite struct DataCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    @Test func exportThenImportRoundTrips() async throws {
        defer { cli.cleanUp() }
        let file = cli.directory.appending(path: "data.json").path
        let exported = try await cli.run(["data", "export", file])
        #expect(exported.status == 0, "\(exported.error)")
        var dataSet = try ProfileDataSet.decode(from: Data(contentsOf: URL(filePath: file)))
        #expect(dataSet == DemoData.dataSet)
        dataSet.users[0].name = "Alice Pleasance Liddell"
        try dataSet.encoded().write(to: URL(filePath: file))
        let imported = try await cli.run(["data", "import", file])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("Imported 7 users, 40 blogs, 4 drafts"))
        #expect(try await cli.store().profile(of: "1", viewer: nil).user.name == "Alice Pleasance Liddell")
    }

    /// Imports `text` as a file into a fresh demo database; returns the file and the result.
    func importing(_ text: String, named name: String) async throws -> (file: URL, result: CommandRunner.Result) {
        _ = try await cli.run(["data", "export", "-"])  // creates the demo database
        let file = cli.directory.appending(path: name)
        try Data(text.utf8).write(to: file)
        return (file, try await cli.run(["data", "import", file.path]))
    }

    @Test func aBadImportPointsAtEachProblemAndChangesNothing() async throws {
        defer { cli.cleanUp() }
        let (file, result) = try await importing(
            """
            {
              "users": [ { "id": "1", "name": "Solo", "summary": "" } ],
              "follows": [
                { "follower": "1", "followee": "1" }
              ]
            }
            """, named: "bad.json")
        #expect(result.status == 1)
        #expect(result.output == "\(file.path):4:5: error: follows[0]: a user cannot follow themselves.\n")
        #expect(result.error == "error: 1 problem(s) in '\(file.path)'. Nothing was imported; the database is unchanged.\n")
        #expect(try cli.store().exportData() == DemoData.dataSet)
    }

    /// Foundation's decoder rejects a number that does not fit an integer field without
    /// saying where; the import points at each such number instead of at 1:1.
    @Test func outOfRangeNumbersAreReportedWhereTheyAre() async throws {
        defer { cli.cleanUp() }
        let (file, result) = try await importing(
            """
            {
              "users": [ { "id": "1", "name": "Solo", "summary": "" } ],
              "blogs": [
                { "id": 99999999999999999999999, "author": "1", "title": "T", "body": "", "createdAt": "2026-01-01T09:00:00Z" },
                { "id": 1.5, "author": "1", "title": "T", "body": "", "createdAt": "2026-01-01T09:00:00Z" }
              ]
            }
            """, named: "numbers.json")
        #expect(result.status == 1)
        #expect(
            result.output == """
                \(file.path):4:13: error: blogs[0].id: must be a whole number from -9223372036854775808 to 9223372036854775807; fix that value.
                \(file.path):5:13: error: blogs[1].id: must be a whole number from -9223372036854775808 to 9223372036854775807; fix that value.

                """)
        #expect(result.error == "error: 2 problem(s) in '\(file.path)'. Nothing was imported; the database is unchanged.\n")
        #expect(try cli.store().exportData() == DemoData.dataSet)
    }

    /// Found by the importer's fuzzer: a five-digit year imported, and the database then
    /// could not be exported. Dates outside the years 1 to 9999 are refused at their place.
    @Test func datesBeyondYear9999AreRefusedAtTheirPlace() async throws {
        defer { cli.cleanUp() }
        let (file, result) = try await importing(
            """
            {
              "users": [ { "id": "1", "name": "Solo", "summary": "" } ],
              "blogs": [ { "id": 1, "author": "1", "title": "T", "body": "", "createdAt": "20246-01-11T09:00:00Z" } ]
            }
            """, named: "dates.json")
        #expect(result.status == 1)
        #expect(
            result.output
                == "\(file.path):3:79: error: blogs[0].createdAt: is outside the years 1 to 9999; give a date such as \"2026-01-01T09:00:00Z\".\n")
        #expect(try cli.store().exportData() == DemoData.dataSet)
    }

    /// Long lists to try: generated blogs by one user, in one transaction; an unknown user
    /// adds nothing.
    @Test func generateAddsBlogsByOneUser() async throws {
        defer { cli.cleanUp() }
        let added = try await cli.run(["data", "generate", "--user", "2", "--blogs", "500"])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.hasPrefix("Added 500 blogs by user 2 (ids 41–540)"))
        let data = try cli.store().exportData()
        #expect(data.blogs.count == DemoData.dataSet.blogs.count + 500)
        #expect(data.blogs.filter { $0.author == "2" && $0.title.hasPrefix("Generated post") }.count == 500)
        let unknown = try await cli.run(["data", "generate", "--user", "99", "--blogs", "3"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("No user with id '99' exists."))
        #expect(try cli.store().exportData().blogs.count == data.blogs.count)
        let none = try await cli.run(["data", "generate", "--user", "2", "--blogs", "0"])
        #expect(none.status == 64)
    }

    @Test func malformedJSONIsReportedWithItsPlace() async throws {
        defer { cli.cleanUp() }
        let file = cli.directory.appending(path: "syntax.json")
        try Data("{\n  \"users\": [ { \"id\": \"1\", } ]\n}\n".utf8).write(to: file)
        let result = try await cli.run(["data", "import", file.path])
        #expect(result.status == 1)
        #expect(result.output == "\(file.path):2:27: error: Trailing comma before '}'; remove the comma.\n")
    }

    @Test func importsOfTheWrongThingSayWhatIsWrong() async throws {
        defer { cli.cleanUp() }
        let empty = cli.directory.appending(path: "empty.json")
        try Data("\n".utf8).write(to: empty)
        let emptyResult = try await cli.run(["data", "import", empty.path])
        #expect(emptyResult.status == 1)
        #expect(emptyResult.error.contains("is empty; a data file is a JSON object"))
        #expect(emptyResult.error.hasSuffix("Nothing was imported; the database is unchanged.\n"))
        let array = cli.directory.appending(path: "array.json")
        try Data("[]".utf8).write(to: array)
        let arrayResult = try await cli.run(["data", "import", array.path])
        #expect(arrayResult.status == 1)
        #expect(arrayResult.output.contains("A data file must be a JSON object"), "\(arrayResult.output)")
        #expect(!arrayResult.output.contains("Dictionary<"))
        let directory = try await cli.run(["data", "import", cli.directory.path])
        #expect(directory.status == 2)
        #expect(directory.error.contains("it is a directory, not a file; give the path of a data file"))
        #expect(directory.error.hasSuffix("Nothing was imported; the database is unchanged.\n"))
        #expect(!directory.error.contains("NSCocoaErrorDomain"))
    }

    @Test func exportNeverReplacesWhatIsNotAFile() async throws {
        defer { cli.cleanUp() }
        let fifo = cli.directory.appending(path: "pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let toFIFO = try await cli.run(["data", "export", fifo.path])
        #expect(toFIFO.status == 2)
        #expect(toFIFO.error == "error: '\(fifo.path)' is a FIFO, not a file; nothing was written. Give the path of a file, or '-' for standard output.\n")
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        let toDirectory = try await cli.run(["data", "export", cli.directory.path])
        #expect(toDirectory.status == 2 && toDirectory.error.contains("is a directory, not a file"))
        // A symlink is written through: the link stays a link, its target gets the data.
        let target = cli.directory.appending(path: "target.json")
        let link = cli.directory.appending(path: "link.json")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let throughLink = try await cli.run(["data", "export", link.path])
        #expect(throughLink.status == 0, "\(throughLink.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try ProfileDataSet.decode(from: Data(contentsOf: target)).users.count == 7)
    }

    @Test func aFullOutputDeviceIsAnErrorNotACrash() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["data", "export", "-"], standardOutput: "/dev/full")
        #expect(result.status == 2)
        #expect(result.error == "error: Could not write to standard output: No space left on device.\n")
        let run = try await cli.run(["run", "user-profile", "--arg", "user=1"], standardOutput: "/dev/full")
        #expect(run.status == 2)
    }

    @Test func exportToStandardOutput() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["data", "export", "-"])
        #expect(result.status == 0)
        #expect(try ProfileDataSet.decode(from: Data(result.output.utf8)).users.count == 7)
    }
}

@Suite struct DatabaseLocationTests {
    @Test func theDefaultDatabaseFollowsTheEnvironment() async throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let home = cli.directory.appending(path: "home")
        _ = try await cli.run(["data", "export", "-"], environment: ["SCENERY_DATABASE": "", "XDG_DATA_HOME": "", "HOME": home.path])
        #expect(FileManager.default.fileExists(atPath: home.appending(path: ".local/share/scenery/demo.sqlite").path))
        let xdg = cli.directory.appending(path: "xdg")
        _ = try await cli.run(["data", "export", "-"], environment: ["SCENERY_DATABASE": "", "XDG_DATA_HOME": xdg.path])
        #expect(FileManager.default.fileExists(atPath: xdg.appending(path: "scenery/demo.sqlite").path))
    }
}
