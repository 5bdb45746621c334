import Testing

@testable import Scenery

@Suite struct HTMLRendererTests {
    @Test func rendersACompleteSelfContainedPage() throws {
        let page = HTMLRenderer().render(TextRendererTests.sample, title: "Profile")
        try Golden.check(page, against: "sample.html")
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("<link"))
        #expect(page.contains(#"data-module="info" data-type="UserInfoModule""#))
    }

    @Test func aRendererForALivePageLeavesEventsToTheServer() {
        let tree = ViewNode.stack(
            "s",
            [
                .button("like", title: "Like", sends: EventDescriptor("blog.like", payload: ["blog": 7])),
                ViewNode.text("row", "Row").selectable(sending: EventDescriptor("blog.open", payload: ["blog": 7])),
            ])
        let document = HTMLRenderer().fragment(tree)
        #expect(document.contains(#"data-event="blog.like" data-payload="{&quot;blog&quot;:7}""#))
        #expect(document.contains(#"data-action="blog.open""#))
        let live = HTMLRenderer(carriesEvents: false).fragment(tree)
        #expect(live.contains(#"data-node="like">Like</button>"#), "\(live)")
        #expect(live.contains(#"data-node="row" tabindex="0""#), "\(live)")
        #expect(!live.contains("data-payload") && !live.contains("data-event") && !live.contains("data-action"))
    }

    @Test func escapesHostileTextEverywhere() {
        let hostile = #"<script>alert("x")</script>' onmouseover='steal()"#
        let tree = ViewNode.stack(
            NodeID(hostile),
            [
                .text("t", hostile, role: .title),
                .button("b", title: hostile, sends: EventDescriptor(hostile, payload: ["name": .string(hostile)])),
                .image("i", .symbol("s"), alt: hostile),
                .list("l", sections: [.init(id: NodeID(hostile), header: hostile, footer: hostile, rows: [.text("r", hostile)])]),
                .error("e", hostile, retry: EventDescriptor(SceneEvents.retry)),
            ])
        let page = HTMLRenderer().render(tree, title: hostile)
        #expect(!page.contains("<script>"))
        #expect(!page.contains("' onmouseover='"))
        #expect(!page.contains(#"" onmouseover=""#))
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;steal()"))
    }

    @Test(arguments: [
        "javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "\u{1}javascript:x", "//evil.example/x.png",
        "/\\evil.example/x.png", "/\t/evil.example/x.png", "/ /evil.example", "/",
    ])
    func dropsUnsafeImageURLs(url: String) {
        let page = HTMLRenderer().render(.image("i", .url(url), alt: "Avatar"))
        #expect(!page.contains("<img"))
        #expect(page.contains(#"aria-label="Avatar""#))
    }

    @Test func keepsAPictureOnThePagesOwnServer() {
        let page = HTMLRenderer().render(.image("i", .url("/pictures/alice.svg"), alt: "A"))
        #expect(page.contains(#"<img id="i" src="/pictures/alice.svg" alt="A">"#))
    }

    @Test func keepsWebImages() {
        let page = HTMLRenderer().render(.image("i", .url("https://example.com/a.png?x=1&y=2"), alt: "A"))
        #expect(page.contains(#"<img id="i" src="https://example.com/a.png?x=1&amp;y=2" alt="A">"#))
    }

    @Test func removesControlCharacters() {
        #expect(HTMLRenderer.escape("a\u{1B}[31mb\u{0}c") == "a[31mbc")
    }

    @Test func escapesWhatMustBeEscapedAndLeavesTheRest() {
        #expect(HTMLRenderer.escape("Trip notes: été 🫖") == "Trip notes: été 🫖")
        #expect(HTMLRenderer.escape(#"<b class="x">Tom & Jerry's</b>"#) == "&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;")
        #expect(HTMLRenderer.escape("a\nb\tc\u{7F}d\u{85}e\u{A0}f") == "a\nb\tcde\u{A0}f", "C0 and C1 controls go; line breaks, tabs and U+00A0 stay")
        // In an attribute, a line break and a tab become references.
        let page = HTMLRenderer().render(.image("i", .url("https://example.com/a.png"), alt: "two\nlines\tand <tags> \u{85}"))
        #expect(page.contains(#"alt="two&#10;lines&#9;and &lt;tags&gt; ""#))
    }

    @Test func escapesAnAttributeValueForEitherQuote() {
        #expect(HTMLRenderer.escapeAttribute("plain é 🫖") == "plain é 🫖")
        #expect(HTMLRenderer.escapeAttribute("Ann's \"notes\"\nline\t2 <&>") == "Ann&#39;s &quot;notes&quot;&#10;line&#9;2 &lt;&amp;&gt;")
        #expect(HTMLRenderer.escapeAttribute("a\u{1B}b\u{85}c") == "abc", "controls go, as in text")
    }

    @Test func writesStringsThatNeedNoEscapeAsTheyAre() {
        #expect(JSONValue.string("plain “Tea” é 🫖").compactJSON == "\"plain “Tea” é 🫖\"")
        #expect(JSONValue.string("\u{1}\u{1F}\r").compactJSON == #""\u0001\u001f\r""#)
    }

    @Test func writesPayloadsAsCompactJSON() {
        let value: JSONValue = ["b": 1, "a": ["x", true, .null], "q": "say \"hi\"\n"]
        #expect(value.compactJSON == #"{"a":["x",true,null],"b":1,"q":"say \"hi\"\n"}"#)
    }
}
