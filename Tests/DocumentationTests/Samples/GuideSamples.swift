// The samples of the other guides (Sources/Scenery/Scenery.docc), as code that compiles,
// and runs where it needs no network: DocumentationSampleTests checks that the articles'
// blocks stand here line for line.
import Foundation
import ProfileDemo
import ProfileDemoBlogs
import ProfileDemoDomain
import ProfileDemoScenes
import ProfileDemoStore
import Scenery
import SceneryRemote
import SceneryTesting
import SceneryURLSession
import Testing

/// Delivering scenes: an app that layers the server's scenes over the ones it ships. Never
/// called (it would reach the network); compiled so the sample keeps to the API.
func deliverScenes(
    services: ProfileServices, bundledScenes: [(id: String, source: String, file: String)], cachesDirectory: URL,
    analytics: some DiagnosticsReporter, context: SceneContext, host: some SceneHost
) async throws -> SceneInstance {
    var registry = SceneRegistry()  // the app's module types…
    registry.registerProfileModules(services)
    registry.addScenes(sources: bundledScenes)  // …and the scenes it ships with

    let scenes = RemoteScenes(
        server: URL(string: "https://example.com/scenes/")!, registry: registry,
        transport: URLSessionSceneTransport(),
        cache: SceneCache(directory: cachesDirectory.appending(path: "scenes")),
        refreshInterval: .seconds(15 * 60))
    await scenes.loadCache()  // the last good versions, offline too
    Task {
        for await event in await scenes.events() {
            if case .rejected(let offer) = event { analytics.report(offer.diagnostics) }
        }
    }
    await scenes.refreshIfDue()  // at launch and when the app comes forward
    let scene = try await scenes.registry.assemble("user-profile", for: context, host: host)
    return scene
}

/// Where the app sends what it wants to know about rejected scenes.
protocol DiagnosticsReporter: Sendable {
    func report(_ diagnostics: [Diagnostic])
}

/// The overview's first steps, over any blog service. Compiled, not run: it reads `Scenes`
/// relative to the working directory.
func assembleAProfile(store: some BlogService, host: some SceneHost) async throws {
    var registry = SceneRegistry()
    registry.register(BlogModule.self) { parameters, context in
        try BlogModule(parameters: parameters, context: context, blogs: store)
    }
    let problems = try registry.loadScenes(in: URL(filePath: "Scenes"))
    let scene = try await registry.assemble(
        "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
    let tree = await scene.render()  // the scene's view tree, for this viewer
    print(tree.actions.map(\.title))  // what they can do on it: "Follow", "Like", …
    _ = problems
}

/// Updates and ordering: a host's copy of the tree, kept by a scene mirror.
func mirror(_ scene: SceneInstance, update: SceneUpdate, redraw: (ViewNode) -> Void, resynchronise: () -> Void) async {
    var mirror = SceneMirror()
    mirror.prepareToAttach()  // updates that arrive meanwhile are held
    mirror.attach(await scene.takeBaseline())
    // in SceneHost.sceneDidUpdate(_:)
    switch mirror.receive(update) {
    case .applied: redraw(update.node)
    case .alreadyApplied, .held: break
    case .needsBaseline: resynchronise()  // prepareToAttach, takeBaseline, attach again
    }
}

@Suite struct GuideSamples {
    /// Scenery's profile modules and bundled scenes over the demo data, in memory.
    static func profileRegistry() throws -> SceneRegistry {
        var registry = SceneRegistry()
        registry.registerProfileModules(ProfileServices(try SQLiteProfileStore(path: ":memory:")))
        try registry.addBundledScenes()
        // A whole suite shares a small machine (and the thread sanitizer slows it): the
        // default 10 s deadline for a module's load has run out there.
        registry.defaultModuleTimeout = .seconds(120)
        return registry
    }

    @Test func aSceneScriptUnfollowsAfterAsking() async throws {
        let registry = try Self.profileRegistry()
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [
                .expect(.lacksModule("drafts")),
                .tap("info/follow", answering: [false]),
                .expectRoute(["module info: passed", "scene: asked 'Unfollow Alice Liddell?', declined"]),
                .tap("info/follow", answering: [true]),
                .expectResult(.delivered),
                .expectNavigations([]),
            ]
        ).run()
    }
}

/// Experiments: a host of your own reports what is on screen (never called here; the
/// impression tests drive the same two methods with given instants).
func moduleDidAppear(_ module: NodeID, fraction: Double, in scene: SceneInstance) async throws {
    if let deadline = try await scene.reportVisibility(of: module, fraction: fraction, at: .now) {
        try await ContinuousClock().sleep(until: deadline)
        await scene.recordImpressions(dueAt: .now)
    }
}
