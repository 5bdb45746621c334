import ScenerySceneFiles

/// A theme: the values of the semantic colours and sizes (`ThemeColor`,
/// `ThemeDimension`) a page is drawn with, read from a W3C Design Tokens file
/// (DTCG format 2025.10) named `<name>.tokens.json` beside the scenes.
///
/// ```json
/// { "palette": { "$type": "color",
///                "blue-700": { "$value": { "colorSpace": "srgb", "components": [0, 0.345, 0.816], "hex": "#0058d0" } } },
///   "color": { "$type": "color",
///              "accent": { "$value": "{palette.blue-700}", "$description": "Links and primary buttons." } },
///   "spacing": { "$type": "dimension", "medium": { "$value": { "value": 8, "unit": "px" } } } }
/// ```
///
/// A theme must give every semantic token; raw colours stay in its own groups (a palette)
/// and reach pages only through the semantic tokens that alias them. The validator
/// (``SceneRegistry/themeDiagnostics``) reports a file that does not parse, an alias to a
/// missing token or in a cycle, and every pair of colours a page can show one on the other
/// whose contrast is below WCAG's minimum (`Theme.ContrastRequirement`).
///
/// The themes named `light`, `dark` and `high-contrast` follow the browser's
/// `prefers-color-scheme` and `prefers-contrast`; any theme can be chosen by name
/// (``SceneRegistry/themeStylesheet``).
package struct Theme: Sendable, Hashable {
    /// The theme's name: its file's name without `.tokens.json`.
    package let name: String
    /// The file it was read from, as diagnostics name it (empty for ``standard``).
    package let file: String
    /// The value of every semantic colour.
    package internal(set) var colors: [ThemeColor: Color]
    /// The value of every semantic size.
    package internal(set) var dimensions: [ThemeDimension: Dimension]
    /// Where each token's value is written, by token path, for diagnostics.
    package var locations: [String: SourcePosition] = [:]

    /// A theme from its values (every `ThemeColor` and `ThemeDimension` should have one).
    package init(name: String, colors: [ThemeColor: Color], dimensions: [ThemeDimension: Dimension]) {
        self.init(name: name, file: "", colors: colors, dimensions: dimensions)
    }

    package init(name: String, file: String, colors: [ThemeColor: Color], dimensions: [ThemeDimension: Dimension]) {
        self.name = name
        self.file = file
        self.colors = colors
        self.dimensions = dimensions
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.colors == rhs.colors && lhs.dimensions == rhs.dimensions
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(colors)
    }

    /// Whether a file holds a theme: `<name>.tokens.json`.
    package static func isThemeFile(_ name: String) -> Bool {
        name.hasSuffix(".tokens.json") && name.count > ".tokens.json".count
    }

    /// The theme name of a theme file's name.
    package static func name(ofFileNamed file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return String(base.dropLast(".tokens.json".count))
    }

    /// Whether the theme is dark: its surface is darker than mid-grey. A dark theme tells the
    /// browser so (`color-scheme: dark`), for scroll bars and form controls.
    package var isDark: Bool {
        (colors[.surface]?.relativeLuminance ?? 1) < 0.18
    }

    /// The token's value as CSS custom properties, `--scenery-color-surface:#fafafa;…`,
    /// sorted by name.
    package var cssDeclarations: String {
        var declarations = isDark ? "color-scheme:dark;" : "color-scheme:light;"
        for color in ThemeColor.allCases {
            if let value = colors[color] { declarations += "\(color.cssVariable):\(value.css);" }
        }
        for dimension in ThemeDimension.allCases {
            if let value = dimensions[dimension] { declarations += "\(dimension.cssVariable):\(value.css);" }
        }
        return declarations
    }
}
