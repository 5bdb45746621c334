import Testing

@testable import Scenery

/// The inspector's trace of a page (``PageTrace``): what each event took and wrote, what was
/// written between events, and its bounds.
@Suite struct PageTraceTests {
    let start = ContinuousClock.now

    func patch(_ module: ModuleID, node: NodeID, operations: Int = 2, bytes: Int = 100) -> PageTrace.Patch {
        PageTrace.Patch(module: module, node: node, operations: operations, bytes: bytes)
    }

    @Test func anEventsLineHasItsRouteItsTimeAndThePatchesWrittenWhileItRan() {
        var trace = PageTrace()
        trace.beginEvent(at: start)
        trace.record(patch("blogs", node: "blogs/blog.26", operations: 3, bytes: 214), at: start + .microseconds(180))
        trace.record(patch("info", node: "info", operations: 1, bytes: 40), at: start + .microseconds(300))
        trace.endEvent("blog.like from blogs/blog.26.like: module blogs: handled (handled by module blogs)", at: start + .microseconds(412))
        #expect(
            trace.lines == [
                "blog.like from blogs/blog.26.like: module blogs: handled (handled by module blogs) · 412 µs"
                    + " · patches: blogs (blogs/blog.26) 3 ops 214 B +180 µs, info 1 op 40 B +300 µs"
            ])
    }

    @Test func anUpdateWhileNoEventRunsIsALineOfItsOwn() {
        var trace = PageTrace()
        trace.record(patch("friends", node: "friends/user.3"), at: start)
        trace.beginEvent(at: start)
        trace.endEvent("tab.select from tabs: scene: selected tab blogs (handled by scene)", at: start + .milliseconds(2))
        #expect(
            trace.lines == [
                "update: friends (friends/user.3) 2 ops 100 B",
                "tab.select from tabs: scene: selected tab blogs (handled by scene) · 2000 µs · no patches",
            ])
    }

    @Test func anEventRefusedBeforeItRanLeavesNoLine() {
        var trace = PageTrace()
        trace.beginEvent(at: start)
        trace.endEvent(nil, at: start + .microseconds(5))
        trace.record(patch("blogs", node: "blogs"), at: start + .microseconds(9))
        #expect(trace.lines == ["update: blogs 2 ops 100 B"], "the refused event's time is over: a later write is an update")
    }

    @Test func anEventThatWroteManyPatchesNamesAFewAndCountsTheRest() throws {
        var trace = PageTrace()
        trace.beginEvent(at: start)
        for row in 0..<20 { trace.record(patch("list", node: NodeID("list/row.\(row)")), at: start) }
        trace.endEvent("list.refresh from list: module list: handled (handled by module list)", at: start)
        let line = try #require(trace.lines.first)
        #expect(line.contains("list (list/row.7) 2 ops 100 B +0 µs, and 12 more"), "\(trace.lines)")
        #expect(!line.contains("list/row.8"))
    }

    @Test func theTraceIsBoundedInLinesAndBytesAndKeepsTheNewest() {
        var trace = PageTrace()
        for number in 0..<500 { trace.record(patch(ModuleID("m\(number)"), node: NodeID("m\(number)")), at: start) }
        #expect(trace.lines.count == PageTrace.mostEntries)
        #expect(trace.lines.last == "update: m499 2 ops 100 B")
        var wide = PageTrace()
        for number in 0..<200 {
            wide.beginEvent(at: start)
            wide.endEvent(String(repeating: "r", count: 2_000) + "\(number)", at: start)
        }
        #expect(wide.byteCount <= PageTrace.mostBytes)
        #expect(wide.lines.allSatisfy { $0.count <= PageTrace.longestLine + 1 }, "each line cut")
        #expect(wide.lines.count == PageTrace.mostBytes / (PageTrace.longestLine + 3), "as many cut lines as fit (600 characters and an ellipsis of 3 bytes)")
    }
}
