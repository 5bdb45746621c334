import Foundation
import SceneryTesting
import Testing

@testable import Scenery

@Suite struct TextRendererTests {
    static let sample = ViewNode.stack(
        "scene",
        [
            ViewNode(
                id: "info",
                kind: .module(
                    .init(
                        module: "info", type: "UserInfoModule", status: .ready,
                        content: .stack(
                            "info/card",
                            [
                                .image("info/avatar", .url("https://example.com/a.png"), alt: "Alice's avatar"),
                                .text("info/name", "Alice Liddell", role: .title),
                                .text("info/summary", "Writes about rabbits, clocks, and the occasional tea party that runs far too long."),
                                .stack(
                                    "info/counts", axis: .horizontal,
                                    [.text("info/blogs", "Blogs: 25", role: .caption), .text("info/friends", "Friends: 3", role: .caption)]),
                                .button("info/follow", title: "Unfollow", sends: EventDescriptor("user.unfollow"), style: .destructive),
                            ])))),
            ViewNode(
                id: "sections",
                kind: .tabs(
                    .init(
                        tabs: [
                            .init(id: "blogs", title: "Blogs", event: EventDescriptor(SceneEvents.selectTab)),
                            .init(id: "drafts", title: "草稿", event: EventDescriptor(SceneEvents.selectTab)),
                        ],
                        selection: "blogs",
                        content: .list(
                            "blogs/list",
                            sections: [
                                .init(
                                    id: "blogs/all", header: "Blogs", footer: "2 of 25",
                                    rows: [
                                        .stack(
                                            "blogs/row.1", axis: .horizontal,
                                            [
                                                .text("blogs/row.1.title", "你好，世界"),
                                                .button("blogs/row.1.like", title: "赞 12", sends: EventDescriptor("blog.like")),
                                            ]
                                        )
                                        .selectable(sending: EventDescriptor("blog.open", payload: ["blog": 1])),
                                        .stack(
                                            "blogs/row.2", axis: .horizontal,
                                            [
                                                .text("blogs/row.2.title", "Down the rabbit hole"),
                                                .button("blogs/row.2.like", title: "Likes: 3", sends: EventDescriptor("blog.like")),
                                            ]),
                                    ])
                            ])))),
            .loading("more", "Loading more…"),
            .empty("drafts", "No drafts yet."),
            .error("failed", "The server is down.", retry: EventDescriptor(SceneEvents.retry)),
        ])

    @Test func rendersAReadableLayout() throws {
        try Golden.check(TextRenderer(width: 60).render(Self.sample), against: "sample-60.txt")
    }

    @Test func aRightToLeftLayoutIsMirrored() throws {
        let text = TextRenderer(width: 60, isRightToLeft: true).render(Self.sample)
        let lines = text.split(separator: "\n").map(String.init)
        // Every line starts with a right-to-left mark and ends at the right edge.
        #expect(lines.allSatisfy { $0.hasPrefix("\u{200F}") })
        #expect(lines.allSatisfy { TerminalText.displayWidth(of: $0) == 60 }, "\(lines)")
        // Frames open on the right; bullets stand at the end of a row's line.
        #expect(lines.contains { $0.hasSuffix(" UserInfoModule · info ─┐") })
        #expect(lines.contains { $0.hasSuffix("┘") })
        #expect(lines.contains { $0.contains("Down the rabbit hole") && $0.hasSuffix(" •") })
        try Golden.check(text, against: "sample-60-rtl.txt")
    }

    @Test func neverExceedsTheWidthEvenWithCJKText() {
        let long = String(repeating: "草稿箱里的文章", count: 20)
        for width in [20, 33, 60, 80] {
            let tree = ViewNode(
                id: "m", kind: .module(.init(module: "m", type: "T", status: .ready, content: .text("t", long + " and some English words too"))))
            for rightToLeft in [false, true] {
                for line in TextRenderer(width: width, isRightToLeft: rightToLeft).render(tree).split(separator: "\n") {
                    #expect(TerminalText.displayWidth(of: String(line)) <= width, "\(line)")
                }
            }
        }
    }

    @Test func stripsControlSequencesFromData() {
        let hostile = "Mallory\u{1B}[2J\u{1B}]0;pwned\u{07}\u{1B}[31m red\u{202E}txet\u{0}\u{7F}\u{9B}"
        let text = TextRenderer().render(.text("t", hostile))
        #expect(text == "Mallory redtxet\n")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test(arguments: Array(0x200E...0x200F) + Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x061C])
    func stripsEveryBidirectionalControl(scalar: UInt32) throws {
        let control = try #require(Unicode.Scalar(scalar))
        #expect(TerminalText.sanitized("a\(Character(control))b") == "ab")
    }

    @Test func colourHighlightsWithoutChangingTheLayout() {
        let plain = TextRenderer(width: 60).render(Self.sample)
        let coloured = TextRenderer(width: 60, usesColor: true).render(Self.sample)
        #expect(coloured.contains("\u{1B}[2mBlogs: 25"), "captions dimmed")
        #expect(coloured.contains("\u{1B}[1;36m[ Unfollow ]\u{1B}[0m"), "controls highlighted")
        #expect(coloured.contains("\u{1B}[1;7m◉ Blogs\u{1B}[0m"), "the selected tab highlighted")
        #expect(coloured.contains("\u{1B}[31m⚠ The server is down. [ Retry ]\u{1B}[0m"), "errors red")
        // Without its colour sequences, the text is exactly the plain rendering.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
        for line in coloured.split(separator: "\n") { #expect(TerminalText.displayWidth(of: String(line)) <= 60) }
    }

    @Test func aThemePaintsWithItsSemanticColours() {
        let dark = Theme(
            name: "dark",
            colors: [.accent: Theme.Color(hex: "#6cb0ff")!, .danger: Theme.Color(hex: "#ff7b7b")!, .textMuted: Theme.Color(hex: "#aeaeb2")!],
            dimensions: [:])
        let coloured = TextRenderer(width: 60, usesColor: true, theme: dark).render(Self.sample)
        #expect(coloured.contains("\u{1B}[1;38;2;108;176;255m[ Unfollow ]\u{1B}[0m"), "controls in the accent")
        #expect(coloured.contains("\u{1B}[38;2;255;123;123m⚠ The server is down."), "errors in the danger colour")
        #expect(coloured.contains("\u{1B}[38;2;174;174;178mBlogs: 25"), "captions muted")
        // A token the theme lacks falls back to the terminal's own colour.
        #expect(coloured.contains("\u{1B}[1;7m◉ Blogs\u{1B}[0m"))
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == TextRenderer(width: 60).render(Self.sample))
        // Without colour (NO_COLOR, not a terminal) a theme changes nothing.
        #expect(TextRenderer(width: 60, theme: dark).render(Self.sample) == TextRenderer(width: 60).render(Self.sample))
    }

    @Test(arguments: [
        ("abc", 3), ("\u{1B}[1;36mabc\u{1B}[0m", 3), ("草稿", 4), ("ｆｕｌｌ", 8), ("e\u{301}", 1), ("👍", 2), ("한국어", 6), ("", 0),
    ])
    func measuresDisplayWidth(text: String, width: Int) {
        #expect(TerminalText.displayWidth(of: text) == width)
    }

    @Test func wrapsAtSpacesAndInsideCJKRuns() {
        #expect(TerminalText.wrap("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TerminalText.wrap("草稿箱里的文章", width: 6) == ["草稿箱", "里的文", "章"])
    }
}

@Suite struct JSONRendererTests {
    @Test func rendersTheDocumentedFormat() throws {
        try Golden.check(JSONRenderer().render(TextRendererTests.sample, scene: "user-profile", variant: "owner"), against: "sample.json")
    }

    @Test func roundTripsEveryNodeKind() throws {
        let json = JSONRenderer(prettyPrinted: false).render(TextRendererTests.sample)
        let document = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(json.utf8))
        #expect(document.root == TextRendererTests.sample)
        #expect(document.format == "scenery.view-tree")
        #expect(document.version == 1)
        let grid = ViewNode.list("g", layout: .grid(columns: 3), sections: [.init(id: "s", rows: [.image("i", .symbol("star"), alt: "Star")])])
        let decoded = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(JSONRenderer().render(grid).utf8))
        #expect(decoded.root == grid)
    }

    @Test func escapesDataSoItCannotBreakTheDocument() throws {
        let hostile = ViewNode.text("t", "\"}], \"injected\": true, \"x\": [\"\u{0}")
        let json = JSONRenderer().render(hostile)
        let document = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(json.utf8))
        #expect(document.root == hostile)
    }
}
