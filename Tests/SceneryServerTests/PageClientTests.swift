import Scenery
import SceneryPageProtocol
import Testing

/// `PageClient`, the one client state machine `scenery connect`, the test kit and a native
/// host share: what it keeps, what it sends, and what it sends again.
@Suite struct PageClientTests {
    static let before = ViewNode.stack("root", [.text("likes", "Likes: 0"), .button("like", title: "Like", sends: EventDescriptor("like"))])
    static let after = ViewNode.stack("root", [.text("likes", "Likes: 1"), .button("like", title: "Like", sends: EventDescriptor("like"))])

    @Test func anEventIsKeyedAndKeptUntilTheServerFinishesWithIt() throws {
        var page = PageClient(tree: Self.before, sequence: 3)
        let sending = page.send(.event(node: "like"))
        let sent = try #require(sending)
        guard case .event(let node, let key?, _) = sent else {
            Issue.record("not keyed: \(sent)")
            return
        }
        #expect(node == "like")
        #expect(page.isWaitingForAnswers && page.unanswered == [sent], "sent again on a new socket under the same key")

        let reception = page.receive(.resume(token: "t1", applied: [key]))
        #expect(reception.finished == [key])
        #expect(page.resumeToken == "t1")
        #expect(!page.isWaitingForAnswers && page.unanswered.isEmpty)

        let resending = page.send(.event(node: "like"))
        let refused = try #require(resending)
        guard case .event(_, let second?, _) = refused else { return }
        #expect(second != key, "every event gets a key of its own")
        #expect(page.receive(.refused(message: "No.", action: second)).finished == [second])
        #expect(!page.isWaitingForAnswers)
    }

    @Test func pastTheLargestPendingAnEventIsNotSentButOtherMessagesAre() {
        var page = PageClient(tree: Self.before, sequence: 0, largestPending: 2)
        #expect(page.send(.event(node: "like")) != nil)
        #expect(page.send(.event(node: "like")) != nil)
        #expect(page.send(.event(node: "like")) == nil)
        #expect(page.waitingCount == 2)
        #expect(page.send(.resync) == .resync)
    }

    @Test func anUpdateInOrderChangesTheTreeAndOneThatDoesNotApplyAsksForTheWholeScene() throws {
        var page = PageClient(tree: Self.before, sequence: 3)
        let patches = ViewTreeDiff(from: Self.before, to: Self.after).patches
        let applied = page.receive(.patches(sequence: 4, module: nil, node: "root", patches: patches))
        guard case .updated(let node) = applied.change else {
            Issue.record("\(applied.change)")
            return
        }
        #expect(node == Self.after && applied.reply == nil)
        #expect(page.mirror.sequence == 4)

        #expect(page.receive(.patches(sequence: 4, module: nil, node: "root", patches: patches)).reply == nil, "already applied")
        let broken = page.receive(.patches(sequence: 5, module: nil, node: "root", patches: [.delete("nowhere")]))
        #expect(broken.reply == .resync)

        let whole = page.receive(.tree(sequence: 9, document: ViewTreeDocument(root: Self.before)))
        guard case .whole = whole.change else {
            Issue.record("\(whole.change)")
            return
        }
        #expect(page.mirror.sequence == 9 && page.mirror.tree == Self.before)
    }

    @Test func aQuestionAskedAgainForTheSameActionIsAnsweredAsBefore() throws {
        var page = PageClient(tree: Self.before, sequence: 0)
        let sending = page.send(.event(node: "like"))
        guard case .event(_, let key?, _) = try #require(sending) else { return }
        let question = Confirmation(title: "Unlike?")
        #expect(page.answer(true) == nil, "no question waits")

        #expect(page.receive(.confirm(question: 1, question, action: key)).reply == nil)
        #expect(page.question == PageClient.Question(number: 1, confirmation: question, action: key))
        #expect(page.answer(false) == .answer(question: 1, accept: false))
        #expect(page.question == nil && page.answer(for: key) == false)

        // The server the page came back to asks again for the action sent again: answered.
        let again = page.receive(.confirm(question: 7, question, action: key))
        #expect(again.reply == .answer(question: 7, accept: false))
        #expect(page.question == nil)

        // Once the server is done with the action, the answer is forgotten.
        _ = page.receive(.resume(token: "t", applied: [key]))
        #expect(page.answer(for: key) == nil)
    }

    /// A transport that keeps what was written, as the server would read it (a text the
    /// server could not read fails the test).
    final class RecordingTransport: PageTransport {
        private let texts = Locked<[String]>([])
        var written: [PageProtocol.ClientMessage] {
            get throws { try texts.withLock { $0 }.map(PageProtocol.ClientMessage.init(jsonText:)) }
        }
        func write(_ text: String) { texts.withLock { $0.append(text) } }
    }

    @Test func overATransportTheClientWritesWhatItsStateCallsForInOrder() throws {
        var page = PageClient(tree: Self.before, sequence: 3, largestPending: 2)
        let socket = RecordingTransport()
        let sentFirst = page.send(.event(node: "like"), on: socket)
        let sentSecond = page.send(.event(node: "like"), on: socket)
        let first = try #require(sentFirst)
        let second = try #require(sentSecond)
        #expect(page.send(.event(node: "like"), on: socket) == nil, "past the largest pending, nothing is written")
        #expect(try socket.written == [first, second])

        // An update that does not apply: a resync goes after the events.
        _ = page.receive(.patches(sequence: 5, module: nil, node: "root", patches: [.delete("nowhere")]), replyingOn: socket)
        #expect(try socket.written.last == .resync)

        // A question, answered; asked again for the same action, answered as before unasked.
        guard case .event(_, let key?, _) = first else {
            Issue.record("not keyed: \(first)")
            return
        }
        _ = page.receive(.confirm(question: 1, Confirmation(title: "Unlike?"), action: key), replyingOn: socket)
        #expect(try socket.written.count == 3, "a new question waits for the person")
        page.answer(true, on: socket)
        page.answer(true, on: socket)
        _ = page.receive(.confirm(question: 2, Confirmation(title: "Unlike?"), action: key), replyingOn: socket)
        let answers = Array(try socket.written.suffix(2))
        #expect(answers == [.answer(question: 1, accept: true), .answer(question: 2, accept: true)], "no question, no answer written")

        // On a new socket, the events not finished go again under their keys, in order.
        _ = page.receive(.resume(token: "t", applied: [key]), replyingOn: socket)
        let newSocket = RecordingTransport()
        page.resendUnanswered(on: newSocket)
        #expect(try newSocket.written == [second])
    }
}
