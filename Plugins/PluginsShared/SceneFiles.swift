import Foundation

/// Finding scene files and module manifests, shared by the build and command plugins (each
/// plugin directory links `PluginsShared` here, as a plugin cannot depend on a library).
enum SceneFiles {
    /// Whether a file is a scene file (`*.json`, not a schema) or a manifest (`*.modules.json`).
    static func isSceneOrManifest(_ url: URL) -> Bool {
        url.pathExtension == "json" && !url.lastPathComponent.hasSuffix(".schema.json") && !url.lastPathComponent.hasPrefix(".")
    }

    /// The scene files and manifests among `urls`, a directory standing for those in it
    /// (a target's `.copy("Scenes")` resource is one directory), sorted by name.
    static func find(in urls: [URL]) -> [URL] {
        var found: [URL] = []
        for url in urls {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let entries = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
                found += entries.filter(isSceneOrManifest)
            } else if isSceneOrManifest(url) {
                found.append(url)
            }
        }
        return found.sorted { ($0.lastPathComponent, $0.path) < ($1.lastPathComponent, $1.path) }
    }

    /// The directories the files are in, so that adding or removing a file runs the
    /// validation again.
    static func directories(of files: [URL]) -> [URL] {
        Array(Set(files.map { $0.deletingLastPathComponent() })).sorted { $0.path < $1.path }
    }
}
