/// A semantic colour of a theme: what a colour is for, never the colour itself.
///
/// Every colour a page shows is one of these; a theme file (`Theme`) gives each a value
/// under `color` (`color.surface`, `color.on-accent`, …), and the stylesheets refer only to
/// them, as CSS custom properties (`var(--scenery-color-surface)`). The validator checks the
/// pairs a page can put one on the other (`Theme.ContrastRequirement`).
///
/// ```swift
/// ThemeColor.onAccent.tokenPath      // "color.on-accent"
/// ThemeColor.onAccent.cssVariable    // "--scenery-color-on-accent"
/// ```
package enum ThemeColor: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The page behind everything.
    case surface
    /// A module's card, raised on the surface.
    case surfaceRaised = "surface-raised"
    /// Body text.
    case text
    /// Captions, section headers and other secondary text.
    case textMuted = "text-muted"
    /// Text of a disabled control.
    case textDisabled = "text-disabled"
    /// The lines around cards (decorative).
    case border
    /// The lines between rows (decorative).
    case divider
    /// Links, primary buttons and the focus ring.
    case accent
    /// Text on the accent colour.
    case onAccent = "on-accent"
    /// Destructive controls, failures and errors.
    case danger
    /// Text on the danger colour.
    case onDanger = "on-danger"
    /// The background of a status line and the error panel.
    case dangerSurface = "danger-surface"
    /// Text of a status line.
    case dangerText = "danger-text"
    /// A button's background.
    case control
    /// A button's background while it is pressed.
    case controlPressed = "control-pressed"
    /// A button's outline.
    case controlBorder = "control-border"
    /// The selected tab.
    case selected
    /// Text on the selected tab.
    case onSelected = "on-selected"
    /// An avatar with initials.
    case avatar
    /// Initials on an avatar.
    case onAvatar = "on-avatar"
    /// The flash behind a value that just changed.
    case highlight

    /// The token's path in a theme file: `color.` and the raw value.
    package var tokenPath: String { "color." + rawValue }

    /// The CSS custom property the stylesheets use for it.
    package var cssVariable: String { "--scenery-color-" + rawValue }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
