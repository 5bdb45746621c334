import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The package's executable is the whole scenery tool with the package's modules, and its
/// `user-profile` is the one every command opens: run as a person would, in a process of
/// its own, with every command.
@Suite(.timeLimit(.minutes(5))) struct RecycleBinToolTests {
    /// The executable, beside the test bundle (as SwiftPM lays products out).
    static let executable: URL = {
        let candidates =
            [Bundle.main.bundleURL, URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()]
            + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        let tools = candidates.map { $0.appending(path: "recycle-bin") }
        return tools.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? tools[0]
    }()

    /// A process of `recycle-bin` with a private database, its output read line by line.
    func start(_ arguments: [String]) throws -> (process: Process, input: FileHandle, output: Pipe, database: URL) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let database = FileManager.default.temporaryDirectory.appending(path: "recycle-bin-\(UUID().uuidString).sqlite")
        process.environment = ProcessInfo.processInfo.environment.merging(["SCENERY_DATABASE": database.path]) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, input.fileHandleForWriting, output, database)
    }

    /// Runs `recycle-bin` to its end with `input` on its standard input; returns its status and output.
    func tool(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let (process, stdin, output, database) = try start(arguments)
        defer { try? FileManager.default.removeItem(at: database) }
        try stdin.write(contentsOf: Data(input.utf8))
        try stdin.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }

    func tool(_ arguments: String..., input: String = "") throws -> (status: Int32, output: String) {
        try tool(arguments, input: input)
    }

    @Test func runShowsTheOwnerHerBinAndHerAlbumWithRemove() throws {
        let (status, output) = try tool("run", "user-profile", "--viewer", "1", "--arg", "user=1")
        #expect(status == 0, "\(output)")
        #expect(output.contains("bin · RecycleBinModule"))
        #expect(output.contains("Notes on the tea party"))
        #expect(output.contains("[ Restore ]"))
        #expect(output.contains("album · PhotoAlbumModule"))
        #expect(output.contains("Tea at six, as always  [ Remove ]"), "\(output)")
    }

    @Test func anyoneElseSeesTheAlbumButNeitherTheBinNorRemove() throws {
        for viewer in ["2", nil] as [String?] {
            for format in ["text", "json", "html"] {
                let signIn = viewer.map { ["--viewer", $0] } ?? []
                let (status, output) = try tool(["run", "user-profile", "--arg", "user=1", "--format", format] + signIn)
                #expect(status == 0, "\(output)")
                #expect(output.contains("Alice"))
                #expect(output.contains("Tea at six, as always"), "the album is for everyone")
                #expect(!output.contains("RecycleBinModule"))
                #expect(!output.contains("Notes on the tea party"))
                #expect(!output.contains("photo.32.remove"), "no Remove for \(viewer ?? "a signed-out viewer") (\(format))")
            }
        }
    }

    @Test func interactRemovesAPhotoAfterAskingTheOwner() throws {
        let script = ["album/photo.32.remove", "n", "album/photo.32.remove", "y", "quit"].joined(separator: "\n") + "\n"
        let (status, output) = try tool("interact", "user-profile", "--viewer", "1", "--arg", "user=1", input: script)
        #expect(status == 0, "\(output)")
        #expect(output.contains("Remove “Tea at six, as always” from your album? [y/N] → Keep"), "\(output)")
        #expect(output.contains("scene: asked 'Remove “Tea at six, as always” from your album?', confirmed → scene: let through → module album: performed"))
        let afterwards = output.components(separatedBy: "module album: performed").last ?? ""
        #expect(!afterwards.contains("Tea at six, as always"), "the photo left the album: \(afterwards)")
    }

    @Test func serveShowsTheAlbumToEveryoneAndTheBinAndRemoveToTheOwner() async throws {
        let (process, _, output, database) = try start(["serve", "--port", "0"])
        defer {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: database)
        }
        let first = Self.firstLine(of: output.fileHandleForReading)
        #expect(first.hasPrefix("Listening on "), "\(first)")
        let address = String(first.dropFirst("Listening on ".count))
        let signedOut = try await Self.get(address + "/scenes/user-profile?user=1")
        #expect(signedOut.contains("Tea at six, as always"))
        #expect(!signedOut.contains("Notes on the tea party"))
        #expect(!signedOut.contains("photo.32.remove"))
        let cookie = try await Self.signIn(address, user: "1")
        let owner = try await Self.get(address + "/scenes/user-profile?user=1", cookie: cookie)
        #expect(owner.contains("Notes on the tea party"), "the owner's bin")
        #expect(owner.contains("photo.32.remove"), "the owner's Remove")
    }

    @Test func listAndValidateKnowTheModulesAndFailGoesToTheBin() throws {
        let list = try tool("list")
        #expect(list.status == 0)
        #expect(list.output.contains("RecycleBinModule — The owner's deleted blogs, with Restore (owner only)."))
        #expect(list.output.contains("PhotoAlbumModule — A user's photos, for everyone; the owner may remove them."))
        #expect(list.output.contains("user-profile(user: userID)"))
        #expect(!list.output.contains("user-profile/replaced"), "the bundled profile it builds on is not a scene of its own")
        let scenes = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Sources/RecycleBin/Scenes").standardized
        let validate = try tool("validate", scenes.path)
        #expect(validate.status == 0, "\(validate.output)")
        #expect(validate.output.contains("1 scene file(s) valid."))
        let failing = try tool("run", "user-profile", "--viewer", "1", "--arg", "user=1", "--fail", "bin")
        #expect(failing.output.contains("The bin service is unavailable (injected fault)."))
        #expect(failing.status == 2)
    }

    /// The first line a process prints (empty if it ends first).
    static func firstLine(of handle: FileHandle) -> String {
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// The body of a GET, with `cookie` if given.
    static func get(_ address: String, cookie: String? = nil) async throws -> String {
        var request = URLRequest(url: URL(string: address)!)
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let (data, _) = try await session.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    /// Signs in as `user` the way the sign-in form does; returns the cookie it set.
    static func signIn(_ address: String, user: String) async throws -> String {
        var request = URLRequest(url: URL(string: address + "/sign-in")!)
        request.httpMethod = "POST"
        request.setValue(address, forHTTPHeaderField: "Origin")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("user=\(user)&next=/".utf8)
        let (_, response) = try await session.data(for: request)
        let header = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie") ?? ""
        return String(header.prefix { $0 != ";" })
    }

    /// A session that neither follows redirects nor keeps cookies: the tests carry them.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }()
}

final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
