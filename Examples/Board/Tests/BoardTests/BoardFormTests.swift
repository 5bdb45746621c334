import Board
import BoardStore
import Foundation
import Scenery
import SceneryTesting
import Testing

/// The board's form, as its owner types into it: checked, saved once, cleared; refused text
/// kept with what was wrong; offered to the owner alone.
@Suite(.timeLimit(.minutes(5))) struct BoardFormTests {
    static func harness(viewer: String?, store: SQLiteBoardStore) throws -> ModuleHarness<TaskListModule> {
        try ModuleHarness(TaskListModule.self, parameters: ["owner": "1", "order": "oldest"], viewer: viewer, id: "tasks") {
            try TaskListModule(parameters: $0, context: $1, board: store)
        }
    }

    @Test func theOwnerTypesATaskSubmitsItAndTheFormClears() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let harness = try Self.harness(viewer: "1", store: store)
        try await harness.load { try RenderExpectation.hasNode("new.title").verify($0) }
        try await harness.type("  Send the invitations ", into: "new.title")
        #expect(try await harness.text(in: "new.title") == "  Send the invitations ")
        try await harness.submit("new") { tree in
            try RenderExpectation.shows("Send the invitations").verify(tree)
            try RenderExpectation.showsNoError(onField: "new.title").verify(tree)
        }
        try await harness.receiveEvent("task.add") { #expect($0.payload["title"] == "  Send the invitations ") }
        try await harness.receiveUpdate { try RenderExpectation.shows("Send the invitations").verify($0) }
        try harness.finish()
        #expect(try await harness.text(in: "new.title") == "", "saved: the field is empty again")
        #expect(try await store.tasks(on: "1").map(\.title).last == "Send the invitations", "stored without the spaces around it")
    }

    @Test func anEmptyTitleIsRefusedByTheHostAndAgainByTheModuleKeepingWhatWasTyped() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let harness = try Self.harness(viewer: "1", store: store)
        try await harness.load { _ in }
        try await harness.type("   ", into: "new.title")
        #expect(try await harness.problems(submitting: "new").fields == ["title": "Name the task first."], "the host would not send it")
        // A host that sends it anyway: the module checks again and says so on the field.
        try await harness.send(TaskListModule.add.event(.init(title: "   "), from: "tasks/new")) { tree in
            try RenderExpectation.showsError("Name the task first.", onField: "new.title").verify(tree)
        }
        try await harness.receiveEvent("task.add")
        try await harness.receiveUpdate { try RenderExpectation.showsError("Name the task first.", onField: "new.title").verify($0) }
        try harness.finish()
        #expect(try await harness.text(in: "new.title") == "   ", "what was typed is rendered back")
        #expect(try await store.tasks(on: "1").count == 3, "nothing stored")
    }

    @Test func aTitleShorterThanItsRuleIsRefusedInTheRulesWords() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let harness = try Self.harness(viewer: "1", store: store)
        try await harness.load { _ in }
        try await harness.type("ab", into: "new.title")
        #expect(try await harness.problems(submitting: "new").fields == ["title": "New task is 3 to 120 characters; it has 2."])
        try await harness.send(TaskListModule.add.event(.init(title: "ab"), from: "tasks/new")) { tree in
            try RenderExpectation.showsError("New task is 3 to 120 characters; it has 2.", onField: "new.title").verify(tree)
        }
        try await harness.receiveEvent("task.add")
        try await harness.receiveUpdate { _ in }
        try harness.finish()
    }

    @Test func aTitleLongerThanTheFieldTakesIsRefusedAndNothingIsStored() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let harness = try Self.harness(viewer: "1", store: store)
        try await harness.load { _ in }
        let long = String(repeating: "x", count: 121)
        try await harness.send(TaskListModule.add.event(.init(title: long), from: "tasks/new")) { tree in
            try RenderExpectation.showsError("New task is at most 120 characters; it has 121.", onField: "new.title").verify(tree)
        }
        try await harness.receiveEvent("task.add")
        try await harness.receiveUpdate { _ in }
        try harness.finish()
        #expect(try await store.tasks(on: "1").count == 3)
    }

    @Test func aSearchTypedIntoTheBoardFiltersThisPagesListAsItsViewerTypes() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let (grace, ada) = (try Self.harness(viewer: "2", store: store), try Self.harness(viewer: "1", store: store))
        try await grace.load { try RenderExpectation.hasNode("filter").verify($0) }
        try await ada.load { _ in }
        try await grace.type("ROOM", into: "filter")
        try await grace.change("filter") { tree in
            try RenderExpectation.shows("Book the room").verify(tree)
            try RenderExpectation.hides("Plan the offsite").verify(tree)
        }
        try await grace.receiveUpdate { try RenderExpectation.hides("Plan the offsite").verify($0) }
        try await grace.type("balloons", into: "filter")
        try await grace.change("filter") { try RenderExpectation.shows("No task matches “balloons”.").verify($0) }
        try await grace.receiveUpdate { _ in }
        try grace.finish()
        try RenderExpectation.shows("Plan the offsite").verify(await ada.render())
        #expect(try await store.tasks(on: "1").count == 3, "a search writes nothing")
    }

    @Test func onlyTheOwnerIsOfferedTheFormAndTheRouterRefusesOthersSubmits() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let member = try Self.harness(viewer: "2", store: store)
        try await member.load { try RenderExpectation.lacksNode("new").verify($0) }
        try await member.send(TaskListModule.add.event(.init(title: "Sneaky"), from: "tasks/new"))
        try await member.receiveEvent("task.add")
        try await member.receiveRefusal { #expect($0.contains("'owner'")) }
        try member.finish()
        await #expect(throws: DataError.notPermitted("Only the board's owner adds tasks.")) {
            _ = try await store.add(task: "Sneaky", to: "1", by: "2")
        }
        #expect(try await store.tasks(on: "1").map(\.title).contains("Sneaky") == false)
    }
}
