import Testing

@testable import Scenery

/// The runtime's own events are read and made in one place: an event made from a request
/// reads back as that request, with the names and payload keys scene files and pages use.
@Suite struct BuiltInEventTests {
    @Test(arguments: [
        Event.BuiltIn.retry("blogs"), .refresh("friends"), .loadMore("blogs"), .selectTab("drafts", inSwitch: "sections"),
    ])
    func aRuntimeEventReadsBackAsTheRequestItWasMadeFrom(request: Event.BuiltIn) {
        let event = Event(request, from: "blogs/more")
        #expect(event.builtIn == request)
        #expect(SceneEvents.isBuiltIn(event.name))
        #expect(EventDescriptor(request).name == event.name && EventDescriptor(request).payload == event.payload)
    }

    @Test func thePayloadKeepsTheNamesPagesAndSceneFilesUse() {
        #expect(Event(.loadMore("blogs"), from: "blogs/more").payload == ["module": "blogs"])
        #expect(Event(.selectTab("drafts", inSwitch: "sections"), from: "sections").payload == ["tabs": "sections", "tab": "drafts"])
        #expect(Event.BuiltIn.selectTab("drafts", inSwitch: "sections").name == "scenery.selectTab")
    }

    @Test func aModuleEventWithoutItsModuleIsAboutTheModuleOfItsSource() {
        #expect(Event(SceneEvents.retry, from: "friends/error").builtIn == .retry("friends"))
    }

    @Test func anEventThatIsNotTheRuntimesOrSaysTooLittleIsNoRequest() {
        #expect(Event("blog.like", from: "blogs/blog.1.like").builtIn == nil)
        #expect(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections"]).builtIn == nil, "no tab")
        #expect(Event("scenery.launch", from: "x").builtIn == nil)
    }
}
