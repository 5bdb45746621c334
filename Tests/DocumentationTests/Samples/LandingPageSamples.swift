// The samples of the products' landing pages (SceneryLive, SceneryExperiments,
// SceneryServer, ScenerySiteStore, ScenerySiteStorePostgres), as code that compiles, on an
// app of another domain than the demo's (a board of tasks, LiveDataSamples.swift's
// `BoardChange`). DocumentationSampleTests checks that each page's block stands here line
// for line. The ones that open files, databases or ports only compile; the rest run.
import Foundation
import Logging
import PostgresNIO
import Scenery
import SceneryExperiments
import SceneryLive
import SceneryServer
import ScenerySiteStore
import ScenerySiteStorePostgres
import Testing

@Suite struct LandingPageSamples {
    @Test func aPublishedTaskIsAChangeWhatFollowsItSees() {
        let hub = ChangeHub<BoardChange>()
        let live = LiveChanges(hub)
        live.follow([.task(7)]) { change in print("fetch \(change) again") }
        hub.publish([.task(7)])
        #expect(live.changed(since: 0))
        #expect(!live.changed([.task(8)], since: 0))
    }
}

/// A board's impressions table, as the experiments page's sample writes to it.
struct ImpressionTable: Sendable {
    func insert(_ records: [ImpressionRecord]) async throws(DataError) {}
}

func recordImpressions(into registry: inout SceneRegistry, store: ImpressionTable) throws {
    registry.impressionSink = try JSONLinesImpressionSink(path: "impressions.jsonl")
    // Or batched into the app's own table, retried while the database is away:
    registry.impressionSink = DatabaseImpressionSink { records throws(DataError) in try await store.insert(records) }
}

func serveTheBoard(registry: SceneRegistry, users: [SignInUser]) async throws {
    let server = SceneryServer(registry: registry, users: users, configuration: .init(port: 8080))
    try await server.run()
}

func finishATaskOnSQLite() throws {
    let board = SiteSchema(
        app: "board",
        steps: [
            "CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)"
        ])
    let store = try SQLiteSiteStore(path: "board.sqlite", schemas: [board])
    let feed = store.feed(of: BoardChange.self)  // what the board's modules follow
    try store.withConnection { connection throws(DataError) in
        try store.commit([BoardChange.task(7)], in: connection) { () throws(DataError) in
            try connection.run("UPDATE tasks SET done = 1 WHERE id = 7")
        }
    }
    _ = feed
}

func finishATaskOnPostgres() async throws {
    let board = PostgresSiteSchema(
        app: "board",
        steps: [
            "CREATE TABLE tasks (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT false)"
        ])
    let store = try await PostgresSiteStore.connect(to: PostgresURL("postgres://scenery@127.0.0.1/board"), schemas: [board])
    let feed = store.feed(of: BoardChange.self)
    try await store.writing("finish a task", announcing: [BoardChange.task(7)]) { connection, logger in
        try await connection.query("UPDATE tasks SET done = true WHERE id = 7", logger: logger)
    }
    _ = feed
}
