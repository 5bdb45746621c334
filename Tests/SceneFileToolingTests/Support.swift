import Foundation
import Scenery
import Testing

enum Paths {
    static let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenes = packageRoot.appending(path: "Scenes")
    static let schema = scenes.appending(path: "scene.schema.json")
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
    static let invalidScenes = fixtures.appending(path: "InvalidScenes")

    static func jsonFiles(in directory: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { SceneRegistry.isSceneFile($0.lastPathComponent) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// Runs a program and collects its output.
func runProcess(_ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:])
    async throws -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { _, new in new }
    process.environment = env
    let log = FileManager.default.temporaryDirectory.appending(path: "scenery-process-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.finish() }
    try process.run()
    for await _ in finished.stream {}
    process.waitUntilExit()
    return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
}
