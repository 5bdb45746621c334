import Logging
import Scenery
import Synchronization
import Testing

@testable import SceneryServer

/// A page's own problems (a script error, a patch it could not apply) reach the author's log,
/// placed at the scene file's line of the module, bounded, and never any page.
@Suite struct PageProblemReportTests {
    @Test func aPagesProblemIsLoggedAtItsModulesLineOnOneLineAndAFewAPage() async throws {
        let log = CapturedLog()
        let page = PageSession(
            id: "s", viewer: nil, sceneID: "x", arguments: [:], renderer: HTMLRenderer(),
            configuration: SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32)),
            logger: Logger(label: "test") { _ in CapturedLog.Handler(log: log) })
        var registry = SceneRegistry()
        registry.addScene(id: "x", source: "{ \"modules\": [\n  { \"id\": \"t\", \"type\": \"TextModule\", \"params\": { \"title\": \"Hi\" } }\n] }")
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
        let socket = RecordingSocket()
        _ = await page.attach(since: 0, socket: socket)

        let forged = "TypeError: a is undefined\nwarning: a line the page made up \u{202E}" + String(repeating: "x", count: 900)
        await page.receive(.problem(kind: .script, message: forged, node: "t/title"))
        for number in 1...20 { await page.receive(.problem(kind: .render, message: "problem \(number)")) }
        let warnings = log.lines(at: .warning)
        #expect(warnings.count == 5, "a few a page, then dropped: \(warnings)")
        let first = try #require(warnings.first)
        #expect(first.contains("its script problem at x.json:2:"), "\(first)")
        #expect(first.contains(#"module t (TextModule): 'TypeError: a is undefined\nwarning: a line the page made up"#), "\(first)")
        #expect(!first.contains("\n"), "one line: a page cannot forge a line of the log")
        #expect(!first.unicodeScalars.contains("\u{202E}"), "nor reorder what the log's reader sees")
        #expect(first.count < 800, "cut to \(PageSession.largestLoggedProblem) characters: \(first.count)")
        #expect(warnings.dropFirst().allSatisfy { $0.contains("its render problem at scene x: 'problem") }, "\(warnings)")
        // Nothing was sent to the page for them: the next thing it hears answers its resync.
        await page.receive(.resync)
        let next = await socket.first(1)
        #expect(next.count == 1 && next.allSatisfy { $0.contains(#""type":"reset""#) }, "\(next)")
    }
}

/// Every line a logger wrote, with its level.
final class CapturedLog: Sendable {
    private let written = Mutex<[(Logger.Level, String)]>([])

    func lines(at level: Logger.Level) -> [String] { written.withLock { $0.filter { $0.0 == level }.map(\.1) } }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.written.withLock { $0.append((event.level, event.message.description)) }
        }
    }
}
