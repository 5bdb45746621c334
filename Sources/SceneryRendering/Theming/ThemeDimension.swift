/// A semantic size of a theme: spacing, corner radius and the type scale.
///
/// A theme file (`Theme`) gives each under its path as a DTCG `dimension`
/// (`{ "value": 8, "unit": "px" }`); the stylesheets use them as CSS custom properties.
///
/// ```swift
/// ThemeDimension.fontSizeBody.tokenPath     // "font.size.body"
/// ThemeDimension.fontSizeBody.cssVariable   // "--scenery-font-size-body"
/// ```
package enum ThemeDimension: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Space between small things: a caption and its line, a control's padding.
    case spacingSmall = "spacing.small"
    /// Space between controls and rows.
    case spacingMedium = "spacing.medium"
    /// Space between cards and around the page.
    case spacingLarge = "spacing.large"
    /// The corners of controls.
    case radiusSmall = "radius.small"
    /// The corners of cards and dialogs.
    case radiusMedium = "radius.medium"
    /// Captions and section headers.
    case fontSizeCaption = "font.size.caption"
    /// Body text and controls.
    case fontSizeBody = "font.size.body"
    /// Headlines of rows (`h3`).
    case fontSizeHeading = "font.size.heading"
    /// Titles of modules (`h2`).
    case fontSizeTitle = "font.size.title"
    /// The page's title (`h1`).
    case fontSizeDisplay = "font.size.display"

    /// The token's path in a theme file.
    package var tokenPath: String { rawValue }

    /// The CSS custom property the stylesheets use for it.
    package var cssVariable: String { "--scenery-" + String(rawValue.map { $0 == "." ? "-" : $0 }) }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
