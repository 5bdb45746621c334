import Foundation

extension SceneRegistry {
    // MARK: Themes

    /// The registry's themes (`Theme`), sorted by name.
    package var themes: [Theme] { themesByName.keys.sorted().compactMap { themesByName[$0] } }

    /// The theme of a name, if the registry has it.
    package func theme(named name: String) -> Theme? { themesByName[name] }

    /// The theme files of a directory (`*.tokens.json`), sorted by name.
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/unreadableFile`` if the directory
    ///   cannot be listed.
    public static func themeFiles(in directory: URL) throws(SceneryError) -> [URL] {
        try files(in: directory, where: Theme.isThemeFile)
    }

    /// Reads theme files (`<name>.tokens.json`, DTCG format); a later theme of a name
    /// replaces an earlier one. Returns the problems of reading them; their contrast is
    /// checked by ``themeDiagnostics``.
    ///
    /// A file is read as a scene file is (``addScenes(files:displayRoot:)``).
    @discardableResult
    public mutating func addThemes(files: [URL], displayRoot: URL? = nil) -> [Diagnostic] {
        addFiles(files, displayRoot: displayRoot, kind: "theme file", problems: \.readProblems.themes) { $0.addTheme(bytes: $1, file: $2) }
    }

    /// Adds (or replaces) a theme from its file's text; returns the problems of reading it.
    ///
    /// ```swift
    /// registry.addTheme(source: try String(contentsOf: url, encoding: .utf8), file: "Scenes/dark.tokens.json")
    /// ```
    @discardableResult
    public mutating func addTheme(source: String, file: String) -> [Diagnostic] {
        addTheme(bytes: Array(source.utf8), file: file)
    }

    /// Adds (or replaces) a theme already read, such as the last good version of one whose
    /// file now has errors.
    package mutating func addTheme(_ theme: Theme) {
        themesByName[theme.name] = theme
    }

    private mutating func addTheme(bytes: [UInt8], file: String) -> [Diagnostic] {
        let (theme, problems) = Theme.read(bytes: bytes, file: file)
        readProblems.themes[file] = problems.isEmpty ? nil : problems
        // A theme that lacks tokens or does not parse is not used: pages keep the last good one.
        if let theme, !problems.containsErrors { themesByName[theme.name] = theme }
        return problems
    }

    /// Every problem of the themes: reading them (syntax, tokens missing or of the wrong type,
    /// alias cycles), and each pair of colours a page can show whose contrast is below WCAG's
    /// minimum (`Theme.ContrastRequirement`), at the foreground token's place.
    public var themeDiagnostics: [Diagnostic] {
        let read = readProblems.themes.keys.sorted().flatMap { readProblems.themes[$0] ?? [] }
        return read
            + themes.flatMap { theme in
                Theme.ContrastRequirement.check(theme).map { failure in
                    let requirement = failure.requirement
                    let ratio = (failure.ratio * 100).rounded(.down) / 100
                    return Diagnostic(
                        .error,
                        "In the theme \(theme.name.quoted), \(requirement.foreground.tokenPath.quoted) on \(requirement.background.tokenPath.quoted) (\(requirement.use), \(requirement.state.rawValue)) has a contrast of \(ratio):1, below the \(requirement.minimumRatio.formatted()):1 WCAG 2.x asks; darken or lighten one of them.",
                        file: theme.file, location: theme.locations[requirement.foreground.tokenPath], path: requirement.foreground.tokenPath)
                }
            }
    }

    /// The CSS that gives a page its theme: the `light` theme (else `Theme.standard`) at
    /// the root; `dark` and `high-contrast` when the browser prefers them
    /// (`prefers-color-scheme: dark`, `prefers-contrast: more`) and no theme is chosen; and
    /// every theme when chosen by name (`<html data-theme="dark">`).
    public var themeStylesheet: String {
        var css = ":root{\(theme(named: "light")?.cssDeclarations ?? Theme.standard.cssDeclarations)}"
        if let dark = theme(named: "dark") {
            css += "@media (prefers-color-scheme:dark){:root:not([data-theme]){\(dark.cssDeclarations)}}"
        }
        if let contrast = theme(named: "high-contrast") {
            css += "@media (prefers-contrast:more){:root:not([data-theme]){\(contrast.cssDeclarations)}}"
        }
        for theme in themes {
            css += ":root[data-theme=\"\(theme.name)\"]{\(theme.cssDeclarations)}"
        }
        return css
    }
}
