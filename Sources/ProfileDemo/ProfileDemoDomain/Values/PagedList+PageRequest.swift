import Scenery

extension PagedList {
    /// What to ask a service for `fetch`: the items after the last one held (keyset, with
    /// `cursor`) when it appends right after them, so that items added before them meanwhile
    /// repeat none; by position otherwise (a first page, a refresh, a window further on).
    ///
    /// ```swift
    /// let request = list.pageRequest(for: fetch, after: PageCursor.blogs(after:))
    /// ```
    public func pageRequest(for fetch: Fetch, after cursor: (Item) -> PageCursor) -> PageRequest {
        let held = items
        let after = !fetch.replaces && fetch.offset == held.count ? held.last.map(cursor) : nil
        return PageRequest(offset: fetch.offset, limit: fetch.limit, after: after)
    }
}
