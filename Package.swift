// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Scenery",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // The framework, in nine products (a product may carry a few modules; import the ones
        // you use). Optional parts are products of their own: PostgreSQL, serving, testing.
        // The runtime: modules, view tree, scene files, registry, event router, renderers, over
        // its text layer (SceneryText, re-exported); and fault injection for any service
        // (SceneryFaults), imported by what uses it.
        .library(name: "Scenery", targets: ["Scenery", "SceneryText", "SceneryViewTree", "ScenerySceneFiles", "SceneryRendering", "SceneryFaults"]),
        // Live data (entities, the change hub and feed) and experiments' records kept and read.
        .library(name: "SceneryLive", targets: ["SceneryLive", "SceneryExperiments"]),
        // An app's own tables and its changes on SQLite; the same on PostgreSQL (optional).
        .library(name: "ScenerySiteStore", targets: ["ScenerySiteStore"]),
        .library(name: "ScenerySiteStorePostgres", targets: ["ScenerySiteStorePostgres"]),
        // Scenes as live pages in a browser, and the page protocol typed for both ends.
        .library(name: "SceneryServer", targets: ["SceneryServer", "SceneryPageProtocol"]),
        // Scenes delivered without a release, and a native host's end of the page protocol.
        .library(name: "SceneryRemote", targets: ["SceneryRemote", "SceneryURLSession", "SceneryPageProtocol"]),
        // Module tests: the harness, recorded scripts, a store's conformance.
        .library(name: "SceneryTesting", targets: ["SceneryTesting"]),
        // The server's test kit: pages that speak the page protocol, in process or live.
        .library(name: "SceneryServerTesting", targets: ["SceneryServerTesting"]),
        // The scenery command-line tool as a library, `serve` included, for an app's own modules.
        .library(name: "SceneryTool", targets: ["SceneryTool", "SceneryServeTool"]),

        // The profile demo (Sources/ProfileDemo, the scenes of Scenes/): what `scenery run`
        // shows, and what a package extends to add a part to it (Examples/Guestbook).
        .library(
            name: "ProfileDemo",
            targets: [
                "ProfileDemo", "ProfileDemoDomain", "ProfileDemoUserInfo", "ProfileDemoBlogs", "ProfileDemoDrafts",
                "ProfileDemoUserList", "ProfileDemoStore", "ProfileDemoTool", "ProfileDemoScenes",
            ]),
        // …on PostgreSQL.
        .library(name: "ProfileDemoPostgres", targets: ["ProfileDemoStorePostgres", "ProfileDemoToolPostgres"]),
        // …its scene files alone (with its modules' manifest): what a package's build plugin
        // reads to check scenes that extend them, without compiling the demo.
        .library(name: "ProfileDemoScenes", targets: ["ProfileDemoScenes"]),

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
        // Without its default trait ConfigurationSupport (reading an application's settings
        // through swift-configuration, which the server does not use): that trait builds
        // swift-configuration and swift-system, about 33,000 lines, in every build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: ["FullFoundation"]),
        // The test kit's WebSocket client (SceneryServerTesting), and the services it runs an
        // application under test with (both already under Hummingbird).
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        // Already under Hummingbird; named for SceneryServer's sockets and the tests' HTTP client.
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // The page socket's HTTP/1 upgrade, served by NIO handlers (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        // Only ProfileDemoStorePostgres (several servers on one PostgreSQL database) and what
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
        .target(name: "Scenery", dependencies: ["SceneryText", "SceneryViewTree", "ScenerySceneFiles", "SceneryRendering"]),
        // The core's view-tree layer: the platform-neutral tree a scene renders to, its ids,
        // forms, events and JSON values, and the diff and patches between two trees. What a
        // renderer, the page protocol or a client needs without the runtime.
        .target(name: "SceneryViewTree", dependencies: ["SceneryText"]),
        // The core's scene-file layer: the JSON reader that keeps every value's line and
        // column, diagnostics with did-you-mean, and the scene-file parser with what it reads
        // (definitions, variants, conditions, templates, transitions, rules, parameters,
        // experiments). Themes, catalogs and data sets are read with it too. The validator
        // checks definitions against modules' descriptors and is the runtime's.
        .target(name: "ScenerySceneFiles", dependencies: ["SceneryText", "SceneryViewTree"]),
        // The core's rendering layer: the text, HTML and JSON renderers of a view tree, the
        // terminal's text, the page stylesheet and themes with their contrast checks. It
        // draws trees and knows nothing of scenes or modules' lives.
        .target(name: "SceneryRendering", dependencies: ["SceneryText", "SceneryViewTree", "ScenerySceneFiles"]),
        // The core's first layer, below the runtime: messages (ICU MessageFormat), plural
        // rules from CLDR, locales and language tags, the pseudo-locale. Nothing of scenes,
        // modules or views: the compiler keeps the direction (it cannot import Scenery).
        .target(name: "SceneryText", exclude: ["generate-plural-rules.py"]),
        .target(name: "SceneryTesting", dependencies: ["Scenery", "SceneryLive"]),
        // Fault injection for any service (failures and latency by service and operation):
        // what a tool's --fail and a module's tests use; no app needs it to show a scene.
        .target(name: "SceneryFaults", dependencies: ["Scenery"]),
        // Experiments' records kept and read: a JSON lines file, batched writes to a store,
        // per-arm counts and the sample-ratio check. The core assigns arms and counts
        // impressions; where they go and the statistics on them are an app's choice.
        .target(name: "SceneryExperiments", dependencies: ["Scenery", "SceneryLive"]),
        // The profile demo's scene files (top-level Scenes/) as package resources, so that a
        // dependency's scenes can extend them without a checkout on disk.
        // Listed one by one (SwiftPM copies no folder it is itself in); a test checks that
        // every file of Scenes/ is here. The build plugin validates them.
        .target(
            name: "ProfileDemoScenes", dependencies: ["Scenery"], path: "Scenes",
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

        // The embedded default backend: the system's SQLite.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The site store on SQLite: connections, transactions and migrations an app uses for
        // its own tables (the profile store is one user of it).
        .target(name: "ScenerySiteStore", dependencies: ["Scenery", "SceneryLive", "SceneryExperiments", "CSQLite"]),
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
        // that speak the typed page protocol, and a client of any Hummingbird application
        // (`test(.router)`, `test(.live)`) for the package's own tests.
        .target(
            name: "SceneryServerTesting",
            dependencies: [
                "Scenery", "SceneryPageProtocol", "SceneryServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "WSClient", package: "swift-websocket"),
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
        // The profile demo (Sources/ProfileDemo): what `scenery run` shows, and what
        // Examples/Guestbook extends. None of it is framework; its names say so, and an app's
        // own targets (ProfileDomain, ProfileStore) never collide with them.
        // Its domain: values and one service protocol per need.
        .target(name: "ProfileDemoDomain", dependencies: ["Scenery", "SceneryLive"], path: "Sources/ProfileDemo/ProfileDemoDomain"),
        // Its modules, each alone so the compiler keeps them apart, and their registration.
        .target(name: "ProfileDemoUserInfo", dependencies: ["Scenery", "SceneryLive", "ProfileDemoDomain"], path: "Sources/ProfileDemo/ProfileDemoUserInfo"),
        .target(name: "ProfileDemoBlogs", dependencies: ["Scenery", "SceneryLive", "ProfileDemoDomain"], path: "Sources/ProfileDemo/ProfileDemoBlogs"),
        .target(name: "ProfileDemoDrafts", dependencies: ["Scenery", "SceneryLive", "ProfileDemoDomain"], path: "Sources/ProfileDemo/ProfileDemoDrafts"),
        .target(name: "ProfileDemoUserList", dependencies: ["Scenery", "SceneryLive", "ProfileDemoDomain"], path: "Sources/ProfileDemo/ProfileDemoUserList"),
        .target(
            name: "ProfileDemo",
            dependencies: [
                "Scenery", "SceneryFaults", "ProfileDemoDomain", "ProfileDemoUserInfo", "ProfileDemoBlogs", "ProfileDemoDrafts", "ProfileDemoUserList",
            ],
            path: "Sources/ProfileDemo/ProfileDemo"),
        // Its store on the SQLite site store, with the demo's pictures.
        .target(
            name: "ProfileDemoStore",
            dependencies: ["Scenery", "SceneryLive", "SceneryExperiments", "ScenerySiteStore", "ProfileDemoDomain"],
            path: "Sources/ProfileDemo/ProfileDemoStore",
            resources: [.copy("Pictures")]),
        // …and on PostgreSQL, for several servers on one database: nothing that embeds the
        // modules, and not `scenery`'s quick start, builds a PostgreSQL client.
        .target(
            name: "ProfileDemoStorePostgres",
            dependencies: [
                "Scenery", "SceneryLive", "SceneryExperiments", "ScenerySiteStorePostgres", "ProfileDemoDomain", "ProfileDemoStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/ProfileDemo/ProfileDemoStorePostgres"),
        // Its catalog for the tool: its modules, the bundled scenes, its SQLite files
        // (ToolDatabase.profileFiles) and `data generate`. The tool itself knows no app.
        .target(
            name: "ProfileDemoTool",
            dependencies: [
                "SceneryTool", "Scenery", "SceneryExperiments", "SceneryFaults", "SceneryLive", "ProfileDemoScenes", "ProfileDemo",
                "ProfileDemoStore", "ScenerySiteStore", "ProfileDemoDomain", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/ProfileDemo/ProfileDemoTool"),
        // The demo on PostgreSQL as a kind the tool opens (ToolDatabase.profilePostgres): the
        // only part of the demo's tool that builds the PostgreSQL client.
        .target(
            name: "ProfileDemoToolPostgres",
            dependencies: ["SceneryTool", "ProfileDemoTool", "ScenerySiteStorePostgres", "ProfileDemoStorePostgres", "ProfileDemoDomain"],
            path: "Sources/ProfileDemo/ProfileDemoToolPostgres"),

        // `scenery` itself: SceneryTool with Scenery's own catalog, and no web server, so the
        // quick start compiles only what it runs; `scenery serve` runs `scenery-serve`.
        .executableTarget(name: "SceneryCommand", dependencies: ["SceneryTool", "ProfileDemoTool"]),
        .executableTarget(name: "SceneryServeCommand", dependencies: ["SceneryTool", "SceneryServeTool", "ProfileDemoTool", "ProfileDemoToolPostgres"]),

        // Benchmarks: swift build -c release && .build/release/scenery-bench (never run by the tests).
        .executableTarget(
            name: "SceneryBench",
            dependencies: [
                "Scenery", "SceneryExperiments", "ProfileDemoStore", "ProfileDemo", "ProfileDemoScenes",
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
            name: "SceneryTests", dependencies: ["Scenery", "SceneryText", "SceneryExperiments", "SceneryLive", "SceneryTesting", "SceneryFaults"],
            exclude: ["Golden"]),
        .testTarget(name: "SceneryLiveTests", dependencies: ["SceneryLive", "Scenery", "SceneryTesting"]),
        .testTarget(
            name: "SceneryCommandTests",
            dependencies: [
                "SceneryCommand", "SceneryServeCommand", "SceneryTool", "ProfileDemoTool", "Scenery", "SceneryExperiments", "SceneryPageProtocol",
                "SceneryServer",
                "ScenerySiteStore",
                "ProfileDemoStore", "ProfileDemoDomain",
            ]),
        .testTarget(
            name: "SceneFileToolingTests",
            dependencies: ["Scenery", "ProfileDemo", "ProfileDemoScenes", "SceneryValidator"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "SceneryServerTests",
            dependencies: [
                "SceneryServer", "SceneryServerTesting", "SceneryPageProtocol", "Scenery", "SceneryTesting", "ProfileDemo", "ProfileDemoStore",
                "ProfileDemoDomain", .product(name: "WSClient", package: "swift-websocket"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        .testTarget(
            name: "SceneryRemoteTests",
            dependencies: [
                "SceneryRemote", "SceneryURLSession", "SceneryServer", "SceneryTool", "ProfileDemoTool", "Scenery", "SceneryTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                // NIOSceneTransport, the tests' transport over SwiftNIO.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // The guides' Swift samples as code that compiles and runs, and the check that every
        // ```swift block of the README and the articles stands in it.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Scenery", "SceneryText", "SceneryViewTree", "ScenerySceneFiles", "SceneryRendering", "SceneryTesting", "ProfileDemoScenes", "SceneryLive",
                "ScenerySiteStore", "ProfileDemoDomain",
                "ProfileDemoStore",
                "ProfileDemo",
                "ProfileDemoBlogs", "SceneryRemote", "SceneryURLSession", "SceneryServer", "SceneryServerTesting", "SceneryExperiments",
                "ScenerySiteStorePostgres", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ProfileTests",
            dependencies: [
                "Scenery", "SceneryTesting", "SceneryExperiments", "SceneryFaults", "SceneryLive", "ScenerySiteStore", "ScenerySiteStorePostgres",
                "ProfileDemoDomain",
                "ProfileDemoStore",
                "ProfileDemo",
                "ProfileDemoUserInfo", "ProfileDemoBlogs", "ProfileDemoDrafts", "ProfileDemoUserList", "ProfileDemoStorePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// A build of some test suites alone: SCENERY_TEST_TARGETS="SceneryTests,ProfileTests" keeps
// those test targets and the targets they reach, and drops the rest, the products (a test
// build needs none) and the build plugin: it validates scene files and writes the typed
// `BundledScene` list, which only the file tooling's tests use, and its tool is built for the
// host with a copy of the core of its own (the scene files are validated by the whole
// package's build). CI's thread-sanitizer pass builds the suites that exercise concurrency
// this way instead of the whole package a second time (.ci/run).
if let names = Context.environment["SCENERY_TEST_TARGETS"] {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var kept = Set<String>()
    var waiting = names.split(separator: ",").map(String.init)
    while let name = waiting.popLast() {
        guard let target = byName[name] else { fatalError("SCENERY_TEST_TARGETS names '\(name)', which is no target of this package.") }
        guard kept.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): if byName[name] != nil { waiting.append(name) }
            case .productItem: break
            @unknown default: break
            }
        }
    }
    package.targets = package.targets.filter { kept.contains($0.name) }
    for target in package.targets { target.plugins = nil }
    package.products = []
}

// The thread sanitizer on this package's own code only: SCENERY_SANITIZE=thread instruments
// the library targets of this package, where the framework's concurrent code is (and links
// the sanitizer's runtime into its tests and tools, which are not instrumented: a test's
// own code is not what the pass checks, and uninstrumented they are mostly not compiled
// again), while the dependencies stay as the debug build compiled them. CI's
// thread-sanitizer pass builds this way in the debug build's folder, so SwiftNIO, Hummingbird
// and PostgresNIO are not compiled a second time (.ci/run); their locks, threads and
// Swift concurrency's jobs are still seen by the sanitizer's runtime, which intercepts them.
if let sanitizer = Context.environment["SCENERY_SANITIZE"] {
    guard sanitizer == "thread" else { fatalError("SCENERY_SANITIZE is '\(sanitizer)'; the one sanitizer it takes is 'thread'.") }
    for target in package.targets where [.regular, .executable, .test].contains(target.type) {
        if target.type == .regular {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=thread"])]
        } else {
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=thread"])]
        }
    }
}
