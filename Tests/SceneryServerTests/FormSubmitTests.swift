import Foundation
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Synchronization
import Testing

@testable import SceneryServer

/// A module with a form, for the page protocol's submits: a note of up to 40 characters,
/// kept in memory and shown under the form.
actor NotesModule: Module {
    struct Note: Codable, Sendable { var text: String }
    static let write = EventKind("note.write", payload: Note.self)
    struct Search: Codable, Sendable { var query: String }
    static let search = EventKind("note.search", payload: Search.self)
    static let descriptor = ModuleDescriptor(type: "NotesModule", summary: "Notes people write.", sends: [write], performs: [write])
    static let field = TextField(name: "text", label: "Note", maximumLength: 40, rules: [.required()])

    /// What every instance received, in order (the server's page sessions make their own).
    static let received = Locked<[String]>([])

    let context: ModuleContext
    var notes: [String] = []

    init(context: ModuleContext) { self.context = context }

    func load(_ request: LoadRequest) async throws {}

    func handle(_ event: Event) async -> EventDisposition {
        guard let search = try? Self.search.payload(of: event) else { return .pass }
        Self.received.withLock { $0.append("search: \(search.query)") }
        return .handled
    }

    func perform(_ event: Event) async throws {
        guard let note = try? Self.write.payload(of: event) else { return }
        Self.received.withLock { $0.append(note.text) }
        notes.append(note.text)
        await context.setNeedsRender()
    }

    func render() -> ViewNode {
        .stack(
            "content",
            [
                .form("write", submit: .init(title: "Add note", sends: Self.write.name), [.textField("write.text", Self.field)]),
                .button("plain", title: "Not a form", sends: EventDescriptor("note.plain")),
                .textField("find", TextField(name: "query", label: "Find", changes: Self.search.descriptor(Search(query: "")))),
            ] + notes.enumerated().map { .text("note.\($0.offset)", $0.element) })
    }
}

/// A form's submit over the page socket: the text by field name, checked against the form on
/// the page before its module sees it.
@Suite(.timeLimit(.minutes(5)), .serialized) struct FormSubmitTests {
    let fixture: ServerFixture
    let socket: LiveSocketTests

    init() throws {
        fixture = try ServerFixture(register: { registry in
            registry.register(NotesModule.self) { _, context in NotesModule(context: context) }
            let problems = registry.addScene(id: "notes", source: #"{"modules": [{"id": "notes", "type": "NotesModule"}]}"#)
            #expect(problems.isEmpty, "\(problems)")
        })
        socket = LiveSocketTests(fixture: fixture)
    }

    static func submit(_ values: [String: String], node: NodeID = "notes/write", key: ActionKey = .random()) -> PageProtocol.ClientMessage {
        .event(node: node, action: key, values: values)
    }

    @Test(arguments: PageTestTransport.allCases)
    func aSubmitCarriesTheTextToTheModuleAndThePageShowsIt(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let page = try await client.open("notes", format: .html)
            let saved = try await page.waitForAnswer(to: try await page.tap("notes/write", values: ["text": "Buy milk, 2 l"]))
            #expect(saved.refusals.isEmpty, "\(saved.refusals)")
            #expect(saved.operations.contains { $0.html?.contains("Buy milk, 2 l") == true }, "the page shows it")
            #expect(NotesModule.received.withLock { $0 }.contains("Buy milk, 2 l"))
        }
    }

    @Test(arguments: [
        (["text": ""], "Note is required."),
        (["text": String(repeating: "x", count: 41)], "Note is at most 40 characters; it has 41."),
        (["text": "a\u{0}b"], "control character (U+0)"),
        (["text": "evil\u{202E}txt"], "control character (U+202E)"),
        (["text": "x", "extra": "y"], "This form has no field 'extra'"),
        ([:], "Note was not sent"),
    ])
    func textThatBreaksTheFormIsRefusedByNameAndNeverReachesTheModule(values: [String: String], reason: String) async throws {
        let before = NotesModule.received.withLock { $0.count }
        try await fixture.server.test(.inProcess) { client in
            let page = try await client.open("notes", format: .html)
            let key = ActionKey.random()
            await page.send(Self.submit(values, key: key))
            // The page is told which submit it was, so that form keeps what was typed.
            let refused = try await page.waitForAnswer(to: key)
            let refusal = try #require(refused.refusals.first)
            #expect(refusal.hasPrefix("The form was not sent: ") && refusal.contains(reason), "\(refusal)")
            #expect(refused.operations.isEmpty)
        }
        #expect(NotesModule.received.withLock { $0.count } == before)
    }

    @Test(arguments: [
        (Step.send(submit(["text": "hi"], node: "notes/plain")), "That control takes no text."),
        (
            .sendText(#"{"type":"event","node":"notes/write","action":"a-number-for-text","values":{"text":7}}"#),
            #"A form's "values" are text by field name, at most 64 fields."#
        ),
        (.send(submit(["text": "hi"], node: "notes/elsewhere")), "That control is not on this page."),  // a form not on the page
        (.send(submit(Dictionary(uniqueKeysWithValues: (0...64).map { ("f\($0)", "x") }))), #"A form's "values" are text by field name"#),
    ])
    func valuesForAControlThatIsNoFormOrNotTextAreRefused(message: Step, reason: String) async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await socket.openPage(client, "/scenes/notes")
            let received = try await socket.converse(client, session: session, [message, .waitUntil { !$0.of("refused").isEmpty }]).received
            let refusal = try #require(received.of("refused").first?["message"]?.stringValue)
            #expect(refusal.hasPrefix(reason), "\(refusal)")
        }
    }

    @Test func aFieldThatSendsChangesTakesItsOwnTextAndNothingElse() async throws {
        try await fixture.server.test(.inProcess) { client in
            let page = try await client.open("notes", format: .html)
            let sent: [(NodeID, [String: String])] = [
                ("notes/find", ["query": "milk"]), ("notes/find", ["other": "x"]), ("notes/find", ["query": "a\u{7}b"]), ("notes/write.text", ["text": "x"]),
            ]
            var keys: Set<ActionKey> = []
            for (node, values) in sent {
                let key = ActionKey.random()
                keys.insert(key)
                await page.send(Self.submit(values, node: node, key: key))
            }
            let answered = keys
            let refusals = try await page.waitUntil("an answer to each") { answered.isSubset(of: $0.answeredActions) }.refusals
            #expect(refusals.count == 3, "\(refusals)")
            #expect(refusals.contains("That control takes no text."), "another field's name")
            #expect(refusals.contains("That control is not on this page."), "a field that sends no changes is no control")
            #expect(refusals.contains { $0.contains("control character (U+7)") })
        }
        #expect(NotesModule.received.withLock { $0 }.contains("search: milk"))
    }

    @Test(arguments: PageTestTransport.allCases)
    func aSubmitSentTwiceWithOneActionKeyIsAppliedOnce(transport: PageTestTransport) async throws {
        let note = "Only once, \(transport)"
        let key = ActionKey.random()
        try await fixture.server.test(transport) { client in
            let page = try await client.open("notes", format: .html)
            // A double click, or a page that resumed and sent it again: the same key twice.
            await page.send(Self.submit(["text": note], key: key))
            await page.send(Self.submit(["text": note], key: key))
            let then = try await page.waitForAnswer(to: try await page.tap("notes/write", values: ["text": "Then this"]))
            #expect(then.refusals.isEmpty, "\(then.refusals)")
            #expect(then.answeredActions.contains(key))
        }
        #expect(NotesModule.received.withLock { $0 }.filter { $0 == note }.count == 1)
    }

    @Test func aTenMegabytePasteClosesTheSocketAsTooLargeAndReachesNoModule() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await socket.openPage(client, "/scenes/notes")
            // A text frame that declares 10 MB: the server answers from the frame's head,
            // before any of the text arrives (so the test does not race the upload).
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(RawConnection.upgradeRequest(to: "/live?session=\(session)&since=0&protocol=1"))
            let length = UInt64(10 << 20)
            let head: [UInt8] = [0x81, 0x80 | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> (8 * UInt64($0))) } + [1, 2, 3, 4]
            connection.send(bytes: head)
            let (bytes, closed) = await connection.readBytesUntilClosed()
            #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 101", "upgraded")
            // An unmasked close frame from the server: 0x88, its length, then 1009 (0x03F1).
            let close = bytes.indices.first { bytes[$0] == 0x88 && $0 + 3 < bytes.count && bytes[$0 + 2] == 0x03 && bytes[$0 + 3] == 0xF1 }
            #expect(close != nil, "closed with 1009 (message too big), not a dropped connection")
            #expect(closed)
            // The page opens its socket again and goes on.
            let received = try await socket.talk(client, session: session, send: [Self.submit(["text": "After the paste"])]) {
                $0.of("patch").contains { "\($0)".contains("After the paste") }
            }
            #expect(received.of("refused").isEmpty)
        }
        #expect(!NotesModule.received.withLock { $0 }.contains { $0.count > 1_000 })
    }

    @Test func thePageSaysHowLongAMessageMayBe() async throws {
        try await fixture.server.application().test(.live) { client in
            let response = try await client.execute(uri: "/scenes/notes", method: .get)
            #expect(response.text.contains(#"data-largest-message="81920""#))
            #expect(response.text.contains(#"<form id="notes/write" class="form" data-form="notes/write""#))
        }
    }
}
