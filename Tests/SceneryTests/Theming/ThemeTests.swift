import Foundation
import Testing

@testable import Scenery

/// A theme is a W3C Design Tokens file of semantic tokens: read with aliases and inherited
/// types, refused with file:line:col when it is malformed, lacks a token or loops, and
/// checked for WCAG contrast on every pair of colours a page can show.
@Suite struct ThemeTests {
    /// A whole theme in DTCG format: the standard colours through a palette, with `overrides`
    /// (semantic colour → value text) written over them.
    static func themeFile(_ overrides: [ThemeColor: String] = [:], dropping dropped: Set<ThemeColor> = []) -> String {
        var colors: [String] = []
        for color in ThemeColor.allCases where !dropped.contains(color) {
            let value = overrides[color] ?? "\"{palette.\(color.rawValue)}\""
            colors.append("    \"\(color.rawValue)\": { \"$value\": \(value) }")
        }
        let palette = ThemeColor.allCases.map { color in
            let hex = Theme.standard.colors[color]!.hex
            return "    \"\(color.rawValue)\": { \"$value\": \"\(hex)\" }"
        }
        return """
            {
              "palette": {
                "$type": "color",
            \(palette.joined(separator: ",\n"))
              },
              "color": {
                "$type": "color",
            \(colors.joined(separator: ",\n"))
              },
              "spacing": { "$type": "dimension",
                "small": { "$value": { "value": 4, "unit": "px" } }, "medium": { "$value": { "value": 8, "unit": "px" } },
                "large": { "$value": { "value": 1, "unit": "rem" } } },
              "radius": { "$type": "dimension", "small": { "$value": { "value": 6, "unit": "px" } }, "medium": { "$value": "{spacing.large}" } },
              "font": { "size": { "$type": "dimension",
                "caption": { "$value": { "value": 13, "unit": "px" } }, "body": { "$value": { "value": 15, "unit": "px" } },
                "heading": { "$value": { "value": 16, "unit": "px" } }, "title": { "$value": { "value": 20, "unit": "px" } },
                "display": { "$value": { "value": 26, "unit": "px" } } } }
            }
            """
    }

    static func lineOf(_ needle: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    @Test func contrastFollowsWCAG() throws {
        let black = try #require(Theme.Color(hex: "#000"))
        let white = try #require(Theme.Color(hex: "#ffffff"))
        #expect(black.contrastRatio(with: white) == 21)
        #expect(white.contrastRatio(with: white) == 1)
        // #767676 is the lightest grey that passes 4.5:1 on white; #777777 fails.
        #expect(try #require(Theme.Color(hex: "#767676")).contrastRatio(with: white) >= 4.5)
        #expect(try #require(Theme.Color(hex: "#777777")).contrastRatio(with: white) < 4.5)
        // Half-transparent black on white is mid grey.
        let veil = try #require(Theme.Color(hex: "#00000080"))
        #expect(abs(veil.contrastRatio(with: white) - 4.0) < 0.01)
        #expect(Theme.Color(hex: "#12345") == nil)
        #expect(Theme.Color(hex: "123456") == nil)
    }

    @Test func aThemeFileIsReadWithAliasesAndInheritedTypes() {
        var registry = SceneRegistry()
        let problems = registry.addTheme(
            source: Self.themeFile([.accent: #"{ "colorSpace": "srgb", "components": [0, 0.5, 0] }"#]), file: "Scenes/green.tokens.json")
        #expect(problems.isEmpty, "\(problems)")
        let theme = registry.theme(named: "green")
        #expect(theme?.colors[.accent]?.hex == "#008000")
        #expect(theme?.colors[.text]?.hex == "#1d1d1f")
        // An alias of a dimension, and a unit other than px.
        #expect(theme?.dimensions[.radiusMedium]?.css == "1rem")
        #expect(theme?.cssDeclarations.contains("--scenery-color-accent:#008000;") == true)
        #expect(registry.themes.map(\.name) == ["green"])
    }

    @Test func aMissingSemanticTokenIsAnErrorThatNamesIt() {
        var registry = SceneRegistry()
        let problems = registry.addTheme(source: Self.themeFile(dropping: [.onAccent]), file: "Scenes/partial.tokens.json")
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("no token 'color.on-accent'") == true, "\(problems)")
        // A theme that lacks a token is not used.
        #expect(registry.theme(named: "partial") == nil)
    }

    @Test func anAliasCycleIsAnErrorNamingTheCycle() {
        let source = Self.themeFile([.text: #""{color.text-muted}""#, .textMuted: #""{color.text}""#])
        var registry = SceneRegistry()
        let problems = registry.addTheme(source: source, file: "Scenes/loop.tokens.json")
        let cycle = problems.filter { $0.message.contains("cycle") }
        #expect(cycle.count == 1, "\(problems)")
        #expect(cycle.first?.message.contains("color.text → color.text-muted → color.text") == true, "\(problems)")
        #expect(cycle.first?.location?.line == Self.lineOf(#""text": { "$value": "{color.text-muted}""#, in: source))
        #expect(registry.theme(named: "loop") == nil)
    }

    @Test func anAliasToNothingIsAnError() {
        let source = Self.themeFile([.danger: #""{palette.crimson}""#])
        var registry = SceneRegistry()
        let problems = registry.addTheme(source: source, file: "Scenes/typo.tokens.json")
        #expect(
            problems.map(\.description).contains {
                $0.contains("typo.tokens.json:\(Self.lineOf("crimson", in: source)):") && $0.contains("'{palette.crimson}' names no token")
            }, "\(problems)")
    }

    @Test(arguments: [
        (##"{ "color": { "surface": { "$value": "#fff" "##, 1, "Fix the JSON"),
        (##"{ "color": { "$type": "colour", "surface": { "$value": "#fff" } } }"##, 1, "\"$type\" must be one of the DTCG types"),
        (#"{ "color": { "$type": "color", "surface": { "$value": "white" } } }"#, 1, "'white' is not a colour"),
        (
            "{\n \"color\": { \"$type\": \"color\",\n  \"surface\": { \"$value\": { \"colorSpace\": \"srgb\", \"components\": [1, 1, 1], \"hex\": \"#000000\" } } } }",
            3, "\"hex\" says #000000"
        ),
        (#"{ "spacing": { "$type": "dimension", "small": { "$value": { "value": 4, "unit": "em" } } } }"#, 1, "\"unit\" is \"px\" or \"rem\""),
        (#"{ "color": { "$vlaue": 1 } }"#, 1, "'$vlaue' is not a DTCG property"),
    ])
    func aMalformedThemeFileIsAnErrorWithItsPlace(_ source: String, line: Int, message: String) {
        var registry = SceneRegistry()
        let problems = registry.addTheme(source: source, file: "Scenes/broken.tokens.json")
        let match = problems.first { $0.message.contains(message) }
        #expect(match != nil, "\(problems)")
        #expect(match?.location?.line == line, "\(problems)")
        #expect(match?.file == "Scenes/broken.tokens.json")
    }

    @Test func aPairBelowTheContrastWCAGAsksIsAnErrorAtTheForegroundToken() {
        // Pale grey text: fails on the surface and on cards; the error names the pair.
        let source = Self.themeFile([.textMuted: ##""#aaaaaa""##])
        var registry = SceneRegistry()
        #expect(registry.addTheme(source: source, file: "Scenes/pale.tokens.json").isEmpty)
        let problems = registry.themeDiagnostics
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.allSatisfy { $0.severity == .error && $0.path == "color.text-muted" })
        #expect(problems.first?.location?.line == Self.lineOf(##""text-muted": { "$value": "#aaaaaa""##, in: source))
        #expect(
            problems.first?.message
                == "In the theme 'pale', 'color.text-muted' on 'color.surface' (notes on the page, normal) has a contrast of 2.22:1, below the 4.5:1 WCAG 2.x asks; darken or lighten one of them."
        )
        // A control's outline is not text: 3:1 is enough, and less is not.
        let faint = Self.themeFile([.controlBorder: ##""#e0e0e0""##])
        var second = SceneRegistry()
        second.addTheme(source: faint, file: "Scenes/faint.tokens.json")
        #expect(
            second.themeDiagnostics.map(\.message).contains {
                $0.contains("'color.control-border' on 'color.surface-raised' (a button's outline, normal)") && $0.contains("below the 3:1")
            })
    }

    @Test func theBundledThemesPassAndLightIsTheStandard() throws {
        var registry = SceneRegistry()
        let scenes = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Scenes")
        let problems = registry.addThemes(files: try SceneRegistry.themeFiles(in: scenes), displayRoot: scenes)
        #expect(problems.isEmpty, "\(problems)")
        #expect(registry.themes.map(\.name) == ["dark", "high-contrast", "light"])
        #expect(registry.themeDiagnostics.isEmpty, "\(registry.themeDiagnostics)")
        let light = try #require(registry.theme(named: "light"))
        for color in ThemeColor.allCases {
            #expect(light.colors[color]?.hex == Theme.standard.colors[color]?.hex, "\(color)")
        }
        #expect(light.dimensions == Theme.standard.dimensions)
        #expect(registry.theme(named: "dark")?.isDark == true)
        #expect(Theme.ContrastRequirement.check(Theme.standard).isEmpty)
        // The browser's preferences choose dark and high contrast unless a theme is chosen.
        let css = registry.themeStylesheet
        #expect(css.hasPrefix(":root{color-scheme:light;"))
        #expect(css.contains("@media (prefers-color-scheme:dark){:root:not([data-theme]){color-scheme:dark;"))
        #expect(css.contains("@media (prefers-contrast:more){:root:not([data-theme]){"))
        #expect(css.contains(":root[data-theme=\"high-contrast\"]{"))
    }

    @Test func everyVariableTheStylesheetsUseIsAToken() {
        let declared = Set(ThemeColor.allCases.map(\.cssVariable) + ThemeDimension.allCases.map(\.cssVariable))
        let used = Self.variables(in: HTMLRenderer.stylesheet)
        #expect(!used.isEmpty)
        #expect(used.subtracting(declared).isEmpty, "\(used.subtracting(declared))")
        // And no raw colour: the stylesheet draws only with semantic tokens.
        #expect(HTMLRenderer.stylesheet.range(of: "#[0-9a-fA-F]{3,8}\\b", options: .regularExpression) == nil)
    }

    static func variables(in css: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(css)
        while let start = rest.range(of: "var(") {
            let name = rest[start.upperBound...].prefix { $0 != ")" && $0 != "," }
            found.insert(String(name))
            rest = rest[start.upperBound...]
        }
        return found
    }
}
