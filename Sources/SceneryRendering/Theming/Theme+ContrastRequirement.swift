import ScenerySceneFiles
import SceneryViewTree

extension Theme {
    /// A pair of theme colours a page can show one on the other, and the contrast WCAG 2.x asks
    /// of it: 4.5:1 for text, 3:1 for large text and for what is not text (a control's outline,
    /// the focus ring).
    ///
    /// ``all`` lists every pair the stylesheets produce, in each state a control can be in;
    /// the validator checks each theme against them (``check(_:)``) and fails the build on a
    /// pair below its minimum.
    ///
    /// ```swift
    /// let low = Theme.ContrastRequirement.check(theme)   // the pairs that fail
    /// ```
    package struct ContrastRequirement: Sendable, Hashable, CustomStringConvertible {
        /// What is drawn in the foreground colour.
        package enum Kind: Sendable, Hashable {
            /// Text below 24 px (19 px bold): 4.5:1.
            case text
            /// Text of 24 px and more (19 px bold): 3:1.
            case largeText
            /// An outline, an icon, the focus ring: 3:1.
            case nonText

            /// The lowest contrast ratio WCAG 2.x (level AA) allows.
            package var minimumRatio: Double { self == .text ? 4.5 : 3 }
        }

        /// The state of what is drawn.
        package enum State: String, Sendable, Hashable, CaseIterable {
            /// At rest.
            case normal
            /// A control being pressed.
            case pressed
            /// A disabled control (WCAG exempts it; Scenery still asks 3:1 so it can be read).
            case disabled
            /// A failure, a status line or a form error.
            case error
        }

        /// The colour drawn.
        package var foreground: ThemeColor
        /// The colour behind it.
        package var background: ThemeColor
        /// What is drawn.
        package var kind: Kind
        /// The state it is drawn in.
        package var state: State
        /// Where a page shows the pair, for the message.
        package var use: String

        /// A requirement.
        package init(_ foreground: ThemeColor, on background: ThemeColor, kind: Kind = .text, state: State = .normal, use: String) {
            self.foreground = foreground
            self.background = background
            self.kind = kind
            self.state = state
            self.use = use
        }

        package var description: String {
            "\(foreground.tokenPath) on \(background.tokenPath) (\(use), \(state.rawValue))"
        }

        /// The lowest ratio the pair may have.
        package var minimumRatio: Double {
            state == .disabled ? Theme.ContrastRequirement.Kind.nonText.minimumRatio : kind.minimumRatio
        }

        /// The pair's contrast in a theme; `nil` when the theme lacks one of its colours.
        package func ratio(in theme: Theme) -> Double? {
            guard let top = theme.colors[foreground], let bottom = theme.colors[background] else { return nil }
            // A translucent background lies on the page's surface.
            let backdrop = theme.colors[.surface].map { bottom.composited(over: $0) } ?? bottom
            return top.contrastRatio(with: backdrop)
        }

        /// Every pair the page and scene stylesheets draw.
        package static let all: [Theme.ContrastRequirement] = [
            .init(.text, on: .surface, use: "page text"),
            .init(.text, on: .surfaceRaised, use: "text in a card"),
            .init(.textMuted, on: .surface, use: "notes on the page"),
            .init(.textMuted, on: .surfaceRaised, use: "captions and section headers"),
            .init(.accent, on: .surface, use: "links on the page"),
            .init(.accent, on: .surfaceRaised, use: "links in a card"),
            .init(.accent, on: .surfaceRaised, kind: .nonText, use: "the focus ring"),
            .init(.text, on: .control, use: "a button's title"),
            .init(.controlBorder, on: .surfaceRaised, kind: .nonText, use: "a button's outline"),
            .init(.onAccent, on: .accent, use: "a primary button's title"),
            .init(.danger, on: .control, use: "a destructive button's title"),
            .init(.onDanger, on: .danger, use: "a dangerous button's title"),
            .init(.onSelected, on: .selected, use: "the selected tab"),
            .init(.onAvatar, on: .avatar, use: "initials on an avatar"),
            .init(.text, on: .highlight, use: "a value that just changed"),
            .init(.text, on: .controlPressed, state: .pressed, use: "a pressed button's title"),
            .init(.danger, on: .controlPressed, state: .pressed, use: "a pressed destructive button's title"),
            .init(.textDisabled, on: .control, state: .disabled, use: "a disabled button's title"),
            .init(.danger, on: .surfaceRaised, state: .error, use: "a module's failure and a form's error"),
            .init(.dangerText, on: .dangerSurface, state: .error, use: "a status line"),
            .init(.text, on: .dangerSurface, state: .error, use: "the error panel"),
        ]

        /// The requirements a theme fails, with their ratios, in ``all``'s order.
        package static func check(_ theme: Theme) -> [(requirement: Theme.ContrastRequirement, ratio: Double)] {
            all.compactMap { requirement in
                guard let ratio = requirement.ratio(in: theme), ratio < requirement.minimumRatio else { return nil }
                return (requirement, ratio)
            }
        }
    }
}
