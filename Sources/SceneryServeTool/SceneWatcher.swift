import Foundation
import Scenery
import SceneryServer
import SceneryTool

/// Polls a scene directory and hands the server new scenes when a file changes.
///
/// Each poll compares what `stat` says of each scene file, manifest and message catalog
/// (kind, size, modification time, inode), reading nothing; only a change reloads the
/// files (a catalog's change, every scene: any may show its words). A file
/// that cannot be read (a FIFO, a link loop, a file too large) or has errors is reported
/// for itself, and its scene keeps its last good version; every other scene reloads.
struct SceneWatcher: Sendable {
    let directory: String
    let services: ToolServices

    /// What `stat` says of a file, to tell whether it changed without reading it.
    struct Stamp: Equatable {
        var kind: UInt32
        var size: Int64
        var modified: Int64
        var inode: UInt64
        var problem: Int32
    }

    /// The stamps of the directory's scene files, manifests, message catalogs and themes.
    private func stamps() -> [String: Stamp] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var stamps: [String: Stamp] = [:]
        for name in names
        where SceneRegistry.isSceneFile(name) || SceneRegistry.isManifestFile(name) || MessageCatalog.isCatalogFile(name)
            || Theme.isThemeFile(name)
        {
            var status = stat()
            let path = URL(filePath: directory, directoryHint: .isDirectory).appending(path: name).path
            if stat(path, &status) == 0 {
                stamps[name] = Stamp(
                    kind: UInt32(status.st_mode & S_IFMT), size: Int64(status.st_size),
                    modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec), inode: UInt64(status.st_ino),
                    problem: 0)
            } else {
                stamps[name] = Stamp(kind: 0, size: 0, modified: 0, inode: 0, problem: errno)
            }
        }
        return stamps
    }

    func run(_ server: SceneryServer) async throws {
        var last = stamps()
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(250))
            let now = stamps()
            guard now != last else { continue }
            let names = now.keys.filter { now[$0] != last[$0] } + last.keys.filter { now[$0] == nil }
            let changed = Set(names.filter(SceneRegistry.isSceneFile).map { String($0.dropLast(".json".count)) })
            last = now
            await reload(server, changed: changed, catalogsChanged: names.contains(where: MessageCatalog.isCatalogFile))
        }
    }

    /// Reads the directory again and hands the server what is good.
    func reload(_ server: SceneryServer, changed: Set<String>, catalogsChanged: Bool = false) async {
        let previous = server.registry
        var registry: SceneRegistry
        do {
            registry = try SceneOptions.loadRegistry(directory: directory, services: services)
            registry.offersPseudoLocale = previous.offersPseudoLocale
        } catch {
            await server.reload(nil, changed: [], errors: String(describing: error))
            return
        }
        // A catalog's problems are shown too; its invalid translations never reach a page.
        let problems = (registry.sceneIDs.flatMap { registry.diagnostics(for: $0) } + registry.messageCatalogDiagnostics + registry.themeDiagnostics)
            .filter { $0.severity == .error }
        let changed = catalogsChanged ? Set(registry.sceneIDs) : changed
        let broken = Set(registry.sceneIDs.filter { registry.diagnostics(for: $0).containsErrors })
        // A broken scene keeps the version that worked, so its open pages stay as they are.
        let kept = broken.compactMap { id -> (id: String, source: String, file: String)? in
            guard let source = previous.source(of: id), !previous.diagnostics(for: id).containsErrors else { return nil }
            return (id, source, "\(id).json")
        }
        registry.addScenes(sources: kept)
        // So does a theme whose file has errors (it does not read, or fails contrast): its
        // pages keep its last good values, not the tool's bundled theme of the same name.
        let brokenThemeFiles = Set(registry.themeDiagnostics.filter { $0.severity == .error }.map(\.file))
        for theme in previous.themes where brokenThemeFiles.contains(theme.file) {
            registry.addTheme(theme)
        }
        registry.impressionSink = previous.impressionSink
        registry.impressionRule = previous.impressionRule
        await server.reload(
            registry, changed: changed.subtracting(broken), errors: problems.isEmpty ? nil : problems.map(\.description).joined(separator: "\n"))
    }
}
