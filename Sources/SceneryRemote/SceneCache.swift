import Foundation
import Scenery

/// The last good version of each remote scene, on disk, so an app starts with what it had
/// and works offline.
///
/// One file per scene, `<id>.scene.json`, holding the scene's text with its origin and
/// HTTP validators. Files are written to a temporary name and renamed into place, so a
/// process killed during a refresh leaves the old file or the new one, never half of one.
/// Only versions that were checked and activated are stored.
public struct SceneCache: Sendable {
    /// One cached scene.
    public struct Entry: Sendable, Hashable, Codable {
        public var id: String
        public var source: String
        /// The URL it was fetched from.
        public var origin: String
        public var etag: String?
        public var lastModified: String?
    }

    /// The cache directory (created when first written).
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// Every readable entry. Files that cannot be read or decoded are skipped and reported,
    /// never fatal: the bundled scenes stay.
    public func entries() -> (entries: [Entry], problems: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return ([], []) }
        var entries: [Entry] = []
        var problems: [String] = []
        for name in names.sorted() where name.hasSuffix(".scene.json") {
            let file = directory.appending(path: name)
            guard let data = try? Data(contentsOf: file), let entry = try? JSONDecoder().decode(Entry.self, from: data),
                SceneID.isValid(entry.id), name == Self.fileName(of: entry.id)
            else {
                problems.append("The cached scene file '\(file.path)' cannot be read; it is ignored (delete it, or refresh to replace it).")
                continue
            }
            entries.append(entry)
        }
        return (entries, problems)
    }

    /// The entry of a scene, if cached.
    public func entry(for id: String) -> Entry? {
        guard SceneID.isValid(id), let data = try? Data(contentsOf: directory.appending(path: Self.fileName(of: id))) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    /// Stores an entry atomically (temporary file, flushed, renamed over the old one).
    public func store(_ entry: Entry) throws {
        guard SceneID.isValid(entry.id) else { throw CocoaError(.fileWriteInvalidFileName) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(entry)
        let target = directory.appending(path: Self.fileName(of: entry.id))
        let temporary = directory.appending(path: ".\(entry.id).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil), let handle = try? FileHandle(forWritingTo: temporary) else {
            throw CocoaError(.fileWriteNoPermission)
        }
        do {
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Removes a scene's entry, if there is one.
    public func remove(_ id: String) {
        guard SceneID.isValid(id) else { return }
        try? FileManager.default.removeItem(at: directory.appending(path: Self.fileName(of: id)))
    }

    static func fileName(of id: String) -> String { "\(id).scene.json" }
}

/// What may be a scene id when it comes from a server: a file name of letters, digits,
/// `-`, `_` and `.`, not starting with a dot, at most 128 bytes, so it can never name a
/// path outside the cache.
enum SceneID {
    static func isValid(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128, id.utf8.first != UInt8(ascii: ".") else { return false }
        return id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".")
        }
    }
}
