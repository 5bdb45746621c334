import Testing

@testable import Scenery

/// The rules that keep the host's copy on the newest rendering when passes overlap (a module
/// that is an actor of its own renders across a hop).
@Suite struct RenderPassesTests {
    let blogs: ModuleID = "blogs"

    @Test func aPassAloneCommitsAndEndsWithNothingRunning() {
        var passes = RenderPasses()
        let pass = passes.begin(blogs)
        #expect(!pass.overlapped)
        #expect(passes.isRendering(blogs))
        #expect(passes.mayCommit(pass))
        passes.commit(pass)
        #expect(passes.mayCommit(pass), "the same pass commits its nodes, then its whole module")
        passes.end(pass)
        #expect(!passes.isRendering(blogs))
    }

    @Test func aPassThatComesBackAfterANewerOneCommittedIsDropped() {
        var passes = RenderPasses()
        let older = passes.begin(blogs)
        let newer = passes.begin(blogs)
        #expect(newer.overlapped, "began while the older one was away")
        passes.commit(newer)
        passes.end(newer)
        #expect(!passes.mayCommit(older), "the newer rendering was made after the same changes and more")
        passes.end(older)
        #expect(!passes.isRendering(blogs))
    }

    @Test func anOlderPassThatComesBackFirstCommitsAndTheNewerOneAfterIt() {
        var passes = RenderPasses()
        let older = passes.begin(blogs)
        let newer = passes.begin(blogs)
        #expect(passes.mayCommit(older))
        passes.commit(older)
        passes.end(older)
        #expect(passes.isRendering(blogs))
        #expect(passes.mayCommit(newer))
    }

    @Test func modulesKeepTheirPassesApart() {
        var passes = RenderPasses()
        let blog = passes.begin(blogs)
        let info = passes.begin("info")
        #expect(!info.overlapped)
        passes.commit(info)
        #expect(passes.mayCommit(blog))
        #expect(info.number == 1 && blog.number == 1)
    }

    @Test func aBaselineSupersedesThePassesBegunBeforeItRenderedTheModule() {
        var passes = RenderPasses()
        let away = passes.begin(blogs)
        let noted = passes.latest(of: blogs)
        let afterwards = passes.begin(blogs)
        passes.supersede(blogs, through: noted)
        #expect(!passes.mayCommit(away), "the baseline's rendering is newer")
        #expect(passes.mayCommit(afterwards), "begun after the baseline rendered the module")
        #expect(passes.latest(of: "info") == 0)
    }
}
