/// The rows of a long list a host shows (plus a margin): a working range, as IGListKit calls
/// it. A module that honours it renders only these rows, so work and memory do not grow
/// with rows never shown.
///
/// ```swift
/// await scene.setWindow(RowWindow(start: 200, count: 50), for: "blogs")
/// ```
public struct RowWindow: Sendable, Hashable, Codable {
    /// The index of the first row to render.
    public var start: Int
    /// How many rows to render.
    public var count: Int

    public init(start: Int, count: Int) {
        self.start = max(0, start)
        self.count = max(0, count)
    }

    /// The indices of a list of `total` rows that fall in the window.
    public func range(in total: Int) -> Range<Int> {
        let lower = min(start, total)
        return lower..<min(total, lower + count)
    }
}

extension ViewNode.Section {
    /// A section of a long list holding only the rows in `window`, with the list's full
    /// size recorded so a host can size its scrolling.
    ///
    /// A module that fetches a list from the top as windows reach further passes how many
    /// rows it holds as `available`: rows past them are left out (a fetch that failed), and
    /// `row` is never asked for them.
    ///
    /// ```swift
    /// .windowed(id: "all", header: "Blogs", total: 10_000, available: blogs.count, window: window) { index in row(blogs[index]) }
    /// ```
    public static func windowed(
        id: NodeID, header: String? = nil, footer: String? = nil, total: Int, available: Int? = nil, window: RowWindow?, row: (Int) -> ViewNode
    ) -> ViewNode.Section {
        let held = min(total, available ?? total)
        let range = window?.range(in: held) ?? 0..<held
        var section = ViewNode.Section(id: id, header: header, footer: footer, rows: range.map(row))
        if window != nil {
            section.firstRowIndex = range.lowerBound
            section.totalRowCount = total
        }
        return section
    }
}
