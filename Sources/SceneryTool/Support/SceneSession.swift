import ArgumentParser
import Foundation
import Scenery
import SceneryExperiments
import SceneryFaults

/// The options `run` and `interact` share: where the scenes and the data are, and faults.
package struct SessionOptions: ParsableArguments {
    @OptionGroup package var scenes: SceneOptions
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var faults: FaultOptions

    @Option(
        help: ArgumentHelp(
            "Append experiment assignments, impressions and exposures to this file as JSON lines (read by '\(ToolName.current) experiments report --log'); '-' writes them to standard output, among the rest. A module printed as text counts as seen.",
            valueName: "path"))
    var impressions: String?

    package init() {}

    /// Opens the store (with the faults) and loads the scenes, with the files beside them
    /// that are in `resources`.
    package func session(including resources: SceneResources = .all) async throws -> SceneSession {
        try await SceneSession(scenes: scenes, database: database, faults: faults, impressions: impressions, including: resources)
    }
}

/// What `run` and `interact` share: the store (with any faults), the registry, and
/// assembling a scene with the loading indicator.
package struct SceneSession {
    let registry: SceneRegistry
    package let store: any ToolStore
    /// The store's services with the faults asked for, for the catalog's modules.
    package let services: ToolServices
    /// Where `--impressions` asked records to go, if it did.
    package var impressionSink: (any ImpressionSink)? { registry.impressionSink }

    init(
        scenes: SceneOptions, database: DatabaseOptions, faults: FaultOptions, impressions: String? = nil, including resources: SceneResources = .all
    ) async throws {
        store = try await database.openStore()
        let injector = FaultInjector(try faults.plan())
        services = ToolServices(store: store, faults: injector)
        var registry = try await scenes.loadRegistry(services: services, including: resources)
        // A developer's tool: `--locale en-XA` shows the pseudo-locale.
        registry.offersPseudoLocale = true
        if let impressions {
            do {
                let log = impressions == "-" ? JSONLinesImpressionSink() : try JSONLinesImpressionSink(path: impressions)
                ImpressionLogs.open(log)
                registry.impressionSink = log
            } catch {
                throw CommandFailure(error.message, code: .usage)
            }
        }
        self.registry = registry
    }

    /// Whether `id` names someone in the data who may view.
    func hasAccount(_ id: String) async throws -> Bool {
        do {
            return try await store.hasAccount(id)
        } catch {
            throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
        }
    }

    /// The database, for messages.
    var databaseDescription: String { "the database \(DatabaseOptions.redacted(store.location).quoted)" }

    /// Assembles and starts a scene, showing progress on a terminal.
    func open(_ sceneID: String, for context: SceneContext, host: any SceneHost) async throws -> SceneInstance {
        let scene = try registry.instantiate(sceneID, for: context, host: host)
        await LoadingIndicator.start(scene)
        await scene.appear()
        return scene
    }
}

/// The impression logs a command opened (`--impressions`): written off the scenes'
/// executors, so flushed before the command ends (``reportingFailures(_:)`` does).
package enum ImpressionLogs {
    private static let logs = Locked<[JSONLinesImpressionSink]>([])

    static func open(_ log: JSONLinesImpressionSink) {
        logs.withLock { $0.append(log) }
    }

    /// Writes what every open log holds.
    package static func flush() {
        for log in logs.withLock({ $0 }) { log.flush() }
    }
}
