// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Scenery",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Scenery", targets: ["Scenery"]),
        .library(name: "SceneryTesting", targets: ["SceneryTesting"]),
        .executable(name: "scenery", targets: ["SceneryCommand"]),
    ],
    dependencies: [
        // Only the command-line tool uses this; the libraries depend on Foundation alone.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .target(name: "Scenery"),
        .target(name: "SceneryTesting", dependencies: ["Scenery"]),
        .executableTarget(
            name: "SceneryCommand",
            dependencies: [
                "Scenery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SceneryTests", dependencies: ["Scenery", "SceneryTesting"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
