// swift-tools-version: 6.1
// An outside package: a module Scenery does not have (a recycle bin of deleted blogs, for
// their owner only), its scene, and the whole scenery tool with it — no edit to Scenery.
import PackageDescription

let package = Package(
    name: "RecycleBin",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "RecycleBin", targets: ["RecycleBin"]),
        .executable(name: "recycle-bin", targets: ["recycle-bin"]),
    ],
    dependencies: [
        // In an app: .package(url: "https://github.com/…/Scenery", from: "0.2.0").
        .package(name: "Scenery", path: "../..")
    ],
    targets: [
        // The module, its service and its scene files: what an app that shows the bin links
        // (Scenery, its bundled scenes that ours extend, and the profile domain; no tool, no
        // web server). Scenery's build plugin validates the scenes on every build, against
        // the bundled ones they extend and the module types of both packages' manifests.
        .target(
            name: "RecycleBin",
            dependencies: [
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "ProfileDemo", package: "Scenery"),
            ],
            resources: [.copy("Scenes")],
            plugins: [.plugin(name: "SceneryValidationPlugin", package: "Scenery")]),
        // The full scenery tool with the recycle bin: the catalog that registers it, and serve.
        .executableTarget(
            name: "recycle-bin",
            dependencies: [
                "RecycleBin",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryTool", package: "Scenery"),
                .product(name: "ProfileDemo", package: "Scenery"),
            ]),
        .testTarget(
            name: "RecycleBinTests",
            dependencies: [
                "RecycleBin", "recycle-bin",
                .product(name: "Scenery", package: "Scenery"),
                .product(name: "SceneryTesting", package: "Scenery"),
                .product(name: "SceneryTool", package: "Scenery"),
                .product(name: "ProfileDemo", package: "Scenery"),
            ],
            // Recorded scene scripts, read from (and recorded into) the checkout.
            exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)
