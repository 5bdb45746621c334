import Foundation
import ProfileDemoStore
import Testing

/// Runs the built `scenery` executable in a process of its own, with a private database.
struct CommandRunner {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// A fresh directory with the database path the runs use.
    let directory: URL
    var database: String { directory.appending(path: "demo.sqlite").path }
    static let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "scenery-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The built executable: next to the test bundle, as SwiftPM lays products out.
    static let executable: URL = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["SCENERY_BINARY"] { candidates.append(URL(filePath: path)) }
        candidates.append(Bundle.main.bundleURL.appending(path: "scenery"))
        candidates.append(URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "scenery"))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appending(path: "scenery"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs `scenery` with arguments and standard input, in the package root (so
    /// `Scenes/` is found), and waits at most a minute.
    ///
    /// With `unprivileged`, the command runs as the user `nobody` when the tests run as
    /// root (for whom no file is read-only), so that file permissions apply to it.
    ///
    /// With `keepingInputOpen`, standard input is a pipe that stays open (a person at a
    /// terminal who types nothing) until the command ends, instead of `input`.
    func run(
        _ arguments: [String], input: String = "", environment extra: [String: String] = [:], in workingDirectory: URL? = nil,
        standardOutput: String? = nil, unprivileged: Bool = false, executable: URL? = nil, keepingInputOpen: Bool = false
    ) async throws -> Result {
        let process = Process()
        if unprivileged, getuid() == 0 {
            process.executableURL = URL(filePath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Self.executable.path] + arguments
        } else {
            process.executableURL = executable ?? Self.executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = workingDirectory ?? Self.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["SCENERY_DATABASE"] = database
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let id = UUID().uuidString
        let outURL = directory.appending(path: "\(id).out")
        let errURL = directory.appending(path: "\(id).err")
        let inURL = directory.appending(path: "\(id).in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        try Data(input.utf8).write(to: inURL)
        process.standardOutput =
            try standardOutput.map { path in
                guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
                return handle
            } ?? FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let openInput = keepingInputOpen ? Pipe() : nil
        process.standardInput = try openInput ?? FileHandle(forReadingFrom: inURL)
        defer { try? openInput?.fileHandleForWriting.close() }
        let finished = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in finished.continuation.finish() }
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            Issue.record("scenery \(arguments.joined(separator: " ")) did not finish within 60 s")
            process.terminate()
        }
        for await _ in finished.stream {}
        watchdog.cancel()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            error: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Starts `scenery` and returns at once; `errorLines` yields what it writes on standard
    /// error, line by line, as it writes it (so a test can wait for a notice).
    func start(_ arguments: [String]) throws -> (process: Process, errorLines: AsyncStream<String>) {
        let process = makeProcess(arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        let lines = Self.lines(of: pipe)
        try process.run()
        return (process, lines)
    }

    /// Starts `scenery` with standard input a pipe the test writes to (`input`), and its
    /// standard output as lines, as it writes them (a prompt is not a line: it is yielded
    /// with the next one); with `mergingErrors`, its standard error in the same lines.
    func startInteractive(
        _ arguments: [String], mergingErrors: Bool = false
    ) throws -> (process: Process, input: FileHandle, outputLines: AsyncStream<String>) {
        let process = makeProcess(arguments)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        // With `mergingErrors`, errors come in the same stream: a test that waits for a line
        // sees why it never came.
        process.standardError = mergingErrors ? output : FileHandle.nullDevice
        let lines = Self.lines(of: output)
        try process.run()
        return (process, input.fileHandleForWriting, lines)
    }

    private func makeProcess(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = Self.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["SCENERY_DATABASE"] = database
        process.environment = environment
        return process
    }

    /// What a pipe carries, line by line, as it arrives; the stream ends with the pipe.
    ///
    /// Read with blocking reads on a thread of its own rather than a readability handler:
    /// that is a dispatch source on the pipe, cancelled when the pipe ends while its
    /// descriptor closes, which libdispatch on Linux does not survive every time.
    private static func lines(of pipe: Pipe) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                // One read(2), whatever it brings (FileHandle's reads wait for a whole count).
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            continuation.finish()
        }
        return lines
    }

    /// The database the runs used, opened directly.
    func store() throws -> SQLiteProfileStore { try SQLiteProfileStore(path: database) }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}
