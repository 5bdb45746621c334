import Foundation
import Scenery
import SceneryExperiments

/// `data export`, `import` and `reset` over the app's data and every part's: one file of
/// every part (`scenery.site-data`) when the catalog's parts keep data, the app's own
/// format otherwise.
extension ToolStore {
    /// The app's data set and the parts', the app's first.
    ///
    /// - Throws: `DataError` when the parts keep data and the app's store does not take
    ///   part (``ToolStore/appDataSet`` is `nil`).
    private func everyPart(with parts: [any PartData]) throws(DataError) -> [any PartData] {
        guard let app = appDataSet else {
            throw DataError(
                .storage,
                "The tool's parts keep data (\(parts.map { "'\($0.app)'" }.joined(separator: ", "))), but the app's store (\(type(of: self))) does not say how its own data joins them; give it an appDataSet, so that one file and one transaction hold every part's data."
            )
        }
        return [app] + parts
    }

    /// Writes the whole data set: the app's own document when no part keeps data, else one
    /// document of every part's.
    package func exportWholeData(with parts: [any PartData], to write: (String) throws -> Void) async throws {
        guard !parts.isEmpty else { return try await exportJSON(to: write) }
        try await exportData(of: try everyPart(with: parts), to: write)
    }

    /// Replaces the whole data set with `document`: a file of every part's data replaces
    /// every part's in one transaction; the app's own document replaces the app's data and
    /// leaves the parts' as they are.
    ///
    /// - Throws: `DataError` of kind `invalidData` with every problem (a section of a part
    ///   the app lacks, a version newer than this program's, each part's own problems at
    ///   `parts.NAME.…`); nothing is changed in any part then.
    package func importWholeData(_ document: Data, with parts: [any PartData]) async throws(DataError) -> String {
        guard let file = try SiteDataFile(document) else {
            let contents = try await importJSON(document)
            return parts.isEmpty ? contents : "\(contents) (the file holds the app's data only: the parts' data was left as it was)"
        }
        let every = try everyPart(with: parts)
        let known = Set(every.map(\.app))
        let unknown = file.sections.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw .invalidData(
                unknown.map {
                    DataProblem(
                        path: "parts.\($0)",
                        message:
                            "is data of a part this app lacks (it has \(every.map { "'\($0.app)'" }.joined(separator: ", "))); remove the section, or add the part to the app."
                    )
                })
        }
        let contents = try await replaceData(of: every, with: file.sections)
        return Self.words(for: every, holding: contents)
    }

    /// What every part holds, in words: the app's first as it says it, then each part's
    /// under its name ("3 users, 2 blogs, 1 drafts; guestbook: 2 messages").
    private static func words(for parts: [any PartData], holding contents: [String]) -> String {
        zip(parts, contents).enumerated().map { $0.offset == 0 ? $0.element.1 : "\($0.element.0.app): \($0.element.1)" }.joined(separator: "; ")
    }

    /// Replaces the whole data set with the demo data: the app's and every part's.
    package func resetWholeData(with parts: [any PartData]) async throws(DataError) -> String {
        guard !parts.isEmpty else { return try await resetToDemoData() }
        let every = try everyPart(with: parts)
        var sections: [String: Data] = [:]
        for part in every { sections[part.app] = part.demoSection }
        let contents = try await replaceData(of: every, with: sections)
        return Self.words(for: every, holding: contents)
    }
}

/// A data file of every part's data: `{"format": "scenery.site-data", "version": 1,
/// "parts": {NAME: section, …}}`, each section as JSON text.
struct SiteDataFile {
    /// Each part's section, by the part's name.
    let sections: [String: Data]

    /// The file's sections, or `nil` when `document` is not a file of every part (an app's
    /// own document, which the app reads).
    ///
    /// - Throws: `DataError` of kind `invalidData` when it is one this program cannot read.
    init?(_ document: Data) throws(DataError) {
        guard let object = try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed]) as? [String: Any],
            object["format"] as? String == SiteDataFormat.name
        else { return nil }
        let version = object["version"] as? Int ?? SiteDataFormat.version
        guard version <= SiteDataFormat.version else {
            throw .invalidData([
                DataProblem(path: "version", message: "is \(version), newer than this program reads (\(SiteDataFormat.version)); use a newer program.")
            ])
        }
        guard let parts = object["parts"] as? [String: Any] else {
            throw .invalidData([DataProblem(path: "parts", message: "must be an object of each part's data, by the part's name; add it.")])
        }
        var sections: [String: Data] = [:]
        for (app, section) in parts {
            sections[app] = try? JSONSerialization.data(withJSONObject: section, options: [.fragmentsAllowed, .sortedKeys])
        }
        self.sections = sections
    }
}
