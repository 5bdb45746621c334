import Scenery
import Synchronization
import Testing

@Suite struct SharedRenderingsTests {
    struct Row: Hashable, Sendable {
        var title: String
        var canEdit: Bool
    }

    @Test func anEqualInputIsRenderedOnceAndAnotherIsRenderedAgain() {
        let renderings = SharedRenderings<Row>()
        let renders = Atomic<Int>(0)
        func node(_ row: Row) -> ViewNode {
            renderings.node(for: row) {
                renders.add(1, ordering: .relaxed)
                return .text("row", row.title + (row.canEdit ? " (edit)" : ""))
            }
        }
        let first = node(Row(title: "Tea", canEdit: false))
        #expect(node(Row(title: "Tea", canEdit: false)) == first)
        #expect(renders.load(ordering: .relaxed) == 1, "the second page reuses the first one's rendering")
        #expect(node(Row(title: "Tea", canEdit: true)) == .text("row", "Tea (edit)"), "an input that differs in anything is rendered for itself")
        #expect(renders.load(ordering: .relaxed) == 2)
    }

    @Test func aFullTableStartsAgainEmpty() {
        let renderings = SharedRenderings<Int>(capacity: 3)
        for number in 0..<3 { _ = renderings.node(for: number) { .text("n", String(number)) } }
        #expect(renderings.count == 3)
        #expect(renderings.node(for: 7) { .text("n", "7") } == .text("n", "7"))
        #expect(renderings.count == 1, "the rendering that did not fit is the one kept")
    }

    @Test func aRenderingThatThrowsIsNotKept() {
        struct Failed: Error {}
        let renderings = SharedRenderings<Int>()
        #expect(throws: Failed.self) { try renderings.node(for: 1) { throw Failed() } }
        #expect(renderings.count == 0)
        #expect(renderings.node(for: 1) { .text("n", "1") } == .text("n", "1"))
    }
}
