import Foundation
import Scenery

extension SceneryServer.Configuration {
    /// An ``editorLink`` for the scene files of `folder` (the folder a registry loaded with
    /// `loadScenes(in:)`, which names its files `<folder name>/<file>`): `template`'s
    /// `{file}` becomes the file's absolute path, `{line}` and `{column}` its position.
    /// A file of another folder, or one fetched from a server, gets no link.
    ///
    /// ```swift
    /// let link = SceneryServer.Configuration.editorLink("vscode://file/{file}:{line}:{column}", sceneFolder: URL(filePath: "Scenes"))
    /// link("Scenes/user-profile.json", SourcePosition(line: 13, column: 5))  // vscode://file/…/Scenes/user-profile.json:13:5
    /// ```
    public static func editorLink(_ template: String, sceneFolder folder: URL) -> @Sendable (_ file: String, _ position: SourcePosition) -> String? {
        let folder = folder.absoluteURL.standardizedFileURL
        return { file, position in
            let name = folder.lastPathComponent + "/"
            guard file.hasPrefix(name), !file.contains("://") else { return nil }
            let path = folder.appending(path: String(file.dropFirst(name.count))).path
            return template.replacingOccurrences(of: "{file}", with: path).replacingOccurrences(of: "{line}", with: String(position.line))
                .replacingOccurrences(of: "{column}", with: String(position.column))
        }
    }
}
