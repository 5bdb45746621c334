extension JSONValue {
    /// The value with its long texts cut (to `longestText` characters and an ellipsis) and
    /// its objects and arrays to their first `mostEntries` entries (an object's by key), at
    /// every depth: what a log or a development tool keeps of a payload or a module's state,
    /// bounded whatever the value holds.
    package func abridged(longestText: Int, mostEntries: Int) -> JSONValue {
        switch self {
        case .string(let text) where text.count > longestText: .string(text.prefix(longestText) + "…")
        case .array(let values): .array(values.prefix(mostEntries).map { $0.abridged(longestText: longestText, mostEntries: mostEntries) })
        case .object(let entries):
            .object(
                Dictionary(
                    uniqueKeysWithValues: entries.sorted { $0.key < $1.key }.prefix(mostEntries).map {
                        ($0.key, $0.value.abridged(longestText: longestText, mostEntries: mostEntries))
                    }))
        default: self
        }
    }
}
