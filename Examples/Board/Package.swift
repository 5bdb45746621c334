// swift-tools-version: 6.1
// A second app on Scenery, of another domain than its demo: each member's board of tasks, which
// the board's members tick off live (across pages and servers) and only its owner clears out.
// Its own tables on Scenery's site store, its own entities, its own tool — public API only.
import PackageDescription

let package = Package(
    name: "Board",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Board", targets: ["Board"]),
        .library(name: "BoardStore", targets: ["BoardStore"]),
        .library(name: "BoardStorePostgres", targets: ["BoardStorePostgres"]),
        .executable(name: "board", targets: ["board"]),
    ],
    dependencies: [
        // In an app: .package(url: "https://github.com/…/Scenery", from: "0.2.0").
        .package(name: "Scenery", path: "../.."),
        // The PostgreSQL client the store's queries are written with (already under Scenery's).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
    ],
    targets: [
        // The module, the service it calls and what it follows live, and the scene file: what
        // an app that shows a board links (no store, no tool, no web server). Scenery's build
        // plugin validates the scene against the module manifest beside it on every build.
        .target(
            name: "Board",
            dependencies: [
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
            ],
            resources: [.copy("Scenes")],
            plugins: [.plugin(name: "SceneryValidationPlugin", package: "Scenery")]),
        // The board's tables on Scenery's SQLite site store: members, tasks, the changes every
        // process on the file hears, the action ledger and experiments' records.
        .target(
            name: "BoardStore",
            dependencies: [
                "Board",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
                .product(name: "ScenerySiteStore", package: "Scenery"),
            ]),
        // The same tables on Scenery's PostgreSQL site store, for several servers on one
        // database (writes announced with NOTIFY).
        .target(
            name: "BoardStorePostgres",
            dependencies: [
                "Board", "BoardStore",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
                .product(name: "ScenerySiteStorePostgres", package: "Scenery"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        // The whole scenery tool for the board, on SQLite files and postgres:// databases:
        // run, interact, connect, serve, validate, list, data, experiments.
        .executableTarget(
            name: "board",
            dependencies: [
                "Board", "BoardStore", "BoardStorePostgres",
                .product(name: "ScenerySiteStore", package: "Scenery"),
                .product(name: "ScenerySiteStorePostgres", package: "Scenery"),
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
                .product(name: "SceneryTool", package: "Scenery"),
            ]),
        .testTarget(
            name: "BoardTests",
            dependencies: [
                "Board", "BoardStore", "board",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
                .product(name: "SceneryTesting", package: "Scenery"),
                .product(name: "SceneryTool", package: "Scenery"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
