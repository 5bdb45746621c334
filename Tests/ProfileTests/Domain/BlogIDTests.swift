import Foundation
import ProfileDemoBlogs
import ProfileDemoDomain
import Scenery
import Testing

/// A blog's id is a type of its own, and still a plain number wherever it is written.
@Suite struct BlogIDTests {
    @Test func anIdIsWrittenAsAPlainNumber() throws {
        let blog: BlogID = 27
        #expect(String(decoding: try JSONEncoder().encode(blog), as: UTF8.self) == "27")
        #expect(try JSONDecoder().decode(BlogID.self, from: Data("27".utf8)) == blog)
        #expect(try JSONValueEncoder().encode(BlogEvents.Like(blog: blog, liked: true)) == ["blog": 27, "liked": true])
        #expect(BlogNodeID(blog: blog).row == "blog.27")
    }

    @Test func anIdIsReadFromTextOnlyWhenItIsAWholeNumber() {
        #expect(BlogID("27") == 27)
        #expect(BlogID("-3") == BlogID(-3))
        for text in ["", "27a", "2.5", "blog.27", "99999999999999999999"] { #expect(BlogID(text) == nil, "\(text)") }
        #expect(BlogNodeID(row: NodeID("blog.27")) == BlogNodeID(blog: 27))
        #expect(BlogNodeID(row: NodeID("blog.x")) == nil)
    }
}
