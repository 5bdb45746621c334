import Testing

@testable import Scenery

@Suite struct PagedListTests {
    struct Item: Identifiable, Sendable, Equatable {
        var id: Int
        var text = ""
    }

    func items(_ range: Range<Int>) -> [Item] { range.map { Item(id: $0) } }

    /// Begins a load that must have something to fetch.
    func begin(_ request: LoadRequest, on list: inout PagedList<Item>) throws -> PagedList<Item>.Fetch {
        let fetch = list.begin(request)
        return try #require(fetch)
    }

    @Test func pagesThroughAListAndStopsAtTheEnd() throws {
        var list = PagedList<Item>(pageSize: 3)
        let first = try begin(.initial, on: &list)
        #expect(list.state == .loading)
        #expect(first == PagedList<Item>.Fetch(offset: 0, limit: 3, replaces: true, showsIndicator: false, generation: 0))
        list.finish(first, items: items(0..<3), hasMore: true, total: 5)
        let next = try begin(.nextPage, on: &list)
        #expect(next.offset == 3 && next.showsIndicator)
        #expect(list.state == .paging(items(0..<3)), "the indicator shows while the page loads")
        #expect(list.begin(.nextPage) == nil, "one page at a time")
        list.finish(next, items: items(3..<5), hasMore: false)
        #expect(list.items == items(0..<5))
        #expect(list.total == 5, "kept when a page does not say")
        #expect(list.begin(.nextPage) == nil, "no page past the end")
        #expect(list.moreButton(title: "More", module: "m") == nil)
    }

    @Test func aPageOvertakenByARefreshIsIgnoredAndRepeatsAreLeftOut() throws {
        var list = PagedList<Item>(pageSize: 3)
        list.finish(try begin(.initial, on: &list), items: items(0..<3), hasMore: true)
        let page = try begin(.nextPage, on: &list)
        let refresh = try begin(.refresh, on: &list)
        list.finish(refresh, items: items(10..<13), hasMore: true)
        list.finish(page, items: items(3..<6), hasMore: true)
        #expect(list.items == items(10..<13), "the old page does not land on the new list")
        let next = try begin(.nextPage, on: &list)
        list.finish(next, items: [Item(id: 12), Item(id: 13)], hasMore: true)
        #expect(list.items.map(\.id) == [10, 11, 12, 13], "a row that shifted into the next page is not shown twice")
    }

    @Test func aFailedPageKeepsTheRowsAndAFailedFirstLoadLeavesTheErrorToTheRuntime() throws {
        var list = PagedList<Item>(pageSize: 2)
        let first = try begin(.initial, on: &list)
        list.fail(first)
        #expect(list.state == .loading)
        list.finish(try begin(.initial, on: &list), items: items(0..<2), hasMore: true)
        list.fail(try begin(.nextPage, on: &list))
        #expect(list.state == .loaded(items(0..<2)))
    }

    @Test func aWindowFetchesFromTheLastLoadedRowToItsEndAndShowsOnlyItsRows() throws {
        var list = PagedList<Item>(pageSize: 10)
        list.finish(try begin(.initial, on: &list), items: items(0..<10), hasMore: true, total: 100)
        #expect(list.fetch(reaching: RowWindow(start: 0, count: 10)) == nil, "all here")
        let fetch = try #require(list.fetch(reaching: RowWindow(start: 40, count: 10)))
        #expect(fetch.offset == 10 && fetch.limit == 40 && !fetch.replaces)
        #expect(list.state == .loaded(items(0..<10)), "nothing changes until it finishes")
        list.finish(fetch, items: items(10..<50), hasMore: true)
        let section = list.section(id: "all", window: RowWindow(start: 40, count: 20)) { .text(NodeID("row.\($0.id)"), "\($0.id)") }
        #expect(section.rows.map(\.id) == (40..<50).map { NodeID("row.\($0)") }, "the rows held, not made up")
        #expect(section.firstRowIndex == 40 && section.totalRowCount == 100)
        #expect(list.moreButton(title: "More", module: "m", window: RowWindow(start: 0, count: 10)) == nil, "a window scrolls instead")
        #expect(list.moreButton(title: "More", module: "m")?.actions.first?.event.name == SceneEvents.loadMore)
    }

    @Test func replacingAnItemKeepsItsPlaceInEveryState() throws {
        var list = PagedList<Item>(pageSize: 3)
        list.replace(Item(id: 1, text: "x"))
        #expect(list.items.isEmpty)
        list.finish(try begin(.initial, on: &list), items: items(0..<3), hasMore: true)
        _ = list.begin(.nextPage)
        list.replace(Item(id: 1, text: "liked"))
        #expect(list.state == .paging([Item(id: 0), Item(id: 1, text: "liked"), Item(id: 2)]))
        #expect(list.item(withID: 1)?.text == "liked")
    }
}
