/// Helpers for BCP 47 language tags such as `zh-Hans-CN`.
package enum LanguageTag {
    /// The tag and its shorter forms, most specific first: `zh-Hans-CN`, `zh-Hans`, `zh`.
    /// Underscores are read as hyphens (`pt_PT`); an empty tag gives none.
    package static func fallbacks(of tag: String) -> [String] {
        var parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard !parts.isEmpty else { return [] }
        parts[0] = parts[0].lowercased()
        var result: [String] = []
        while !parts.isEmpty {
            result.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        return result
    }

    /// The language subtag, lowercased: `zh` of `zh-Hans-CN`; empty for an empty tag.
    package static func primary(of tag: String) -> String {
        fallbacks(of: tag).last ?? ""
    }

    /// Languages written right to left (by their primary subtag), and the scripts that are.
    package static func isRightToLeft(_ tag: String) -> Bool {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let language = parts.first else { return false }
        if parts.contains(where: { ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg"].contains($0) }) { return true }
        if parts.contains(where: { ["latn", "cyrl"].contains($0) }) { return false }
        return ["ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb", "syr", "ks"].contains(language)
    }
}
