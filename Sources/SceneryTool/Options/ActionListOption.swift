import ArgumentParser

/// `--actions`: how `interact` and `connect` list a scene's actions. Compact by default, so
/// that a page of sixty actions takes a few lines under the scene instead of scrolling it
/// away; `ids` lists one action a line with its control's id (what a script types).
struct ActionListOption: ParsableArguments {
    /// A way of listing actions.
    enum Style: String, ExpressibleByArgument, CaseIterable {
        /// Numbers and short titles, packed to the width, one group of lines per module.
        case compact
        /// One action a line: its number, its title and its control's id.
        case ids
    }

    @Option(
        name: .customLong("actions"),
        help:
            "How actions are listed: compact (numbers and titles, packed by module) or ids (one a line, with each control's id). The command 'ids' lists them with their ids once."
    )
    var style: Style = .compact
}
