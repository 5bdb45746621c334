import Foundation
import Testing

/// The package's executable is the whole scenery tool with the recycle bin: run as a person
/// would, in a process of its own.
@Suite struct RecycleBinToolTests {
    /// The executable, beside the test bundle (as SwiftPM lays products out).
    static let executable: URL = {
        let candidates =
            [Bundle.main.bundleURL, URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()]
            + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        let tools = candidates.map { $0.appending(path: "recycle-bin") }
        return tools.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? tools[0]
    }()

    /// Runs `recycle-bin` with a private database; returns its status and output.
    func tool(_ arguments: String...) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let database = FileManager.default.temporaryDirectory.appending(path: "recycle-bin-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        process.environment = ProcessInfo.processInfo.environment.merging(["SCENERY_DATABASE": database.path]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func runShowsTheBinToItsOwner() throws {
        let (status, output) = try tool("run", "user-profile-bin", "--viewer", "1", "--arg", "user=1")
        #expect(status == 0, "\(output)")
        #expect(output.contains("bin · RecycleBinModule"))
        #expect(output.contains("Notes on the tea party"))
        #expect(output.contains("[ Restore ]"))
    }

    @Test func viewerTwoNeverGetsTheBin() throws {
        for format in ["text", "json", "html"] {
            let (status, output) = try tool("run", "user-profile-bin", "--viewer", "2", "--arg", "user=1", "--format", format)
            #expect(status == 0, "\(output)")
            #expect(output.contains("Alice"))
            #expect(!output.contains("RecycleBinModule"))
            #expect(!output.contains("Notes on the tea party"))
        }
    }

    @Test func everyCommandKnowsTheModule() throws {
        let list = try tool("list")
        #expect(list.status == 0)
        #expect(list.output.contains("RecycleBinModule — The owner's deleted blogs, with Restore (owner only)."))
        #expect(list.output.contains("user-profile-bin(user: userID)"))
        let scenes = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Sources/RecycleBin/Scenes").standardized
        let validate = try tool("validate", scenes.path)
        #expect(validate.status == 0, "\(validate.output)")
        #expect(validate.output.contains("1 scene file(s) valid."))
        let failing = try tool("run", "user-profile-bin", "--viewer", "1", "--arg", "user=1", "--fail", "bin")
        #expect(failing.output.contains("The bin service is unavailable (injected fault)."))
        #expect(failing.status == 2)
    }
}
