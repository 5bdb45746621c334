import Foundation
import Scenery
import Testing

@testable import SceneryServer

/// The small value types a page session keeps its state in, each on its own: what is kept
/// for replay, where the page is, its socket's attachment, its resets and its impression
/// timer.
@Suite struct SessionStateTests {
    // MARK: ReplayBuffer

    @Test func aReplayIsWhatThePageMissedOrNothingWhenItIsNotAllKept() {
        var replay = ReplayBuffer(mostMessages: 3, mostBytes: 1_000)
        for sequence in 1...5 { replay.keep(sequence: sequence, text: "m\(sequence)", isWholeScene: false) }
        #expect(replay.count == 3, "the newest three")
        #expect(replay.missed(since: 2) == ["m3", "m4", "m5"])
        #expect(replay.missed(since: 4) == ["m5"])
        #expect(replay.missed(since: 5) == [], "nothing missed")
        #expect(replay.missed(since: 1) == nil, "m2 is gone: the whole scene instead")
        #expect(replay.missed(since: -1) == nil)
    }

    @Test func aWholeSceneStartsTheReplayAndEverythingBeforeItGoes() {
        var replay = ReplayBuffer(mostMessages: 10, mostBytes: 1_000)
        replay.keep(sequence: 1, text: "patch", isWholeScene: false)
        replay.keep(sequence: 2, text: "whole", isWholeScene: true)
        replay.keep(sequence: 3, text: "patch again", isWholeScene: false)
        #expect(replay.count == 2)
        #expect(replay.missed(since: 0) == ["whole", "patch again"], "from the whole scene on, whatever the page had")
    }

    @Test func aReplayIsBoundedInBytesButKeepsTheNewestMessage() {
        var replay = ReplayBuffer(mostMessages: 10, mostBytes: 10)
        replay.keep(sequence: 1, text: "12345", isWholeScene: false)
        replay.keep(sequence: 2, text: "12345", isWholeScene: false)
        #expect(replay.count == 2)
        replay.keep(sequence: 3, text: String(repeating: "x", count: 50), isWholeScene: false)
        #expect(replay.count == 1, "the newest alone, over the bound")
        #expect(replay.missed(since: 2)?.first?.count == 50)
    }

    @Test func oldMessagesAreLetGoByAge() {
        var replay = ReplayBuffer(mostMessages: 10, mostBytes: 1_000)
        let start = ContinuousClock.now
        replay.keep(sequence: 1, text: "old", isWholeScene: false, now: start)
        replay.keep(sequence: 2, text: "new", isWholeScene: false, now: start + .seconds(8))
        let early = replay.letGo(olderThan: .seconds(10), now: start + .seconds(9))
        let late = replay.letGo(olderThan: .seconds(10), now: start + .seconds(11))
        #expect(!early && late)
        #expect(replay.missed(since: 1) == ["new"])
        #expect(replay.missed(since: 0) == nil, "the old one went")
    }

    // MARK: PageAttachment

    @Test func aPageWithoutASocketExpiresAfterItsGracePeriodOrTheAttachTimeout() {
        let opened = ContinuousClock.now
        var attachment = PageAttachment(opened: opened)
        let (grace, timeout) = (Duration.seconds(30), Duration.seconds(10))
        #expect(!attachment.isExpired(now: opened + .seconds(9), grace: grace, attachTimeout: timeout))
        #expect(attachment.isExpired(now: opened + .seconds(11), grace: grace, attachTimeout: timeout), "never attached")

        let connection = attachment.attach(SilentSocket())
        #expect(!attachment.isExpired(now: opened + .seconds(600), grace: grace, attachTimeout: timeout), "attached: never")
        let wasThePages = attachment.detach(connection, now: opened + .seconds(600))
        #expect(wasThePages)
        #expect(!attachment.isExpired(now: opened + .seconds(629), grace: grace, attachTimeout: timeout), "within the grace period")
        #expect(attachment.isExpired(now: opened + .seconds(631), grace: grace, attachTimeout: timeout))
    }

    @Test func onlyTheNewestSocketIsThePagesAndAnOlderOnesCloseChangesNothing() {
        var attachment = PageAttachment(opened: .now)
        let first = attachment.attach(SilentSocket())
        let letGo = attachment.letGo()
        #expect(letGo != nil, "the caller closes the first socket")
        let second = attachment.attach(SilentSocket())
        #expect(first != second)
        #expect(!attachment.isCurrent(first) && attachment.isCurrent(second))
        let firstClosed = attachment.detach(first, now: .now)
        #expect(!firstClosed, "the old socket's close is not the page's")
        #expect(attachment.socket != nil)
        let secondClosed = attachment.detach(second, now: .now)
        #expect(secondClosed)
        #expect(attachment.socket == nil && !attachment.isCurrent(second))
    }

    @Test func refusalsInARowMakeAPageAbusiveUntilOneIsAcceptedOrItAttachesAgain() {
        var attachment = PageAttachment(opened: .now)
        _ = attachment.attach(SilentSocket())
        for _ in 0..<PageAttachment.mostRefusedInARow { attachment.refused() }
        #expect(!attachment.isAbusive, "at the bound")
        attachment.refused()
        #expect(attachment.isAbusive)
        attachment.accepted()
        #expect(!attachment.isAbusive)
        for _ in 0...PageAttachment.mostRefusedInARow { attachment.refused() }
        _ = attachment.attach(SilentSocket())
        #expect(!attachment.isAbusive, "a new socket starts again")
    }

    // MARK: PageResets

    @Test func aResetAskedForWhileOneRunsMakesItGoRoundAgainInsteadOfRunningBeside() {
        var resets = PageResets()
        var runs = [resets.ask(), resets.ask(), resets.ask()]
        #expect(runs == [true, false, false], "the first asker runs it; the others run nothing of their own")
        var rounds = [resets.finishRound(pageEnded: false), resets.finishRound(pageEnded: false)]
        #expect(rounds == [true, false], "asked again (twice): one more round, then done")
        runs = [resets.ask(), resets.ask()]
        #expect(runs == [true, false], "the next asker runs one again")
        rounds = [resets.finishRound(pageEnded: true)]
        #expect(rounds == [false], "a page that ended goes round no more")
        runs = [resets.ask()]
        #expect(runs == [true], "nor is a reset left running")
    }

    // MARK: ImpressionTimer

    @Test func anImpressionTimerKeepsTheEarliestDeadline() async {
        var timer = ImpressionTimer()
        let start = ContinuousClock.now
        let (fired, fire) = AsyncStream.makeStream(of: Int.self)
        let started = [
            timer.schedule(at: start + .seconds(3600)) { fire.yield(1) },
            timer.schedule(at: start + .seconds(7200)) { fire.yield(2) },  // later: the earlier stands
            timer.schedule(at: start) { fire.yield(3) },  // earlier: takes its place
        ]
        #expect(started == [true, false, true])
        #expect(timer.deadline == start)
        var firedFirst: Int?
        for await number in fired {
            firedFirst = number
            break
        }
        #expect(firedFirst == 3, "the timer due now fired, the hour-long one was cancelled")
        timer.fired()
        #expect(timer.deadline == nil)
        let startedAgain = timer.schedule(at: start + .seconds(3600)) { fire.yield(4) }
        #expect(startedAgain, "after firing, any deadline")
        timer.cancel()
        #expect(timer.deadline == nil)
    }

    // MARK: PagePlace

    @Test func aPlaceRemembersTabsAndPagesAndARefreshStartsAListAgain() {
        var place = PagePlace()
        let remembered = [
            place.remember(Event(.selectTab("drafts", inSwitch: "sections"), from: "sections")),
            place.remember(Event(.loadMore("blogs"), from: "blogs")),
            place.remember(Event(.loadMore("blogs"), from: "blogs")),
            place.remember(Event("like", from: "blogs/blog.26.like")),
        ]
        #expect(remembered == [true, true, true, false], "a like is not a place's event")
        #expect(place.tabs == ["sections": "drafts"])
        #expect(place.pagesLoaded == ["blogs": 2])
        place.remember(Event(.refresh("blogs"), from: "blogs"))
        #expect(place.pagesLoaded.isEmpty)
    }

    @Test func finishedActionsAreAnnouncedOnceAndKnownAfter() throws {
        var place = PagePlace()
        let like = try ActionKey(validating: "like-26-once")
        place.finish(like)
        place.finish(like)
        let first = place.takeUnannounced()
        let second = place.takeUnannounced()
        #expect(first == [like], "once, however often finished")
        #expect(second.isEmpty)
        #expect(place.hasFinished(like))
    }

    @Test func aPlaceComesBackWholeFromItsTokenAndNamesItsOrigin() throws {
        var place = PagePlace()
        place.remember(Event(.selectTab("drafts", inSwitch: "sections"), from: "sections"))
        place.remember(Event(.loadMore("blogs"), from: "blogs"))
        place.moveWindow(of: "followers", to: 40)
        let like = try ActionKey(validating: "like-26-once")
        place.finish(like)
        let token = place.token(
            session: "00112233445566778899aabbccddeeff", viewer: "2", visitor: nil, scene: "user-profile", arguments: ["user": "1"], locale: nil,
            readsViewTree: false, issuedAt: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(token.origin == nil, "a page never made again")
        #expect(token.issued == 1_790_000_000, "issued at the time given")
        let back = PagePlace(resumingFrom: token)
        #expect(back.isResumed && back.resumedFrom == token.nonce)
        #expect(back.tabs == place.tabs && back.pagesLoaded == place.pagesLoaded)
        #expect(back.windowStart(of: "followers") == 40 && back.windowStart(of: "blogs") == nil)
        #expect(back.hasFinished(like))
        let next = back.token(
            session: token.session, viewer: "2", visitor: nil, scene: "user-profile", arguments: ["user": "1"], locale: nil, readsViewTree: false)
        #expect(next.origin == token.nonce && next.nonce != token.nonce, "a token of its own, naming the one the page was made from")
    }

    // MARK: ActionQueue, NewestRequest, PageRates

    @Test func actionsRunInOrderOneTaskAtATimeAndACopyFindsItsActionRunning() throws {
        var actions = ActionQueue(capacity: 2)
        let like = try ActionKey(validating: "like-26-once")
        let follow = try ActionKey(validating: "follow-1-once")
        let added = [
            actions.add(.control(node: "blogs/blog.26.like", action: like, values: nil)),
            actions.add(.control(node: "info/follow", action: follow, values: nil)),
            actions.add(.control(node: "info/follow", action: nil, values: nil)),
        ]
        #expect(added == [.startsRunner, .queued, .full], "one task runs them; the third finds the queue full")
        let first = actions.next()
        #expect(first?.action == like)
        #expect(actions.running == like && actions.contains(like) && actions.contains(follow), "running and waiting are known")
        actions.finishRunning()
        #expect(!actions.contains(like))
        let second = actions.next()
        let third = actions.next()
        #expect(second == .control(node: "info/follow", action: follow, values: nil) && third == nil, "in order, then the task's turn ends")
        let again = actions.add(.control(node: "blogs/blog.26.like", action: nil, values: nil))
        #expect(again == .startsRunner, "the next one starts a task again")
    }

    @Test func onlyTheNewestRequestIsHandled() {
        var moves = NewestRequest<Int>()
        let puts = [moves.put(40), moves.put(80)]
        #expect(puts == [true, false], "a task starts for the first; the second waits for it")
        let taken = [moves.take(), moves.take()]
        #expect(taken == [80, nil], "40 was overtaken, then the turn ends")
        let next = moves.put(120)
        #expect(next, "a new task")
    }

    @Test func eachKindOfMessageHasARateOfItsOwn() {
        var configuration = SceneryServer.Configuration(host: "127.0.0.1", port: 0, cookieSecret: Array(repeating: 7, count: 32))
        configuration.eventBurst = 2
        var rates = PageRates(configuration)
        let now = ContinuousClock.now
        let events = (0..<3).map { _ in rates.allows(.event, now: now) }
        #expect(events == [true, true, false], "a burst of two")
        let resyncs = (0..<4).map { _ in rates.allows(.resync, now: now) }
        #expect(resyncs == [true, true, true, false], "three at once, apart from events")
        let later = rates.allows(.event, now: now + .seconds(1))
        #expect(later, "events come back with time")
    }
}

/// A socket that takes what it is sent and shows nothing: for the attachment's own rules.
private final class SilentSocket: PageSocket {
    var unwritten: Int { 0 }
    var unwrittenBytes: Int { 0 }
    func send(_ text: String) {}
    func close() {}
}
