import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryFaults
import SceneryTesting
import Synchronization

/// Shared set-up: a fresh demo database, optionally behind a fault injector: an in-memory
/// SQLite one (``store``), or either store of the conformance suite (``database``).
struct Backend {
    /// The database the services read, whichever store it is.
    let database: any ProfileDatabase
    let injector = FaultInjector()
    var services: ProfileServices { ProfileServices(database).injectingFaults(from: injector) }

    /// The SQLite store, for suites that run on SQLite only (its synchronous API).
    var store: SQLiteProfileStore {
        guard let store = database as? SQLiteProfileStore else { preconditionFailure("this suite runs on SQLite only") }
        return store
    }

    init(seed: Bool = true) throws {
        database = try SQLiteProfileStore.inMemory(seedDemoData: seed)
    }

    /// A fresh demo database on `kind`'s store.
    init(_ kind: StoreKind) async throws {
        database = try await kind.seededStore()
    }

    /// A registry with the profile modules and this repository's `Scenes/`.
    func registry() throws -> SceneRegistry { try Self.registry(services) }

    /// A registry with the profile modules on `services` and this repository's `Scenes/`.
    static func registry(_ services: ProfileServices) throws -> SceneRegistry {
        var registry = SceneRegistry()
        // The tests are about what modules show, not about deadlines: on two cores under the
        // whole suite's load a first load has taken longer than the default 10 s (the SQLite
        // store's calls hold a thread of Swift's pool). A module that fails still fails at once.
        registry.defaultModuleTimeout = .seconds(120)
        registry.registerProfileModules(services)
        let problems = try registry.loadScenes(in: Self.scenesDirectory)
        precondition(problems.isEmpty, "the bundled scenes must validate: \(problems)")
        return registry
    }

    static let scenesDirectory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Scenes")
}

/// Records every rendering a module produces through its context, for checking optimistic
/// states that exist only while a write is in flight.
final class RenderLog: Sendable {
    private let renders = AwaitableLog<ViewNode>()
    private let module = Locked<(any Module)?>(nil)

    func attach(_ module: any Module) { self.module.withLock { $0 = module } }

    /// A context whose `setNeedsRender()` records the module's rendering.
    func context(id: ModuleID, viewer: String?) -> ModuleContext {
        ModuleContext(id: id, viewer: viewer) { [self] _ in
            guard let module = self.module.withLock({ $0 }) else { return }
            let tree = await module.render()
            renders.append(tree)
        }
    }

    var all: [ViewNode] { renders.elements }

    /// Waits until a rendering satisfies `condition`; `false` if none did within the log's bound.
    func wait(until condition: @escaping @Sendable (ViewNode) -> Bool) async -> Bool {
        await renders.wait(timeout: .seconds(60)) { $0.contains(where: condition) }
    }
}

extension ViewNode {
    /// The visible texts of the node with an id, for concise assertions.
    func texts(of id: NodeID) -> [String] { node(withID: id)?.visibleTexts ?? [] }
}

/// A store on one kind and the registry of the bundled scenes over it, for one test of open
/// scenes: what several viewers' pages show as the data changes.
struct LiveSetup {
    let backend: Backend
    let registry: SceneRegistry

    init(_ kind: StoreKind) async throws {
        backend = try await Backend(kind)
        registry = try backend.registry()
    }

    /// A scene of `user`'s profile (or `scene`) open for `viewer`, shown, with a host that
    /// records its updates (from now on) and answers confirmations with `confirmer`; the tab
    /// `tab` of the `sections` switch is selected first when given; `locale` is the viewer's
    /// language.
    func open(
        _ viewer: String?, scene: String = "user-profile", profileOf user: String = "1", tab: String? = nil,
        confirmer: ScriptedConfirmer = .decliningAll, locale: String? = nil
    ) async throws -> (scene: SceneInstance, host: RecordingHost) {
        let host = RecordingHost(confirmer: confirmer)
        let page = try await registry.assemble(
            scene, for: SceneContext(viewer: viewer, arguments: ["user": .string(user)], locale: locale), host: host)
        if let tab { await page.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": .string(tab)])) }
        await page.appear()
        _ = await page.takeBaseline()  // the host's copy of the tree, which updates patch
        host.reset()
        return (page, host)
    }
}
