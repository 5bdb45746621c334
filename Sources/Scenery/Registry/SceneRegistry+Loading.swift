import Foundation
import Synchronization

/// Scene files into the registry: from a folder, from files or from text, each parsed and
/// kept with its diagnostics; a scene replaced or removed.
extension SceneRegistry {
    /// Loads every `*.json` scene file in a directory (not `*.schema.json` or
    /// `*.modules.json`), validates all
    /// scenes, and returns every problem found.
    ///
    /// Scenes with errors stay known (so ``diagnostics(for:)`` can explain them) but cannot
    /// be assembled; the others work normally.
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/unreadableFile`` if the directory
    ///   cannot be listed.
    public mutating func loadScenes(in directory: URL) throws(SceneryError) -> [Diagnostic] {
        // The folder's message catalogs (`*.messages.json`) and themes (`*.tokens.json`)
        // come with its scenes.
        let catalogs = try Self.messageCatalogFiles(in: directory)
        addMessageCatalogs(files: catalogs, displayRoot: directory)
        addThemes(files: try Self.themeFiles(in: directory), displayRoot: directory)
        let problems = try loadScenes(files: Self.sceneFiles(in: directory), displayRoot: directory)
        return (catalogs.isEmpty ? problems : problems + messageCatalogDiagnostics) + themeDiagnostics
    }

    /// The scene files of a directory (``isSceneFile(_:)``), sorted by name.
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/unreadableFile`` if the directory
    ///   cannot be listed.
    public static func sceneFiles(in directory: URL) throws(SceneryError) -> [URL] {
        try files(in: directory, where: isSceneFile)
    }

    /// The files of a scene directory whose names `include` takes, sorted by name.
    static func files(in directory: URL, where include: (String) -> Bool) throws(SceneryError) -> [URL] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter(include).sorted()
                .map { directory.appending(path: $0, directoryHint: .notDirectory) }
        } catch {
            throw SceneryError(
                .unreadableFile,
                "Cannot list the scene directory \(directory.path.quoted): \(error.localizedDescription). Pass an existing directory of scene files.")
        }
    }

    /// How a file of a scene folder is named in diagnostics, and its bytes, read as every
    /// such file is: a regular file of at most ``largestSceneFile`` bytes, and, when it was
    /// listed from `displayRoot`, in that folder (a link out of it is refused: a served folder
    /// never publishes what it points at).
    static func read(_ file: URL, displayRoot: URL?) -> (display: String, contents: Result<Data, RegularFile.Refusal>) {
        let display = displayRoot.map { "\($0.lastPathComponent)/\(file.lastPathComponent)" } ?? file.relativePath
        guard let folder = displayRoot, folder.standardizedFileURL.path == file.deletingLastPathComponent().standardizedFileURL.path else {
            return (display, Result { () throws(RegularFile.Refusal) in try RegularFile.contents(of: file.path, limit: largestSceneFile) })
        }
        return (display, Result { () throws(RegularFile.Refusal) in try RegularFile.contents(of: file.path, limit: largestSceneFile, within: folder.path) })
    }

    /// Reads files beside the scenes (catalogs, themes) as ``read(_:displayRoot:)`` does and
    /// hands each one's bytes to `add`; a file that cannot be read is a problem of its own,
    /// kept in `problems` by its name. Returns every problem found.
    mutating func addFiles(
        _ files: [URL], displayRoot: URL?, kind: String, problems: WritableKeyPath<SceneRegistry, [String: [Diagnostic]]>,
        add: (inout SceneRegistry, [UInt8], String) -> [Diagnostic]
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for file in files {
            let (display, contents) = Self.read(file, displayRoot: displayRoot)
            switch contents {
            case .success(let data):
                found += add(&self, Array(data), display)
            case .failure(let error):
                let problem = Diagnostic(.error, "Cannot read the \(kind): \(error.description); replace it or remove it.", file: display, location: nil)
                self[keyPath: problems][display] = [problem]
                found.append(problem)
            }
        }
        return found
    }

    /// Loads the given scene files, validates all scenes, and returns every problem found.
    ///
    /// - Parameters:
    ///   - files: The scene files; each scene's id is its file name without `.json`.
    ///   - displayRoot: When given, file names in diagnostics are shown relative to
    ///     this directory's parent (`Scenes/user-profile.json`); otherwise as given.
    public mutating func loadScenes(files: [URL], displayRoot: URL? = nil) throws(SceneryError) -> [Diagnostic] {
        try addScenes(files: files, displayRoot: displayRoot)
        _ = problems  // validate everything in one pass, then read it scene by scene
        return files.flatMap { diagnostics(for: Self.sceneID(of: $0)) }
    }

    /// The largest scene file read, in bytes; a larger one is an error of its own.
    public static let largestSceneFile = 4 << 20

    /// Reads scene files without validating them: each scene is validated when it is first
    /// assembled or asked for its diagnostics, so running one scene costs that scene, not the
    /// whole directory. Returns the problems of files that are not scene files at all (not
    /// JSON, not an object, not readable); other problems come from ``diagnostics(for:)``.
    ///
    /// A file that cannot be read (a FIFO, a directory or device named like a scene file, a
    /// symbolic link loop, more than ``largestSceneFile`` bytes, or, for a file in
    /// `displayRoot`, a symbolic link to a file outside that folder) is reported as an error
    /// of its own scene; the other files load as usual. Nothing blocks on a FIFO.
    @discardableResult
    public mutating func addScenes(files: [URL], displayRoot: URL? = nil) throws(SceneryError) -> [Diagnostic] {
        for file in files {
            let id = Self.sceneID(ofFileNamed: file.lastPathComponent)
            let (display, contents) = Self.read(file, displayRoot: displayRoot)
            switch contents {
            case .success(let data):
                addDefinition(id: id, bytes: Array(data), file: display)
            case .failure(let error):
                let problem = Diagnostic(
                    .error, "Cannot read the scene file: \(error.description); replace it with a scene file or remove it.", file: display,
                    location: nil)
                setScene(id: id, definition: nil, bytes: [], parseDiagnostics: [problem])
                sources[id] = nil  // no text to publish
            }
        }
        revalidate()
        return files.flatMap { unparsable[Self.sceneID(of: $0)] ?? [] }
    }

    /// Adds scenes from the text of their files without validating them (see
    /// ``addScenes(files:displayRoot:)``).
    public mutating func addScenes(sources: [(id: String, source: String, file: String)]) {
        for scene in sources { addDefinition(id: scene.id, bytes: Array(scene.source.utf8), file: scene.file) }
        revalidate()
    }

    /// Adds (or replaces) a scene from the text of its file, validates all scenes, and
    /// returns the problems of this scene.
    @discardableResult
    public mutating func addScene(id: String, source: String, file: String? = nil) -> [Diagnostic] {
        addDefinition(id: id, bytes: Array(source.utf8), file: file ?? "\(id).json")
        revalidate()
        return diagnostics(for: id)
    }

    /// The id of the scene in a file: its name without the extension.
    static func sceneID(of file: URL) -> String {
        sceneID(ofFileNamed: file.lastPathComponent)
    }

    static func sceneID(ofFileNamed name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return name }
        return String(name[..<dot])
    }

    mutating func addDefinition(id: String, bytes: [UInt8], file: String) {
        var parser = SceneFileParser(file: file, id: id)
        setScene(id: id, definition: parser.parse(bytes), bytes: bytes, parseDiagnostics: parser.diagnostics)
    }

    /// Puts a parsed scene (or the problems of a file that could not be parsed) in place.
    ///
    /// A scene that extends its own id (`"extends": "user-profile"` in `user-profile.json`)
    /// builds on the scene of that id it replaces: the last one added that does not extend
    /// its own id, kept under a hidden id. Any other scene replaces the id outright.
    package mutating func setScene(id: String, definition: SceneDefinition?, bytes: [UInt8], parseDiagnostics: [Diagnostic]) {
        var definition = definition
        if definition?.extends == id {
            if replacedScenes[id] == nil, var replaced = definitions[id] {
                let hidden = Self.replacedSceneID(of: id)
                replaced.id = hidden
                definitions[hidden] = replaced
                sources[hidden] = sources[id]
                replacedScenes[id] = hidden
            }
            // With nothing to build on, `extends` stays the scene's own id: an error that
            // says so when the scene is resolved.
            if let hidden = replacedScenes[id] { definition?.extends = hidden }
        } else if let hidden = replacedScenes.removeValue(forKey: id) {
            definitions[hidden] = nil
            sources[hidden] = nil
        }
        definitions[id] = definition
        unparsable[id] = parseDiagnostics
        sources[id] = bytes
        revalidate()
    }

    /// Forgets a scene (its definition, problems and text).
    package mutating func removeScene(id: String) {
        if let hidden = replacedScenes.removeValue(forKey: id) {
            definitions[hidden] = nil
            sources[hidden] = nil
        }
        definitions[id] = nil
        unparsable[id] = nil
        sources[id] = nil
        revalidate()
    }
}
