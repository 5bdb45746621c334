import Foundation
import Scenery
import SceneryPageProtocol
import Testing

@testable import SceneryServer

/// The page protocol's messages, typed on the server: what a page may send decodes into
/// one of four cases or is refused with a reason a person can act on; what the server sends
/// encodes to the documented JSON.
@Suite struct PageProtocolTests {
    func decode(_ text: String) throws -> PageProtocol.ClientMessage {
        try JSONDecoder().decode(PageProtocol.ClientMessage.self, from: Data(text.utf8))
    }

    @Test func thePagesMessagesDecode() throws {
        #expect(try decode(#"{"type":"event","node":"blogs/blog.26.like"}"#) == .event(node: "blogs/blog.26.like"))
        #expect(try decode(#"{"type":"window","module":"blogs","start":40}"#) == .window(module: "blogs", start: 40))
        #expect(try decode(#"{"type":"answer","question":3,"accept":true}"#) == .answer(question: 3, accept: true))
        #expect(try decode(#"{"type":"resync"}"#) == .resync)
        #expect(try decode(#"{"type":"visibility","node":"friends","fraction":0.75}"#) == .visibility(node: "friends", fraction: 0.75))
        #expect(
            try decode(#"{"type":"problem","kind":"render","message":"No element","node":"blogs/list"}"#)
                == .problem(kind: .render, message: "No element", node: "blogs/list"))
        #expect(
            try decode(#"{"type":"event","node":"blogs/blog.26.like","action":"0f1e2d3c4b5a6978"}"#)
                == .event(node: "blogs/blog.26.like", action: try ActionKey(validating: "0f1e2d3c4b5a6978")))
    }

    @Test(arguments: [
        (#"{"t":"event","node":"blogs/blog.26.like"}"#, PageProtocol.ClientMessage.Refusal.legacy),
        (#"{"node":"blogs/blog.26.like"}"#, .untyped),
        (#"{"type":"launch"}"#, .unknownType("launch")),
        (#"{"type":"event"}"#, .incomplete("event")),
        (#"{"type":"window","module":"blogs"}"#, .incomplete("window")),
        (#"{"type":"answer","question":"three","accept":true}"#, .incomplete("answer")),
        (#"{"type":"visibility","node":"friends"}"#, .incomplete("visibility")),
        (#"{"type":"problem","kind":"meltdown","message":"x"}"#, .incomplete("problem")),
        (#"{"type":"problem","kind":"script"}"#, .incomplete("problem")),
        (#"{"type":"event","node":"blogs/blog.26.like","action":"short"}"#, .badActionKey),
        (#"{"type":"event","node":"blogs/blog.26.like","action":"has spaces in it"}"#, .badActionKey),
        (#"{"type":"event","node":"blogs/blog.26.like","action":7}"#, .incomplete("event")),
    ])
    func aMessageOutsideTheProtocolIsRefusedWithItsReason(text: String, refusal: PageProtocol.ClientMessage.Refusal) {
        #expect(throws: refusal) { try decode(text) }
    }

    @Test func theOldShapeIsToldToLoadThePageAgain() {
        #expect(
            PageProtocol.ClientMessage.Refusal.legacy.message
                == #"This page speaks the page protocol from before version 1 (messages with "t"); load the page again."#)
    }

    @Test func theServersMessagesEncodeToTheDocumentedJSON() throws {
        let patch = PageProtocol.ServerMessage.patch(sequence: 4, operations: [.replace("blogs/blog.26.likes", html: "<p>2</p>"), .remove("x")])
        #expect(
            patch.text
                == #"{"operations":[{"html":"<p>2</p>","id":"blogs/blog.26.likes","op":"replace"},{"id":"x","op":"remove"}],"sequence":4,"type":"patch"}"#)
        #expect(PageProtocol.ServerMessage.reset(sequence: 5, html: "<div></div>").text == #"{"html":"<div></div>","sequence":5,"type":"reset"}"#)
        let question = Confirmation(title: "Unfollow Alice?", message: nil, confirmLabel: "Unfollow", cancelLabel: "Cancel")
        #expect(
            PageProtocol.ServerMessage.confirm(question: 2, question).text
                == #"{"cancel":"Cancel","confirm":"Unfollow","message":null,"question":2,"title":"Unfollow Alice?","type":"confirm"}"#)
        #expect(
            PageProtocol.ServerMessage.confirm(question: 3, question, action: try ActionKey(validating: "unfollow-1")).text
                == #"{"action":"unfollow-1","cancel":"Cancel","confirm":"Unfollow","message":null,"question":3,"title":"Unfollow Alice?","type":"confirm"}"#,
            "with the key of the action it holds up")
        #expect(PageProtocol.ServerMessage.navigate(url: "/scenes/blog-detail?blog=27").text == #"{"type":"navigate","url":"/scenes/blog-detail?blog=27"}"#)
        #expect(PageProtocol.ServerMessage.errors(nil).text == #"{"text":null,"type":"errors"}"#)
        #expect(PageProtocol.ServerMessage.refused(message: "No.").text == #"{"message":"No.","type":"refused"}"#)
        let key = try ActionKey(validating: "submit-1")
        #expect(PageProtocol.ServerMessage.refused(message: "No.", action: key).text == #"{"action":"submit-1","message":"No.","type":"refused"}"#)
        let done = try ActionKey(validating: "0f1e2d3c4b5a6978")
        #expect(
            PageProtocol.ServerMessage.resume(token: "e30.ab", applied: [done]).text == #"{"applied":["0f1e2d3c4b5a6978"],"token":"e30.ab","type":"resume"}"#)
        #expect(PageProtocol.ServerMessage.resume(token: "e30.ab", applied: []).sequence == nil, "not numbered")
        #expect(patch.sequence == 4)
        #expect(PageProtocol.ServerMessage.navigate(url: "/").sequence == nil)
        let title = PageProtocol.ServerMessage.title(sequence: 6, text: "Alice Liddell")
        #expect(title.text == #"{"sequence":6,"text":"Alice Liddell","type":"title"}"#)
        #expect(title.sequence == 6, "numbered: a page that reconnects is told too")
        let announce = PageProtocol.ServerMessage.announce(texts: ["New like on “Tea”"])
        #expect(announce.text == #"{"texts":["New like on “Tea”"],"type":"announce"}"#)
        #expect(announce.sequence == nil, "not numbered: news, not state")
    }

    @Test func aPatchAndAnAnnouncementAreWrittenAsTheEncoderWritesThem() throws {
        // `text` writes a patch and an announcement directly (a change sends them to every page it
        // reaches): each must be the encoder's text.
        let awkward = "quote \" back\\slash \n line \t tab \u{1} \u{1F} é “Tea” 🫖 </script>"
        let operations: [PageProtocol.DOMOperation] = [
            .detach("blogs/blog.1"), .remove(NodeID(rawValue: awkward)), .insert(parent: "blogs/list", index: 3, html: "<p>\(awkward)</p>"),
            .attach("blogs/blog.2", parent: "blogs/list", index: 0), .replace("blogs/blog.26.likes", html: awkward),
            .window("blogs/list", firstRow: 20, totalRows: 400), .window("blogs/list", firstRow: nil, totalRows: nil),
        ]
        for count in 0...operations.count {
            let message = PageProtocol.ServerMessage.patch(sequence: 41 + count, operations: Array(operations.prefix(count)))
            #expect(message.text == (try JSONValueEncoder().encode(message)).compactJSON)
            #expect(try PageProtocol.ServerMessage(jsonText: message.text) == message)
        }
        for texts in [[], [awkward], ["New like on “A mad tea party, part 3”", awkward]] {
            let message = PageProtocol.ServerMessage.announce(texts: texts)
            #expect(message.text == (try JSONValueEncoder().encode(message)).compactJSON)
            #expect(try PageProtocol.ServerMessage(jsonText: message.text) == message)
        }
    }

    @Test func everyMessageThePageScriptSendsIsOneTheServerDecodes() throws {
        // The types the script sends, as it writes them: `send({ type: "…"`,
        // `JSON.stringify({ type: "…"`, `message = { type: "…"`.
        let pattern = try Regex(#"(?:send\(|stringify\(|message = )\{ type: "([a-z]+)""#)
        let sent = Set(ClientScript.source.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) })
        let samples = [
            "event": #"{"type":"event","node":"blogs/blog.26.like","action":"0f1e2d3c4b5a6978","values":{"text":"a"}}"#,
            "window": #"{"type":"window","module":"blogs","start":0}"#,
            "answer": #"{"type":"answer","question":1,"accept":false}"#,
            "resync": #"{"type":"resync"}"#,
            "visibility": #"{"type":"visibility","node":"friends","fraction":0.5}"#,
            "problem": #"{"type":"problem","kind":"script","message":"TypeError: x is undefined"}"#,
        ]
        #expect(sent == Set(samples.keys), "the script sends \(sent.sorted()); a new kind needs the server's decoder (and a sample here)")
        for (type, sample) in samples {
            #expect(throws: Never.self, "\(type)") { _ = try decode(sample) }
        }
    }

    @Test func thePageScriptHandlesEveryMessageTheServerSends() {
        // Each type the server sends an HTML page has its case in the script's receive: not
        // the view tree's, nor a trace (an answer to a request the script never makes).
        let neverSentToTheScript: Set = ["tree", "patches", "trace"]
        for type in PageProtocol.ServerMessage.types where !neverSentToTheScript.contains(type) {
            #expect(ClientScript.source.contains("case \"\(type)\":"), "\(type)")
        }
    }

    /// One of each message the server sends, every field set.
    static let everyServerMessage: [PageProtocol.ServerMessage] = {
        let key = try! ActionKey(validating: "0f1e2d3c4b5a6978")
        let tree = ViewNode.stack("scene", [.text("scene/title", "Alice")])
        let patches = ViewTreeDiff(from: tree, to: .stack("scene", [.text("scene/title", "Alice Liddell")])).patches
        return [
            .patch(
                sequence: 4,
                operations: [
                    .detach("a"), .remove("b"), .insert(parent: "c", index: 1, html: "<p>1</p>"), .attach("a", parent: "c", index: 0),
                    .replace("d", html: "<p>2</p>"), .window("e", firstRow: 11, totalRows: nil),
                ]),
            .reset(sequence: 5, html: "<div></div>"),
            .confirm(
                question: 2, Confirmation(title: "Unfollow Alice?", message: "You can follow her again.", confirmLabel: "Unfollow", isDestructive: true),
                action: key),
            .navigate(url: "/scenes/blog-detail?blog=27"),
            .errors("Scenes/x.json:1:1: error"),
            .refused(message: "No.", action: key),
            .tree(sequence: 7, document: ViewTreeDocument(scene: "user-profile", variant: "default", root: tree)),
            .resume(token: "e30.ab", applied: [key]),
            .title(sequence: 8, text: "Alice Liddell"),
            .announce(texts: ["New like on “Tea”"]),
            .theme(href: "/assets/theme.css?v=2"),
            .patches(sequence: 9, module: "info", node: "scene", patches: patches),
            .trace(events: ["blog.like from blogs/blog.26.like: module blogs: handled (handled by module blogs)"]),
        ]
    }()

    @Test func everyServerMessageReadsBackAsItWasSent() throws {
        #expect(Self.everyServerMessage.map(\.type) == PageProtocol.ServerMessage.types, "one sample of each type, in order")
        for message in Self.everyServerMessage {
            #expect(try PageProtocol.ServerMessage(jsonText: message.text) == message, "\(message.type)")
        }
    }

    @Test func everyClientMessageReadsBackAsItWasSent() throws {
        let messages: [PageProtocol.ClientMessage] = [
            .event(node: "blogs/blog.26.like"), .event(node: "tasks/new", action: .random(), values: ["title": "Send the invitations"]),
            .window(module: "blogs", start: 60), .answer(question: 3, accept: true), .resync, .visibility(node: "friends", fraction: 0.5),
            .problem(kind: .render, message: "No element 'blogs/list'"), .problem(kind: .decode, message: "Bad JSON", node: "blogs/blog.26"), .trace,
        ]
        for message in messages {
            #expect(try PageProtocol.ClientMessage(jsonText: message.jsonText()) == message, "\(message.type)")
        }
        #expect(try PageProtocol.ClientMessage.resync.jsonText() == #"{"type":"resync"}"#)
        #expect(try PageProtocol.ClientMessage.trace.jsonText() == #"{"type":"trace"}"#)
    }

    @Test func aServerMessageOfAnotherVersionSaysSo() {
        #expect(throws: PageProtocol.ServerMessage.UnknownMessage(type: "hologram")) {
            try PageProtocol.ServerMessage(jsonText: #"{"type":"hologram","sequence":1}"#)
        }
        #expect(throws: PageProtocol.ServerMessage.UnknownMessage(type: nil)) { try PageProtocol.ServerMessage(jsonText: #"{"sequence":1}"#) }
        #expect(throws: DecodingError.self) { try PageProtocol.ServerMessage(jsonText: #"{"type":"patches","sequence":"one"}"#) }
        #expect(
            PageProtocol.ServerMessage.UnknownMessage(type: "hologram").description
                == "The server sent a message of type 'hologram', which page protocol 1 does not have; is the server of another version?")
    }

    @Test func aClientOfAnotherVersionIsToldBothVersions() {
        #expect(
            PageProtocol.versionMismatchReason(spoken: "2")
                == "This page was updated: reload it to get the new version (it speaks page protocol 2, the site 1).")
        #expect(PageProtocol.versionMismatchReason(spoken: nil) == "This page was updated: reload it to get the new version.")
        #expect(PageProtocol.versionMismatchReason(spoken: "12345678").utf8.count <= 123, "a close reason's limit")
        for spoken in [nil, String(repeating: "9", count: 500)] {
            #expect(PageProtocol.versionMismatchReason(spoken: spoken).utf8.count <= 123, "fits a close reason")
        }
    }
}
