/// How a module's content moves when an update changes it, as its scene file declares:
/// rows that appear or disappear, rows that move, content that changes. A host plays them
/// from the update's patches, the viewer's own changes and other people's alike, and plays
/// none when the person asked for reduced motion. A module without them does not move.
///
/// ```json
/// { "id": "blogs", "type": "BlogModule", "params": { "author": "$user" },
///   "transitions": { "appear": "fade", "disappear": "fade", "move": "slide", "change": "highlight" } }
/// ```
package struct Transitions: Sendable, Hashable {
    /// What happened to a part of the module.
    package enum Change: String, Sendable, Hashable, CaseIterable {
        /// A part was added (a new row).
        case appear
        /// A part was taken away.
        case disappear
        /// A part moved to another place (a reordered row).
        case move
        /// A part stayed and changed (a like count).
        case change
    }

    /// How it moves.
    package enum Effect: String, Sendable, Hashable, CaseIterable {
        /// Fades in or out.
        case fade
        /// Slides into or out of its place.
        case slide
        /// Flashes a background that fades, drawing the eye to what changed.
        case highlight
    }

    /// The effect of each change that moves; a change not named does not move.
    package private(set) var effects: [Change: Effect] = [:]

    /// No effect for any change.
    package init() {}

    /// The effects asked for; an effect a change does not take (``allows(_:for:)``) is left out.
    package init(_ effects: [Change: Effect]) {
        for (change, effect) in effects where Self.allows(effect, for: change) { self.effects[change] = effect }
    }

    /// The effect of a change, if it moves.
    package func effect(for change: Change) -> Effect? { effects[change] }

    /// The effects a change takes: appearing and disappearing fade or slide, a move slides,
    /// a change is highlighted or fades.
    package static func effects(for change: Change) -> [Effect] {
        switch change {
        case .appear, .disappear: [.fade, .slide]
        case .move: [.slide]
        case .change: [.highlight, .fade]
        }
    }

    /// Whether `change` takes `effect`.
    package static func allows(_ effect: Effect, for change: Change) -> Bool { effects(for: change).contains(effect) }
}
