import Testing

@testable import Scenery

/// What a scene keeps of its modules' changes: the counts a rendering checks, and the
/// announcements that wait for a module's next update.
@Suite struct ModuleChangesTests {
    let blogs: ModuleID = "blogs"

    @Test func aCountMovesWithEachChangeOfItsModuleAlone() {
        var changes = ModuleChanges()
        let seen = changes.count(of: blogs)
        changes.changed(blogs)
        changes.changed("drafts")
        #expect(changes.count(of: blogs) == seen + 1, "a rendering that saw `seen` renders again")
        #expect(changes.count(of: "drafts") == 1)
        #expect(changes.count(of: "user") == 0)
    }

    @Test func announcementsWaitOnceEachTheNewestFewAndAreTakenOnce() {
        var changes = ModuleChanges()
        changes.announce("Alice liked “Tea”", for: blogs)
        changes.announce("Alice liked “Tea”", for: blogs)
        #expect(changes.takeAnnouncements(of: blogs) == ["Alice liked “Tea”"], "once")
        #expect(changes.takeAnnouncements(of: blogs) == nil, "taken")

        for number in 1...(ModuleChanges.keptAnnouncements + 2) { changes.announce("like \(number)", for: blogs) }
        let kept = changes.takeAnnouncements(of: blogs) ?? []
        #expect(kept.count == ModuleChanges.keptAnnouncements)
        #expect(kept.first == "like 3" && kept.last == "like \(ModuleChanges.keptAnnouncements + 2)", "the newest")
    }

    @Test func droppedAnnouncementsGoWithNoUpdate() {
        var changes = ModuleChanges()
        changes.announce("Bob followed you", for: "followers")
        changes.announce("Alice liked “Tea”", for: blogs)
        changes.dropAnnouncements(of: blogs)
        #expect(changes.takeAnnouncements(of: blogs) == nil)
        #expect(changes.takeAnnouncements(of: "followers") == ["Bob followed you"], "another module's wait")
    }
}

/// The work a scene runs under deadlines: leaving cancels what still runs.
@Suite struct WorkInFlightTests {
    @Test func leavingCancelsTheWorkStillRunningAndEndedWorkIsForgotten() async {
        var work = WorkInFlight()
        let (ended, end) = AsyncStream.makeStream(of: LoadRace.Outcome.self)
        let first = work.reserve()
        let second = work.reserve()
        #expect(first != second)
        let hanging = LoadRace.start(
            timeout: .seconds(3600), { try await Task.sleep(for: .seconds(3600)) }, onEnd: { end.yield($0) })
        let quick = LoadRace.start(timeout: .seconds(3600), {}, onEnd: { _ in })
        work.add(hanging, as: first)
        work.add(quick, as: second)
        work.remove(second)
        #expect(work.count == 1)
        work.cancelAll()
        #expect(work.count == 0)
        var outcome: LoadRace.Outcome?
        for await ending in ended {
            outcome = ending
            break
        }
        guard case .cancelled = outcome else {
            Issue.record("the hanging work ended \(String(describing: outcome)), not cancelled")
            return
        }
    }
}
