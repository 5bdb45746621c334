import Scenery

/// The files of a new part (`scenery new NAME --part`): a feature package that adds a module
/// to the bundled profile, with its tables and data in the profile's database.
extension NewPackage {
    /// The part's name in lower case: its tables' prefix, its section of a data file, its
    /// events' prefix and its module's id in the scene.
    var lowerName: String { name.lowercased() }

    /// The executable: the whole tool with the profile and the part.
    var partTool: String { "\(name)Tool" }

    /// The part's module's descriptor, as the generated Swift declares it: what the manifest lists.
    static func partDescriptor(named name: String) -> ModuleDescriptor {
        ModuleDescriptor(
            type: "\(name)Module", summary: "A count on someone's profile that signed-in visitors add to, once each.",
            parameters: [ParameterSpec("owner", .userID, summary: "Whose profile.")], events: ["\(name.lowercased()).add"],
            defaultActions: ["\(name.lowercased()).add"])
    }

    /// The part's files, by path in the package.
    var partFiles: [String: String] {
        [
            "Package.swift": partManifest,
            ".gitignore": ".build/\n.build-*/\nPackage.resolved\n.swiftpm/\n",
            "README.md": partReadme,
            "Sources/\(name)/\(name).swift": partService,
            "Sources/\(name)/\(name)Module.swift": partModule,
            "Sources/\(name)/\(name)Scenes.swift": partScenesFolder,
            "Sources/\(name)/Scenes/user-profile.json": partScene,
            "Sources/\(name)/Scenes/\(lowerName).modules.json": (try? ModuleManifest(modules: [Self.partDescriptor(named: name)]).jsonText()) ?? "",
            "Sources/\(partTool)/SQLite\(name).swift": partStore,
            "Sources/\(partTool)/main.swift": partMain,
            "Tests/\(name)Tests/\(name)ModuleTests.swift": partTests,
        ]
    }

    var partManifest: String {
        #"""
        // swift-tools-version: 6.1
        // \#(name): a part of Scenery's bundled profile. `swift run \#(partTool) run user-profile --viewer 2 --arg user=1`
        // shows it on Alice's profile as Bob sees it; `swift test` runs its tests.
        import PackageDescription

        let package = Package(
            name: "\#(name)",
            platforms: [.macOS(.v15), .iOS(.v18)],
            products: [
                .library(name: "\#(name)", targets: ["\#(name)"]),
                .executable(name: "\#(partTool)", targets: ["\#(partTool)"]),
            ],
            dependencies: [
                \#(dependency.manifestLine)
            ],
            targets: [
                // The part's module and the scene that adds it to the bundled profile: what an app
                // that shows it links. Scenery's build plugin checks the scene on every build.
                .target(
                    name: "\#(name)",
                    dependencies: [
                        .product(name: "Scenery", package: "Scenery"),
                        .product(name: "SceneryLive", package: "Scenery"),
                        .product(name: "ProfileDemo", package: "Scenery"),
                    ],
                    resources: [.copy("Scenes")],
                    plugins: [.plugin(name: "SceneryValidationPlugin", package: "Scenery")]),
                // The whole scenery tool with the profile and the part, whose tables and data live
                // in the profile's database.
                .executableTarget(
                    name: "\#(partTool)",
                    dependencies: [
                        "\#(name)",
                        .product(name: "Scenery", package: "Scenery"),
                        .product(name: "SceneryLive", package: "Scenery"),
                        .product(name: "ScenerySiteStore", package: "Scenery"),
                        .product(name: "SceneryTool", package: "Scenery"),
                        .product(name: "ProfileDemo", package: "Scenery"),
                    ]),
                .testTarget(
                    name: "\#(name)Tests",
                    dependencies: [
                        "\#(name)", "\#(partTool)",
                        .product(name: "Scenery", package: "Scenery"),
                        .product(name: "ScenerySiteStore", package: "Scenery"),
                        .product(name: "SceneryTesting", package: "Scenery"),
                    ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """#
    }

    var partReadme: String {
        #"""
        # \#(name)

        A part of Scenery's bundled profile: a module on everyone's profile, its tables and
        data in the profile's database (one migration, one data file, one transaction).

        ```sh
        swift run \#(partTool) run user-profile --viewer 2 --arg user=1   # Alice's profile as Bob sees it
        swift run \#(partTool) data export data.json                      # the profile's data and the part's
        swift run \#(partTool) serve                                      # http://127.0.0.1:8080
        swift test
        ```

        - `Sources/\#(name)/\#(name)Module.swift`: the module, live on every open page. Make it yours
          (Scenery's guide "Writing a module").
        - `Sources/\#(name)/Scenes/user-profile.json`: extends the bundled `user-profile` with the
          module. `\#(lowerName).modules.json` beside it is generated: after changing the module's
          parameters or events, `swift run \#(partTool) list --manifest --type \#(name)Module > Sources/\#(name)/Scenes/\#(lowerName).modules.json`
          (a module not in it yet still builds; the build says so).
        - `Sources/\#(partTool)/SQLite\#(name).swift`: the part's tables (`SiteSchema`) and data
          (`SiteDataSet`) on the profile's SQLite database. To serve on PostgreSQL too, add a
          `PostgresSiteSchema` and a `PostgresDataSet` (Scenery's `Examples/Guestbook` has both).
        - `Sources/\#(partTool)/main.swift`: the catalog part and the tool, `.profile + .\#(catalogName)`.

        """#
    }

    var partService: String {
        #"""
        import SceneryLive

        /// What changes in \#(name): the count on one person's profile.
        public enum \#(name)Change: LiveEntity, RecordedEntity {
            case owner(String)
            case everything

            public static let app = "\#(lowerName)"
            public var description: String { record.kind + " " + record.id }
            public var record: (kind: String, id: String) {
                if case .owner(let owner) = self { ("owner", owner) } else { ("everything", "") }
            }
            public init?(kind: String, id: String) {
                guard kind == "owner", !id.isEmpty else { return nil }
                self = .owner(id)
            }
        }

        /// What the module calls; its changes are ``\#(name)Change``s.
        public protocol \#(name)Service: ChangeFeed where Entity == \#(name)Change {
            /// The count on `owner`'s profile.
            func count(for owner: String) async throws -> Int
            /// Adds `visitor`'s one to `owner`'s count (again: nothing changes), and returns the count.
            func add(to owner: String, from visitor: String) async throws -> Int
        }

        """#
    }

    var partModule: String {
        #"""
        import Scenery
        import SceneryLive

        /// A count on someone's profile that signed-in visitors add to, once each, shown live on
        /// every open page of the profile: the part's first module. Make it yours.
        ///
        /// ```json
        /// { "id": "\#(lowerName)", "type": "\#(name)Module", "params": { "owner": "$user" } }
        /// ```
        public actor \#(name)Module: Module {
            /// What adding carries: nothing but the tap.
            public struct Add: Codable, Sendable {
                public init() {}
            }

            public static let add = EventKind("\#(lowerName).add", payload: Add.self)

            public static let descriptor = ModuleDescriptor(
                type: "\#(name)Module",
                summary: "A count on someone's profile that signed-in visitors add to, once each.",
                parameters: [ParameterSpec("owner", .userID, summary: "Whose profile.")],
                sends: [add],
                performs: [add])

            private let owner: String
            private let service: any \#(name)Service
            private let context: ModuleContext
            private let live: LiveQuery<\#(name)Module, \#(name)Change>
            private var count = 0
            /// The module runs on its page's executor: its calls to and from the scene are not hops.
            public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

            public init(parameters: ModuleParameters, context: ModuleContext, service: some \#(name)Service) throws {
                owner = try parameters.string("owner")
                self.service = service
                self.context = context
                live = LiveQuery(service, context: context) { module, _ in
                    module.count = try await module.service.count(for: module.owner)
                    await module.context.setNeedsRender()
                }
            }

            public func load(_ request: LoadRequest) async throws { count = try await service.count(for: owner) }

            public func appear() async { await live.follow([.owner(owner)], for: self) }

            public func disappear() async { live.stop() }

            /// An addition the scene let through: written once, then shown.
            public func perform(_ event: Event) async throws {
                guard (try? Self.add.payload(of: event)) != nil, let visitor = context.viewer, visitor != owner else { return }
                try await live.write(.owner(owner), for: self) { count = try await service.add(to: owner, from: visitor) }
                await context.setNeedsRender()
            }

            public func render() -> ViewNode {
                var children: [ViewNode] = [.text("count", "\#(name): \(count)", role: .body)]
                if let visitor = context.viewer, visitor != owner {
                    children.append(.button("add", title: "Add one", sends: Self.add.descriptor(Add())))
                }
                return .stack("content", children)
            }
        }

        """#
    }

    var partScenesFolder: String {
        #"""
        import Foundation

        /// The package's scene files (`Sources/\#(name)/Scenes`, shipped as resources).
        public enum \#(name)Scenes {
            /// Their folder among the package's resources.
            public static var directory: URL {
                (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appending(path: "Scenes", directoryHint: .isDirectory)
            }
        }

        """#
    }

    var partScene: String {
        #"""
        {
          "title": "Profile",
          "extends": "user-profile",
          "modules": [
            { "id": "\#(lowerName)", "type": "\#(name)Module", "params": { "owner": "$user" }, "after": "info" }
          ]
        }

        """#
    }

    var partStore: String {
        #"""
        import Scenery
        import SceneryLive
        import ScenerySiteStore
        import \#(name)

        /// \#(name)'s data as a data file holds it: who added to whose count.
        struct \#(name)Data: Codable, Sendable {
            struct Addition: Codable, Sendable {
                var owner: String
                var visitor: String
            }
            var additions: [Addition]
        }

        /// \#(name) on the profile's SQLite database: its table beside the profile's.
        final class SQLite\#(name): \#(name)Service, ForwardingChangeFeed {
            let site: SQLiteSiteStore
            let forwardedFeed: any ChangeFeed<\#(name)Change>

            init(_ site: SQLiteSiteStore) {
                self.site = site
                forwardedFeed = site.feed(of: \#(name)Change.self)
            }

            /// The part's tables, made and migrated with the profile's.
            static let tables = SiteSchema(
                app: \#(name)Change.app,
                steps: ["CREATE TABLE \#(lowerName)_additions (owner TEXT NOT NULL, visitor TEXT NOT NULL, PRIMARY KEY (owner, visitor))"])

            /// The part's section of `data export`, `import` and `reset`.
            static let data = SiteDataSet(
                app: \#(name)Change.app, empty: \#(name)Data(additions: []),
                read: { connection throws(DataError) in
                    \#(name)Data(
                        additions: try connection.query("SELECT owner, visitor FROM \#(lowerName)_additions ORDER BY owner, visitor").map {
                            .init(owner: $0[0].text ?? "", visitor: $0[1].text ?? "")
                        })
                },
                replace: { data, connection throws(DataError) in
                    try connection.run("DELETE FROM \#(lowerName)_additions")
                    for addition in data.additions {
                        try connection.run("INSERT OR IGNORE INTO \#(lowerName)_additions (owner, visitor) VALUES (?, ?)", [.text(addition.owner), .text(addition.visitor)])
                    }
                    return "\(data.additions.count) additions"
                })

            func count(for owner: String) async throws -> Int {
                try await site.withConnection { connection throws(DataError) in try Self.count(for: owner, in: connection) }
            }

            func add(to owner: String, from visitor: String) async throws -> Int {
                try await site.withConnection { [site] connection throws(DataError) in
                    try site.commit([\#(name)Change.owner(owner)], in: connection) { () throws(DataError) in
                        try connection.run("INSERT OR IGNORE INTO \#(lowerName)_additions (owner, visitor) VALUES (?, ?)", [.text(owner), .text(visitor)])
                        return try Self.count(for: owner, in: connection)
                    }
                }
            }

            private static func count(for owner: String, in connection: SQLiteConnection) throws(DataError) -> Int {
                Int(try connection.query("SELECT COUNT(*) FROM \#(lowerName)_additions WHERE owner = ?", [.text(owner)]).first?.first?.integer ?? 0)
            }
        }

        """#
    }

    var partMain: String {
        #"""
        // The whole scenery tool with Scenery's profile and \#(name), whose tables and data live in
        // the profile's database, and `serve` for live pages in a browser.
        import ProfileDemoTool
        import Scenery
        import SceneryServeTool
        import ScenerySiteStore
        import SceneryTool
        import \#(name)

        extension ModuleCatalog {
            /// \#(name): its module over the profile's database, its scene, its tables and its data.
            static let \#(catalogName) = ModuleCatalog(modules: [\#(name)Module.descriptor], scenes: \#(name)Scenes.directory) { registry, services in
                guard let site = try services.siteStore() as? SQLiteSiteStore else {
                    throw SceneryError(
                        .moduleCreationFailed,
                        "\#(name) keeps its data in SQLite files only; add a PostgreSQL store (PostgresSiteSchema, PostgresDataSet) to serve it on PostgreSQL.")
                }
                let service = SQLite\#(name)(site)
                registry.register(\#(name)Module.self) { parameters, context in
                    try \#(name)Module(parameters: parameters, context: context, service: service)
                }
            }
            .addingTables(SQLite\#(name).tables)
            .addingData(SQLite\#(name).data)
        }

        await SceneryTool.main(catalog: .profile + .\#(catalogName), adding: [.serve])

        """#
    }

    var partTests: String {
        #"""
        import Foundation
        import Scenery
        import ScenerySiteStore
        import SceneryTesting
        import Testing
        import \#(name)

        @testable import \#(partTool)

        @Suite struct \#(name)ModuleTests {
            @Test func aVisitorAddsOnceAndTheCountIsShown() async throws {
                let service = SQLite\#(name)(try SQLiteSiteStore(path: ":memory:", schemas: [SQLite\#(name).tables]))
                let harness = try ModuleHarness(\#(name)Module.self, parameters: ["owner": "1"], viewer: "2") {
                    try \#(name)Module(parameters: $0, context: $1, service: service)
                }
                try await harness.load { try RenderExpectation.shows("\#(name): 0").verify($0) }
                try await harness.tap("add") { try RenderExpectation.shows("\#(name): 1").verify($0) }
                try await harness.receiveEvent("\#(lowerName).add")
                try await harness.receiveUpdate { _ in }
                try harness.finish()
                #expect(try await service.add(to: "1", from: "2") == 1, "once each")
            }

            /// The manifest the build plugin checks the scene against is the module's own.
            @Test func theManifestBesideTheSceneIsTheModulesDescriptor() throws {
                let file = \#(name)Scenes.directory.appending(path: "\#(lowerName).modules.json")
                #expect(try ModuleManifest.load(from: file).modules == [\#(name)Module.descriptor])
            }
        }

        """#
    }
}
