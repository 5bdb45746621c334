import SceneryLive
import Testing

@testable import Scenery

@Suite struct ActionKeyTests {
    @Test(arguments: ["abcdefgh", "0f1e2d3c-4b5a_6978", String(repeating: "a", count: 64)])
    func aKeyOfEightToSixtyFourSafeCharactersIsAccepted(text: String) throws {
        #expect(try ActionKey(validating: text).rawValue == text)
    }

    @Test(arguments: ["", "short", String(repeating: "a", count: 65), "has spaces", "semi;colon", "ünïcödé-key", "new\nline-key"])
    func anyOtherTextIsRefused(text: String) {
        #expect(throws: ActionKey.Invalid.self) { try ActionKey(validating: text) }
    }

    @Test func randomKeysAreValidAndDistinct() throws {
        let keys = (0..<1000).map { _ in ActionKey.random() }
        #expect(Set(keys).count == 1000)
        for key in keys { #expect(try ActionKey(validating: key.rawValue) == key) }
    }

    @Test func theActionIsBoundForItsRunOnlyAndKeepsThePageAndTheWriter() async {
        let key = ActionKey.random()
        let (page, writer) = (ChangeSource(), ChangeSource())
        #expect(WriteContext.current.action == nil)
        let seen = await WriteContext.current.onPage(page).writing(as: writer).run {
            await ActionKey.run(as: key) { WriteContext.current }
        }
        #expect(seen.action == key && seen.page == page && seen.writer == writer)
        #expect(WriteContext.current.action == nil && WriteContext.current.page == nil)
        let outside = await ActionKey.run(as: key) { await WriteContext.outsideAnyAction { WriteContext.current } }
        #expect(outside.action == nil && outside.nextWriteKey() == nil, "a write outside any action says so, and records no key")
    }

    @Test func aContextIsBoundOnlyWhereSomeoneSaidWhatItsWritesAreFor() async {
        #expect(!WriteContext.current.isBound, "a task nobody bound")
        #expect(!WriteContext.current.writing(as: ChangeSource()).isBound, "a writer alone says nothing of the action")
        #expect(await ActionKey.run(as: nil) { WriteContext.current.isBound }, "as no action, said")
        #expect(await ActionKey.run(as: .random()) { WriteContext.current.isBound })
        #expect(WriteContext.current.onPage(ChangeSource()).isBound)
        #expect(await WriteContext.outsideAnyAction { WriteContext.current.isBound })
        let (child, detached) = await ActionKey.run(as: .random()) {
            (await Task { WriteContext.current.isBound }.value, await Task.detached { WriteContext.current.isBound }.value)
        }
        #expect(child, "a child task keeps it")
        #expect(!detached, "a detached task loses it: debug builds stop at a module's write there")
    }

    @Test func eachWriteOfAnActionTakesAKeyOfItsOwnAndARunAgainStartsFromTheFirst() async {
        let key = ActionKey.random()
        #expect(WriteContext.current.nextWriteKey() == nil, "no action: no key")
        for _ in 0..<2 {
            let keys = await ActionKey.run(as: key) {
                let first = WriteContext.current.nextWriteKey()
                // A write from a child task is still one of the action's writes.
                let second = await Task { WriteContext.current.nextWriteKey() }.value
                return [first, second, WriteContext.current.nextWriteKey()].map { $0?.rawValue }
            }
            #expect(keys == [key.rawValue, "\(key.rawValue)#2", "\(key.rawValue)#3"])
        }
        #expect(await ActionKey.run(as: nil) { WriteContext.current.nextWriteKey() } == nil)
    }

    @Test func aMemoryLedgerClaimsOnceAndForgetsTheOldestPastItsCapacity() async throws {
        let ledger = MemoryActionLedger(capacity: 2)
        let (first, second, third) = (ActionKey.random(), ActionKey.random(), ActionKey.random())
        #expect(try await ledger.claim(first))
        #expect(try await !ledger.claim(first))
        #expect(try await ledger.hasApplied(first))
        try await ledger.claim(second)
        try await ledger.claim(third)
        #expect(try await !ledger.hasApplied(first), "the oldest is forgotten")
        #expect(try await ledger.hasApplied(second))
        #expect(try await ledger.hasApplied(third))
    }
}

@Suite struct HexTests {
    @Test func bytesRoundTripThroughHexInEitherCase() {
        let bytes: [UInt8] = [0, 1, 15, 16, 127, 128, 254, 255]
        #expect(Hex.text(bytes) == "00010f107f80feff")
        #expect(Hex.bytes("00010f107f80feff") == bytes)
        #expect(Hex.bytes("00010F107F80FEFF") == bytes)
    }

    @Test(arguments: ["0", "abc", "zz", "0g", "-1"])
    func textThatIsNotHexOfWholeBytesIsNil(text: String) {
        #expect(Hex.bytes(text) == nil)
    }
}
