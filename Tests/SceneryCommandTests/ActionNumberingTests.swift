import Scenery
import Testing

@testable import SceneryTool

/// A number typed into `interact` or `connect` is the action printed with it, even after a
/// change printed elsewhere moved the numbering of the page's actions.
@Suite struct ActionNumberingTests {
    static func button(_ id: NodeID) -> ViewNode {
        .button(id, title: id.rawValue, sends: EventDescriptor("tap"))
    }

    @Test func aNumberTypedIsTheActionPrintedWithIt() {
        let before = ViewNode.stack("page", [Self.button("follow"), Self.button("like")])
        var numbering = InteractCommand.printActions(of: before, in: before)
        #expect(numbering.numbers == [1: "follow", 2: "like"])
        // A module above gained an action; only it is printed again, numbered anew.
        let after = ViewNode.stack("page", [.stack("notice", [Self.button("refresh")]), Self.button("follow"), Self.button("like")])
        numbering.merge(InteractCommand.printActions(of: after.children[0], in: after))
        #expect(numbering.numbers == [1: "refresh", 2: "like"])
        // "2" is what the person saw printed last with 2; counting the page's actions would say "follow".
        #expect(InteractCommand.action(for: "2", in: after.actions, numbering: numbering)?.id == "like")
        #expect(InteractCommand.action(for: "2", in: after.actions, numbering: nil)?.id == "follow")
        #expect(InteractCommand.action(for: "like", in: after.actions, numbering: numbering)?.id == "like")
        // A number never printed, or whose action is gone, is no action.
        #expect(InteractCommand.action(for: "9", in: after.actions, numbering: numbering) == nil)
        let gone = ViewNode.stack("page", [Self.button("refresh")])
        #expect(InteractCommand.action(for: "2", in: gone.actions, numbering: numbering) == nil)
    }
}
