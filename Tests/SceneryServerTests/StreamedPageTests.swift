import Foundation
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Synchronization
import Testing

@testable import SceneryServer

/// A one-shot signal: loads wait on it until the test opens it.
final class LoadSignal: Sendable {
    private let state = Locked<(isOpen: Bool, failure: String?, waiters: [CheckedContinuation<String?, Never>])>((false, nil, []))

    /// Lets every waiting load go on; with `failure`, they fail with it.
    func open(failing failure: String? = nil) {
        let waiters = state.withLock { state in
            state.isOpen = true
            state.failure = failure
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: failure) }
    }

    /// Waits until the signal opens; returns the failure it opened with.
    func wait() async -> String? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> String?? in
                if state.isOpen { return .some(state.failure) }
                state.waiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

struct SlowLoadFailed: Error, CustomStringConvertible {
    var description: String
}

/// A module that loads when the test says so, and names the page once it has.
actor SlowPersonModule: Module {
    static let descriptor = ModuleDescriptor(type: "SlowPersonModule", summary: "A person, from a slow service.")
    let signal: LoadSignal
    var name: String?

    init(signal: LoadSignal) { self.signal = signal }

    func load(_ request: LoadRequest) async throws {
        if let failure = await signal.wait() { throw SlowLoadFailed(description: failure) }
        name = "Dinah the cat"
    }

    func pageTitle() -> String? { name }

    func render() -> ViewNode { name.map { .text("name", "About \($0)") } ?? .loading("name.loading") }
}

/// A module that loads at once.
actor QuickModule: Module {
    static let descriptor = ModuleDescriptor(type: "QuickModule", summary: "Something that loads at once.")
    func load(_ request: LoadRequest) async throws {}
    func render() -> ViewNode { .text("words", "Quick words") }
}

/// Pages streamed before their slowest module: the response carries the page with a slow
/// module's placeholder, and the module is patched in over the socket when it loads.
@Suite(.timeLimit(.minutes(5))) struct StreamedPageTests {
    let fixture: ServerFixture
    let signal = LoadSignal()

    init() throws {
        // Long enough for the quick module on a busy machine; the slow one never makes it
        // until a test opens its signal.
        fixture = try Self.fixture(waitingAtMost: .seconds(2), signal: signal)
    }

    /// A server with the streamed scene (a quick module, then one that loads when `signal`
    /// opens) whose first responses wait at most `wait`.
    static func fixture(waitingAtMost wait: Duration, signal: LoadSignal) throws -> ServerFixture {
        try ServerFixture(
            configure: { $0.firstResponseWait = wait },
            register: { registry in
                // The slow module waits for the test's signal, not for a deadline: a loaded
                // machine may take longer than the default 10 s to reach the signal.
                registry.register(SlowPersonModule.self) { _, _ in SlowPersonModule(signal: signal) }
                registry.register(QuickModule.self) { _, _ in QuickModule() }
                let problems = registry.addScene(
                    id: "streamed",
                    source:
                        #"{"title": "A streamed page", "modules": [{"id": "quick", "type": "QuickModule"}, {"id": "slow", "type": "SlowPersonModule", "timeout": 120000}]}"#
                )
                #expect(problems.isEmpty, "\(problems)")
            })
    }

    /// The patch operations on the slow module's elements.
    static func slowOperations(in state: TestPage.State) -> [PageProtocol.DOMOperation] {
        state.operations.filter { $0.target.rawValue.hasPrefix("slow") }
    }

    /// The quick module is left alone by what the slow one does. It is patched only when a
    /// busy server had not loaded it within the first response's wait, and then only into
    /// its own loaded state.
    static func expectQuickModuleLeftAlone(_ state: TestPage.State, sourceLocation: SourceLocation = #_sourceLocation) {
        for operation in state.operations where !operation.target.rawValue.hasPrefix("slow") {
            let html = operation.html ?? ""
            #expect(operation.target.rawValue.hasPrefix("quick"), "\(operation)", sourceLocation: sourceLocation)
            #expect(html.contains("Quick words") && !html.contains("Dinah") && !html.contains("down"), "\(operation)", sourceLocation: sourceLocation)
        }
    }

    @Test func theFirstResponseHasTheQuickModuleAndABusyPlaceholderForTheSlowOne() async throws {
        try await fixture.server.application().test(.router) { client in
            let response = try await client.execute(uri: "/scenes/streamed", method: .get)
            #expect(response.status == .ok)
            let page = response.text
            #expect(page.contains("Quick words"))
            #expect(page.contains(#"data-module="slow" data-type="SlowPersonModule" data-status="loading" aria-busy="true""#), "\(page)")
            #expect(page.contains(#"class="placeholder loading" role="status">Loading…"#))
            #expect(!page.contains("Dinah"))
            #expect(page.contains("<h1>A streamed page</h1>"), "the scene's title until the module names the page")
            signal.open()
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func theSlowModuleIsPatchedInWhenItLoadsAndNamesThePage(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let page = try await client.open("streamed", format: .html)
            signal.open()
            let loaded = try await page.waitUntil("the slow module and the page's title") { state in
                !Self.slowOperations(in: state).isEmpty && state.messages.contains { $0.type == "title" }
            }
            Self.expectQuickModuleLeftAlone(loaded)
            let html = Self.slowOperations(in: loaded).compactMap(\.html).joined()
            #expect(html.contains("About Dinah the cat"))
            #expect(html.contains(#"data-status="ready""#) && !html.contains("aria-busy"))
            let titles = loaded.messages.compactMap { message -> String? in
                guard case .title(_, let text) = message else { return nil }
                return text
            }
            #expect(titles == ["Dinah the cat"])
            // Numbered like the patch, so a page that reconnects is told too.
            let numbers = loaded.messages.compactMap(\.sequence)
            #expect(numbers == Array(1...max(numbers.count, 1)), "\(loaded.messages)")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aSlowModuleThatFailsShowsItsErrorWithARetryAndLeavesTheRestAlone(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let page = try await client.open("streamed", format: .html)
            signal.open(failing: "The person service is down.")
            let failed = try await page.waitUntil("the slow module's error") { !Self.slowOperations(in: $0).isEmpty }
            Self.expectQuickModuleLeftAlone(failed)
            let html = Self.slowOperations(in: failed).compactMap(\.html).joined()
            #expect(html.contains("The person service is down."))
            #expect(html.contains(">Retry</button>"))
            #expect(!failed.messages.contains { $0.type == "title" }, "a failed module names nothing")
        }
    }

    @Test func aPageWhoseModulesLoadInTimeIsWholeAndNamedInItsFirstResponse() async throws {
        signal.open()
        // A wait no test machine exceeds: the modules load well within it.
        let fixture = try Self.fixture(waitingAtMost: .seconds(60), signal: signal)
        try await fixture.server.application().test(.router) { client in
            let page = try await client.execute(uri: "/scenes/streamed", method: .get).text
            #expect(page.contains("About Dinah the cat"))
            #expect(!page.contains("aria-busy"))
            #expect(page.contains(#"<h1 class="in-scene">Dinah the cat</h1>"#))
        }
    }
}
