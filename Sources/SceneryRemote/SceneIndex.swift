import Foundation

/// The list of scene files a server publishes, `index.json`: each scene's id and the tag
/// of its current version. `scenery serve` writes it and ``RemoteScenes`` reads it — one
/// type for both sides.
///
/// ```json
/// { "scenes": [ { "etag": "\"3f2a…\"", "id": "user-profile" } ] }
/// ```
public struct SceneIndex: Codable, Sendable, Hashable {
    /// One published scene.
    public struct Entry: Codable, Sendable, Hashable {
        /// The scene's id: its file is `<id>.json` beside the index.
        public var id: String
        /// The entity tag of its current version, if the server gives one: a client that has
        /// that version already does not fetch it again.
        public var etag: String?

        /// An entry.
        public init(id: String, etag: String?) {
            self.id = id
            self.etag = etag
        }
    }

    /// The published scenes.
    public var scenes: [Entry]

    /// An index of these scenes.
    public init(scenes: [Entry]) {
        self.scenes = scenes
    }

    /// Reads an index.
    /// - Throws: ``SceneTransportFailure`` naming `url` when the data is not an index.
    public init(from data: Data, url: URL) throws(SceneTransportFailure) {
        do {
            self = try JSONDecoder().decode(SceneIndex.self, from: data)
        } catch {
            throw SceneTransportFailure("\(url.absoluteString) is not a scene index ({ \"scenes\": [ { \"id\": …, \"etag\": … } ] })")
        }
    }

    /// The index as JSON text (keys sorted, one scene a line): what a server publishes.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? "{ \"scenes\": [] }\n"
    }
}
