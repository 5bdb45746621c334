import Foundation
import Scenery

/// The scene files that ship with Scenery (this folder, `Scenes/`), as package resources.
///
/// An app or a tool that depends on the `ProfileDemo` product (module `ProfileDemoScenes`)
/// gets them without a checkout on disk, so its own scene files can extend them (`"extends": "user-profile"`):
///
/// ```swift
/// var registry = SceneRegistry()
/// registry.registerProfileModules(services)
/// try registry.addScenes(files: BundledScenes.files)            // Scenery's scenes…
/// try registry.addScenes(files: MyApp.sceneFiles)                // …and the app's over them, by id
/// ```
public enum BundledScenes {
    /// The folder of the scene files (and `scene.schema.json`) in this product's resources.
    public static let directory: URL = {
        #if os(Linux)
            // SwiftPM copies the resources beside the executable: look there first, without
            // making a Foundation Bundle (about 0.7 ms of the tool's 20 ms start).
            if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                let beside = URL(filePath: executable).deletingLastPathComponent()
                    .appending(path: "Scenery_ProfileDemoScenes.resources", directoryHint: .isDirectory)
                if FileManager.default.fileExists(atPath: beside.appending(path: "user-profile.json").path) { return beside }
            }
        #endif
        return Bundle.module.resourceURL ?? Bundle.module.bundleURL
    }()

    /// The scene files, sorted by name: every `*.json` but the schema and manifests
    /// (`SceneRegistry/isSceneFile(_:)`).
    public static var files: [URL] {
        (try? SceneRegistry.sceneFiles(in: directory)) ?? []
    }

    /// The message catalogs of the bundled scenes (`zh-Hans.messages.json`, …).
    public static var messageCatalogs: [URL] {
        (try? SceneRegistry.messageCatalogFiles(in: directory)) ?? []
    }

    /// The themes of the bundled scenes (`light.tokens.json`, `dark.tokens.json`,
    /// `high-contrast.tokens.json`).
    public static var themes: [URL] {
        (try? SceneRegistry.themeFiles(in: directory)) ?? []
    }

    /// The folder diagnostics name the bundled scenes by: `Scenes/user-profile.json`, where
    /// they are in Scenery's repository.
    public static let displayRoot = URL(filePath: "Scenes", directoryHint: .isDirectory)

    /// The ids of the bundled scenes (the file names without `.json`).
    public static var ids: [String] {
        files.map { $0.deletingPathExtension().lastPathComponent }
    }

    /// The JSON Schema of scene files, for editors.
    public static var schema: URL {
        directory.appending(path: "scene.schema.json")
    }
}

extension SceneRegistry {
    /// Adds Scenery's bundled scenes (``BundledScenes``), their message catalogs and themes
    /// without validating them, named
    /// `Scenes/<file>` in diagnostics. Add your own scenes after them: a scene replaces the
    /// bundled one with its id, and may extend any of them.
    /// - Throws: ``SceneryError`` if a resource cannot be read.
    public mutating func addBundledScenes() throws(SceneryError) {
        addMessageCatalogs(files: BundledScenes.messageCatalogs, displayRoot: BundledScenes.displayRoot)
        addThemes(files: BundledScenes.themes, displayRoot: BundledScenes.displayRoot)
        try addScenes(files: BundledScenes.files, displayRoot: BundledScenes.displayRoot)
    }
}
