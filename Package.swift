// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Scenery",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Scenery", targets: ["Scenery"]),
        .library(name: "SceneryTesting", targets: ["SceneryTesting"]),
        .library(name: "SceneryFaults", targets: ["SceneryFaults"]),
        .library(name: "SceneryScenes", targets: ["SceneryScenes"]),
        .library(name: "SceneryLive", targets: ["SceneryLive"]),
        .library(name: "SceneryExperiments", targets: ["SceneryExperiments"]),
        .library(name: "ProfileDomain", targets: ["ProfileDomain"]),
        .library(name: "ScenerySiteStore", targets: ["ScenerySiteStore"]),
        .library(name: "ProfileStore", targets: ["ProfileStore"]),
        .library(name: "ScenerySiteStorePostgres", targets: ["ScenerySiteStorePostgres"]),
        .library(name: "ProfileStorePostgres", targets: ["ProfileStorePostgres"]),
        .library(name: "SceneryProfile", targets: ["SceneryProfile"]),
        .library(name: "SceneryPageProtocol", targets: ["SceneryPageProtocol"]),
        .library(name: "SceneryServer", targets: ["SceneryServer"]),
        .library(name: "SceneryServerTesting", targets: ["SceneryServerTesting"]),
        .library(name: "SceneryRemote", targets: ["SceneryRemote"]),
        .library(name: "SceneryURLSession", targets: ["SceneryURLSession"]),
        .library(name: "SceneryTool", targets: ["SceneryTool"]),
        .library(name: "SceneryServeTool", targets: ["SceneryServeTool"]),
        .library(name: "ProfileTool", targets: ["ProfileTool"]),
        .library(name: "ProfileToolPostgres", targets: ["ProfileToolPostgres"]),
        .executable(name: "scenery", targets: ["SceneryCommand"]),
        .executable(name: "scenery-serve", targets: ["SceneryServeCommand"]),
        .executable(name: "SceneryValidator", targets: ["SceneryValidator"]),
        .executable(name: "scenery-bench", targets: ["SceneryBench"]),
        .executable(name: "cold-start-baseline", targets: ["ColdStartBaseline"]),
        .plugin(name: "SceneryValidationPlugin", targets: ["SceneryValidationPlugin"]),
        .plugin(name: "SceneryValidateCommand", targets: ["SceneryValidateCommand"]),
        .plugin(name: "SceneryRenderCommand", targets: ["SceneryRenderCommand"]),
    ],
    dependencies: [
        // Only the command-line tool (SceneryTool) uses this; the libraries depend on Foundation alone.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only SceneryServer (the live browser host) and its tests use these.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        // Already under Hummingbird; named for SceneryServer's HTTP client (NIOSceneTransport).
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // The page socket's HTTP/1 upgrade, served by NIO handlers (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        // Only ProfileStorePostgres (several servers on one PostgreSQL database) and what
        // links it (scenery-serve, its tests) use these: the Swift server standard client.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // The server's telemetry (already in the graph through Hummingbird): SceneryServer emits
        // through swift-metrics and swift-distributed-tracing, the APIs Swift servers read;
        // `serve --metrics` alone builds the Prometheus exposition (SceneryServeTool).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        // Spans for a page's opening and its events (already under Hummingbird too).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
    ],
    targets: [
        // The runtime: modules, view tree, scene files, registry, event router, renderers.
        .target(name: "Scenery", exclude: ["Localization/generate-plural-rules.py"]),
        .target(name: "SceneryTesting", dependencies: ["Scenery", "SceneryLive"]),
        // Fault injection for any service (failures and latency by service and operation):
        // what a tool's --fail and a module's tests use; no app needs it to show a scene.
        .target(name: "SceneryFaults", dependencies: ["Scenery"]),
        // Experiments' records kept and read: a JSON lines file, batched writes to a store,
        // per-arm counts and the sample-ratio check. The core assigns arms and counts
        // impressions; where they go and the statistics on them are an app's choice.
        .target(name: "SceneryExperiments", dependencies: ["Scenery", "SceneryLive"]),
        // The bundled scene files (top-level Scenes/) as package resources, so that a
        // dependency's scenes can extend them without a checkout on disk.
        // Listed one by one (SwiftPM copies no folder it is itself in); a test checks that
        // every file of Scenes/ is here. The build plugin validates them.
        .target(
            name: "SceneryScenes", dependencies: ["Scenery"], path: "Scenes",
            resources: [
                .copy("ar.messages.json"),
                .copy("blog-detail.json"),
                .copy("dark.tokens.json"),
                .copy("follow-list.json"),
                .copy("friend-list.json"),
                .copy("high-contrast.tokens.json"),
                .copy("light.tokens.json"),
                .copy("messages.schema.json"),
                .copy("scene.schema.json"),
                .copy("scenery-profile.modules.json"),
                .copy("user-blogs.json"),
                .copy("user-profile.json"),
                .copy("zh-Hans.messages.json"),
            ],
            // Validated on every build: a broken scene file fails `swift build`.
            plugins: ["SceneryValidationPlugin"]),

        // Live data for any app: its entities, the change hub and feed, a module's
        // subscription while visible, the notice and write bookkeeping modules share.
        .target(name: "SceneryLive", dependencies: ["Scenery"]),

        // The example profile domain: values and one service protocol per need.
        .target(name: "ProfileDomain", dependencies: ["Scenery", "SceneryLive"]),
        // The embedded default backend: the system's SQLite.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The site store on SQLite: connections, transactions and migrations an app uses for
        // its own tables (the profile store is one user of it).
        .target(name: "ScenerySiteStore", dependencies: ["Scenery", "SceneryLive", "SceneryExperiments", "CSQLite"]),
        .target(
            name: "ProfileStore", dependencies: ["Scenery", "SceneryLive", "SceneryExperiments", "ScenerySiteStore", "ProfileDomain"],
            resources: [.copy("Pictures")]),
        // The same contract on PostgreSQL, for several servers on one database (LISTEN/NOTIFY
        // carries changes between them). Its own target: nothing that embeds modules, and
        // not `scenery`'s quick start, builds a PostgreSQL client.
        // The site store on PostgreSQL: any app's tables, changes across servers (LISTEN/NOTIFY),
        // the action ledger. Its own target: nothing that embeds modules builds a PostgreSQL client.
        .target(
            name: "ScenerySiteStorePostgres",
            dependencies: [
                "Scenery", "SceneryLive", "SceneryExperiments",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .target(
            name: "ProfileStorePostgres",
            dependencies: [
                "Scenery", "SceneryLive", "SceneryExperiments", "ScenerySiteStorePostgres", "ProfileDomain", "ProfileStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),

        // The profile modules, each alone so the compiler keeps them apart.
        .target(name: "SceneryUserInfo", dependencies: ["Scenery", "SceneryLive", "ProfileDomain"]),
        .target(name: "SceneryBlogs", dependencies: ["Scenery", "SceneryLive", "ProfileDomain"]),
        .target(name: "SceneryDrafts", dependencies: ["Scenery", "SceneryLive", "ProfileDomain"]),
        .target(name: "SceneryUserList", dependencies: ["Scenery", "SceneryLive", "ProfileDomain"]),
        .target(
            name: "SceneryProfile",
            dependencies: ["Scenery", "SceneryFaults", "ProfileDomain", "SceneryUserInfo", "SceneryBlogs", "SceneryDrafts", "SceneryUserList"]),

        // The page protocol, typed for both ends (the server, `scenery connect`, the test kit, a
        // native host): Scenery alone, so a client builds no server.
        .target(name: "SceneryPageProtocol", dependencies: ["Scenery"]),

        // The live browser host: scenes as pages over HTTP, updates over WebSocket.
        .target(
            name: "SceneryServer",
            dependencies: [
                "Scenery", "SceneryLive", "SceneryPageProtocol", "SceneryRemote",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                // NIOSceneTransport: the scenery command fetches scenes over the NIO it carries for serve.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),

        // The server's test kit: one test body over an in-process or a live transport, pages
        // that speak the typed page protocol (HummingbirdTesting, as Hummingbird's own kit).
        .target(
            name: "SceneryServerTesting",
            dependencies: [
                "Scenery", "SceneryPageProtocol", "SceneryServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),

        // Scenes delivered without a release: fetched over HTTP(S), checked, cached, layered
        // over the bundled ones. The HTTP client is a protocol (SceneTransport):
        .target(name: "SceneryRemote", dependencies: ["Scenery"]),
        // …over URLSession, for apps. A target of its own because URLSession on Linux is
        // FoundationNetworking, which loads libcurl: only what fetches scenes links it.
        .target(name: "SceneryURLSession", dependencies: ["Scenery", "SceneryRemote"]),

        // The validator behind the build plugin (a plugin cannot use the target it is applied to).
        // It links no module: module types come from manifests (Scenes/scenery-profile.modules.json
        // for the profile modules, generated from their descriptors and checked by a test).
        .executableTarget(name: "SceneryValidator", dependencies: ["Scenery"]),
        // The scenery tool as a library: every command, for the modules of a ModuleCatalog,
        // so an outside package's executable is the whole tool with its own modules.
        .target(
            name: "SceneryTool",
            dependencies: [
                "Scenery", "SceneryExperiments", "SceneryFaults", "SceneryLive", "SceneryPageProtocol", "SceneryRemote",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `serve` as a command a tool adds (ToolCommand.serve): the only part of the tool that
        // builds the web server (Hummingbird, NIO, swift-crypto).
        .target(
            name: "SceneryServeTool",
            dependencies: [
                "SceneryTool", "Scenery", "SceneryExperiments", "SceneryServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        // The profile demo's catalog for the tool: its modules, the bundled scenes, its SQLite
        // files (ToolDatabase.profileFiles) and `data generate`. The tool itself knows no app.
        .target(
            name: "ProfileTool",
            dependencies: [
                "SceneryTool", "Scenery", "SceneryExperiments", "SceneryFaults", "SceneryLive", "SceneryScenes", "SceneryProfile", "ProfileStore",
                "ScenerySiteStore", "ProfileDomain", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The profile demo on PostgreSQL as a kind the tool opens (ToolDatabase.profilePostgres):
        // the only part of the demo's tool that builds the PostgreSQL client.
        .target(
            name: "ProfileToolPostgres", dependencies: ["SceneryTool", "ProfileTool", "ScenerySiteStorePostgres", "ProfileStorePostgres", "ProfileDomain"]),
        // `scenery` itself: SceneryTool with Scenery's own catalog, and no web server, so the
        // quick start compiles only what it runs; `scenery serve` runs `scenery-serve`.
        .executableTarget(name: "SceneryCommand", dependencies: ["SceneryTool", "ProfileTool"]),
        .executableTarget(name: "SceneryServeCommand", dependencies: ["SceneryTool", "SceneryServeTool", "ProfileTool", "ProfileToolPostgres"]),

        // Benchmarks: swift build -c release && .build/release/scenery-bench (never run by the tests).
        .executableTarget(
            name: "SceneryBench",
            dependencies: [
                "Scenery", "SceneryExperiments", "ProfileStore", "SceneryProfile", "SceneryScenes",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // What the scenery command's cold start is compared with: Foundation and a small JSON.
        .executableTarget(name: "ColdStartBaseline", path: "Benchmarks/ColdStartBaseline"),

        // Plugins: thin wrappers that find files and run the tools above.
        .plugin(name: "SceneryValidationPlugin", capability: .buildTool(), dependencies: ["SceneryValidator"]),
        .plugin(
            name: "SceneryValidateCommand",
            capability: .command(intent: .custom(verb: "scenery-validate", description: "Validate the package's scene files.")),
            dependencies: ["SceneryValidator"]),
        .plugin(
            name: "SceneryRenderCommand",
            capability: .command(intent: .custom(verb: "scenery-render", description: "Render one of the package's scenes."))),
        .testTarget(
            name: "SceneryTests", dependencies: ["Scenery", "SceneryExperiments", "SceneryLive", "SceneryTesting", "SceneryFaults"], exclude: ["Golden"]),
        .testTarget(name: "SceneryLiveTests", dependencies: ["SceneryLive", "Scenery", "SceneryTesting"]),
        .testTarget(
            name: "SceneryCommandTests",
            dependencies: [
                "SceneryCommand", "SceneryServeCommand", "SceneryTool", "ProfileTool", "Scenery", "SceneryExperiments", "SceneryPageProtocol", "SceneryServer",
                "ScenerySiteStore",
                "ProfileStore", "ProfileDomain",
            ]),
        .testTarget(
            name: "SceneFileToolingTests",
            dependencies: ["Scenery", "SceneryProfile", "SceneryScenes", "SceneryValidator"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "SceneryServerTests",
            dependencies: [
                "SceneryServer", "SceneryServerTesting", "SceneryPageProtocol", "Scenery", "SceneryTesting", "SceneryProfile", "ProfileStore",
                "ProfileDomain", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        .testTarget(
            name: "SceneryRemoteTests",
            dependencies: [
                "SceneryRemote", "SceneryURLSession", "SceneryServer", "SceneryTool", "ProfileTool", "Scenery", "SceneryTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        // The guides' Swift samples as code that compiles and runs, and the check that every
        // ```swift block of the README and the articles stands in it.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Scenery", "SceneryTesting", "SceneryScenes", "SceneryLive", "ScenerySiteStore", "ProfileDomain", "ProfileStore", "SceneryProfile",
                "SceneryBlogs", "SceneryRemote", "SceneryURLSession", "SceneryServer", "SceneryServerTesting", "SceneryExperiments",
                "ScenerySiteStorePostgres", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ProfileTests",
            dependencies: [
                "Scenery", "SceneryTesting", "SceneryExperiments", "SceneryFaults", "SceneryLive", "ScenerySiteStore", "ScenerySiteStorePostgres",
                "ProfileDomain",
                "ProfileStore",
                "SceneryProfile",
                "SceneryUserInfo", "SceneryBlogs", "SceneryDrafts", "SceneryUserList", "ProfileStorePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
