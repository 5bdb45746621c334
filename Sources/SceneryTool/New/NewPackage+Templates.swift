extension NewPackage {
    var packageManifest: String {
        #"""
        // swift-tools-version: 6.1
        // \#(name): an app on Scenery. `swift run \#(name) run welcome --arg name=Ada` runs its scene;
        // `swift test` runs its tests.
        import PackageDescription

        let package = Package(
            name: "\#(name)",
            platforms: [.macOS(.v15), .iOS(.v18)],
            products: [
                .library(name: "\#(modules)", targets: ["\#(modules)"]),
                .executable(name: "\#(name)", targets: ["\#(name)"]),
            ],
            dependencies: [
                \#(dependency.manifestLine)
            ],
            targets: [
                // The app's modules and scene files: what an app that shows them links. Scenery's
                // build plugin checks the scenes on every build.
                .target(
                    name: "\#(modules)",
                    dependencies: [
                        .product(name: "Scenery", package: "Scenery"),
                    ],
                    resources: [.copy("Scenes")],
                    plugins: [.plugin(name: "SceneryValidationPlugin", package: "Scenery")]),
                // The whole scenery tool with the app's modules: run, interact, serve, validate, list…
                .executableTarget(
                    name: "\#(name)",
                    dependencies: [
                        "\#(modules)", .product(name: "SceneryTool", package: "Scenery"),
                    ]),
                .testTarget(
                    name: "\#(name)Tests",
                    dependencies: [
                        "\#(modules)", "\#(name)",
                        .product(name: "Scenery", package: "Scenery"),
                        .product(name: "SceneryTesting", package: "Scenery"),
                        .product(name: "SceneryTool", package: "Scenery"),
                    ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """#
    }

    /// The README's commands, their comments aligned whatever the app's name.
    private var readmeCommands: String {
        let commands: [(command: String, comment: String?)] = [
            ("swift run \(name) run welcome --arg name=Ada", "the welcome scene, as text"),
            ("swift run \(name) interact welcome --arg name=Ada", nil),
            ("swift run \(name) serve", "live pages: http://127.0.0.1:8080/scenes/welcome?name=Ada"),
            ("swift test", "the tests"),
        ]
        let width = commands.filter { $0.comment != nil }.map(\.command.count).max() ?? 0
        return commands.map { line in
            guard let comment = line.comment else { return line.command }
            return line.command + String(repeating: " ", count: width - line.command.count) + "   # " + comment
        }.joined(separator: "\n")
    }

    var readme: String {
        #"""
        # \#(name)

        An app on Scenery: modules that each own their data and rendering, assembled into
        scenes by data files.

        ```sh
        \#(readmeCommands)
        ```

        - `Sources/\#(modules)/WelcomeModule.swift`: the first module. Write your own beside it
          (Scenery's guide "Writing a module"), and register it in
          `Sources/\#(name)/ModuleCatalog+\#(name).swift`.
        - `Sources/\#(modules)/Scenes/`: the scene files, and `\#(name.lowercased()).modules.json`, the
          module types the build plugin checks them against. After changing a module's
          parameters or events, generate it again:
          `swift run \#(name) list --manifest --type WelcomeModule > Sources/\#(modules)/Scenes/\#(name.lowercased()).modules.json`.
        - `Tests/\#(name)Tests/`: the module, tested with `ModuleHarness`.

        """#
    }

    var welcomeModule: String {
        #"""
        import Scenery

        /// Welcomes someone by name, and counts their waves: the app's first module. Replace it
        /// with your own (Scenery's guide "Writing a module").
        ///
        /// ```json
        /// { "id": "welcome", "type": "WelcomeModule", "params": { "name": "$name" } }
        /// ```
        public actor WelcomeModule: Module {
            /// What a wave carries: nothing but the tap.
            public struct Wave: Codable, Sendable {
                public init() {}
            }

            /// The wave button's event.
            public static let wave = EventKind("welcome.wave", payload: Wave.self)

            public static let descriptor = ModuleDescriptor(
                type: "WelcomeModule",
                summary: "Welcomes someone by name, and counts their waves.",
                parameters: [ParameterSpec("name", .string, summary: "Whom to welcome.")],
                sends: [wave],
                performs: [wave])

            private let name: String
            private let context: ModuleContext
            private var waves = 0
            /// The module runs on its page's executor: its calls to and from the scene are not hops.
            public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

            /// Creates the module from its scene's parameters.
            public init(parameters: ModuleParameters, context: ModuleContext) throws {
                name = try parameters.string("name")
                self.context = context
            }

            public func load(_ request: LoadRequest) async throws {}

            public func render() -> ViewNode {
                .stack(
                    "content",
                    [
                        .text("title", "Welcome, \(name)!", role: .title),
                        .text("waves", waves == 1 ? "1 wave" : "\(waves) waves", role: .caption),
                        .button("wave", title: "Wave", sends: Self.wave.descriptor(Wave())),
                    ])
            }

            /// A wave the scene let through: counted, and shown.
            public func perform(_ event: Event) async throws {
                guard (try? Self.wave.payload(of: event)) != nil else { return }
                waves += 1
                await context.setNeedsRender()
            }
        }

        """#
    }

    var scenesFolder: String {
        #"""
        import Foundation

        /// The package's scene files (`Sources/\#(modules)/Scenes`, shipped as resources).
        public enum \#(name)Scenes {
            /// Their folder among the package's resources.
            public static var directory: URL {
                (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appending(path: "Scenes", directoryHint: .isDirectory)
            }
        }

        """#
    }

    var welcomeScene: String {
        #"""
        {
          "title": "Welcome",
          "parameters": {
            "name": { "type": "string", "summary": "Whom to welcome." }
          },
          "modules": [
            { "id": "welcome", "type": "WelcomeModule", "params": { "name": "$name" } }
          ]
        }

        """#
    }

    var toolMain: String {
        #"""
        // The whole scenery tool with \#(name)'s modules (the catalog beside this file), and
        // `serve` for live pages in a browser.
        import SceneryServeTool
        import SceneryTool

        await SceneryTool.main(catalog: .\#(catalogName), adding: [.serve])

        """#
    }

    /// The catalog's name in Swift (`garden` for `Garden`).
    var catalogName: String { name.prefix(1).lowercased() + name.dropFirst() }

    var catalog: String {
        #"""
        import Scenery
        import SceneryTool
        import \#(modules)

        extension ModuleCatalog {
            /// \#(name)'s modules and scenes, for the tool.
            static var \#(catalogName): ModuleCatalog {
                ModuleCatalog(modules: [WelcomeModule.descriptor], scenes: \#(name)Scenes.directory) { registry, _ in
                    registry.register(WelcomeModule.self) { parameters, context in
                        try WelcomeModule(parameters: parameters, context: context)
                    }
                }
            }
        }

        """#
    }

    var welcomeTests: String {
        #"""
        import Foundation
        import Scenery
        import SceneryTesting
        import Testing
        import \#(modules)

        @Suite struct WelcomeModuleTests {
            @Test func itWelcomesByNameAndCountsWaves() async throws {
                let harness = try ModuleHarness(WelcomeModule.self, parameters: ["name": "Ada"]) {
                    try WelcomeModule(parameters: $0, context: $1)
                }
                try await harness.load { try RenderExpectation.shows("Welcome, Ada!").verify($0) }
                try await harness.tap("wave") { _ in }
                try await harness.receiveEvent("welcome.wave")
                try await harness.receiveUpdate { try RenderExpectation.shows("1 wave").verify($0) }
                try harness.finish()
            }

            /// The manifest the build plugin checks the scenes against is the module's own.
            @Test func theManifestBesideTheScenesIsTheModulesDescriptor() throws {
                let file = \#(name)Scenes.directory.appending(path: "\#(name.lowercased()).modules.json")
                let manifest = try ModuleManifest.load(from: file)
                #expect(manifest.modules == [WelcomeModule.descriptor])
            }
        }

        """#
    }
}
