import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import ProfileDemoStorePostgres
import Scenery
import SceneryTesting
import Testing

/// Open scenes on a real PostgreSQL server that goes away and comes back.
@Suite(.timeLimit(.minutes(5))) struct LiveDataOnPostgresTests {
    /// PostgreSQL is killed under an open page: the page's modules say that what they show
    /// may be out of date; once the server is back they fetch again, the notice goes, and
    /// changes reach the page as before.
    @Test func aPageShowsAStaleNoticeWhileThePostgreSQLServerIsAwayThenRecovers() async throws {
        let server = try await TestPostgres()
        let url = try await server.newDatabase()
        let store = try await PostgresProfileStore.connect(to: url, timeout: .seconds(5))
        let registry = try Backend.registry(ProfileServices(store))
        let host = RecordingHost()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "7", arguments: ["user": .string("1")]), host: host)
        await scene.appear()
        _ = await scene.takeBaseline()
        try await store.listen()
        host.reset()

        try await server.stop(immediately: true)
        let stale = "Couldn't show the latest"
        #expect(
            await host.waitForUpdates { updates in updates.contains { $0.module == "blogs" && $0.node.visibleTexts.contains { $0.contains(stale) } } },
            "the blogs module says what it shows may be out of date")
        let notice = await scene.render().texts(of: "blogs").filter { $0.contains(stale) }
        #expect(notice.contains { $0.contains("The data is out of reach for a moment") }, "and why, in plain words: \(notice)")
        // Nothing of the server's address reaches the page: no host, port, user or database.
        for secret in [url.host, ":\(url.port)", url.user, url.database, "PostgreSQL", "postgres://"] {
            #expect(!notice.contains { $0.contains(secret) }, "the page shows nothing of \(secret.quoted): \(notice)")
        }

        host.reset()
        try await server.start()
        // Back: the listener reconnects (backing off up to 2 s between attempts) and the
        // module's failed fetch is tried again every 2 s; under the thread sanitizer on two
        // busy cores that took more than the default 10 s once in CI, so this waits longer.
        #expect(
            await host.waitForUpdates(timeout: .seconds(60)) { updates in
                updates.contains { $0.module == "blogs" && !$0.node.visibleTexts.contains { $0.contains(stale) } }
            }, "back: the notice goes")
        #expect(await !scene.render().texts(of: "blogs").contains { $0.contains(stale) })

        host.reset()
        let other = try await PostgresProfileStore.connect(to: url)
        _ = try await other.setLiked(true, blog: 26, by: "2")
        #expect(await host.waitForUpdates(timeout: .seconds(60)) { $0.contains { $0.touches("blogs/blog.26") } }, "changes reach the page again")
        try await server.stop()
    }
}
