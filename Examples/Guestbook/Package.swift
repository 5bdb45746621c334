// swift-tools-version: 6.1
// A part of someone else's app: a guestbook on the bundled profile (messages visitors sign,
// which the profile's owner may delete), with its own tables and data beside the profile's,
// on SQLite and PostgreSQL. No edit to Scenery, and no manifest written by hand.
import PackageDescription

let package = Package(
    name: "Guestbook",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In an app: .package(url: "https://github.com/…/Scenery", from: "0.2.0").
        .package(name: "Scenery", path: "../..")
    ],
    targets: [
        // The module, its service and the scene that adds it to the profile.
        .target(
            name: "Guestbook",
            dependencies: [
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
                .product(name: "ProfileDemo", package: "Scenery"),
            ],
            resources: [.copy("Scenes")],
            plugins: [.plugin(name: "SceneryValidationPlugin", package: "Scenery")]),
        // The tool: the profile and the guestbook, their stores on SQLite and PostgreSQL.
        .executableTarget(
            name: "guestbook",
            dependencies: [
                "Guestbook",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryLive", package: "Scenery"),
                .product(name: "ScenerySiteStore", package: "Scenery"),
                .product(name: "ScenerySiteStorePostgres", package: "Scenery"),
                .product(name: "SceneryTool", package: "Scenery"),
                .product(name: "ProfileDemo", package: "Scenery"),
                .product(name: "ProfileDemoPostgres", package: "Scenery"),
            ]),
        .testTarget(
            name: "GuestbookTests",
            dependencies: [
                "Guestbook", "guestbook",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryTesting", package: "Scenery"),
                .product(name: "SceneryServer", package: "Scenery"),
                .product(name: "SceneryServerTesting", package: "Scenery"),
                .product(name: "SceneryTool", package: "Scenery"),
                .product(name: "ProfileDemo", package: "Scenery"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
