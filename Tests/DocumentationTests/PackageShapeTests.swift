import Foundation
import Testing

/// The package's shape as someone picking it up sees it: a few framework products, each held
/// to a public surface budget, and the profile demo apart from the framework under names that
/// say so. Read from `Package.swift` and the folders of `Sources/`, so a product or a target
/// added carelessly fails here with what to do.
@Suite struct PackageShapeTests {
    /// The framework's library products and the most public type names and declarations each
    /// may carry (the sum over its targets, counted as `PublicSurfaceBudgetTests` counts them).
    /// A product's budget is its targets' budgets added up; raise it only with theirs (and
    /// say why there).
    static let frameworkProducts: [String: (types: Int, declarations: Int)] = [
        "Scenery": (102, 683),
        "SceneryLive": (22, 114),
        "ScenerySiteStore": (10, 74),
        "ScenerySiteStorePostgres": (7, 55),
        "SceneryServer": (23, 158),
        "SceneryRemote": (32, 158),
        "SceneryTesting": (23, 153),
        "SceneryServerTesting": (7, 36),
        "SceneryTool": (10, 65),
    ]

    /// The core's layers under the runtime, lowest first.
    static let layers = ["SceneryText", "SceneryViewTree", "ScenerySceneFiles", "SceneryRendering"]

    /// The demo's products: its modules, stores, scenes and tool catalog, the same on
    /// PostgreSQL, and its scene files alone (what another package's scenes extend).
    static let demoProducts: Set<String> = ["ProfileDemo", "ProfileDemoPostgres", "ProfileDemoScenes"]

    /// `Package.swift`'s library products and the targets each carries.
    static func libraryProducts() throws -> [String: [String]] {
        let manifest = try String(contentsOf: DocumentationSampleTests.packageRoot.appending(path: "Package.swift"), encoding: .utf8)
        var products: [String: [String]] = [:]
        for match in manifest.matches(of: /\.library\(\s*name: "(\w+)",\s*targets: \[([^\]]*)\]/) {
            products[String(match.output.1)] = match.output.2.matches(of: /"(\w+)"/).map { String($0.output.1) }
        }
        return products
    }

    @Test func theFrameworkIsNineProductsAndTheDemoTwo() throws {
        let products = try Self.libraryProducts()
        #expect(products["Scenery"] != nil, "found the products: \(products.keys.sorted())")
        let framework = Set(products.keys).subtracting(Self.demoProducts)
        #expect(
            framework == Set(Self.frameworkProducts.keys),
            "Package.swift's framework products are \(framework.sorted()); a new one belongs in a product that exists (a product may carry several modules), or in PackageShapeTests.frameworkProducts with its budget and the reason."
        )
        #expect(Set(products.keys).isSuperset(of: Self.demoProducts))
    }

    @Test func noProductGrowsItsPublicSurfacePastItsBudget() throws {
        let surfaces = try PublicSurfaceBudgetTests.surfaces()
        for (product, targets) in try Self.libraryProducts().sorted(by: { $0.key < $1.key }) {
            guard let budget = Self.frameworkProducts[product] else { continue }
            let types = targets.reduce(0) { $0 + (surfaces[$1]?.typeNames.count ?? 0) }
            let declarations = targets.reduce(0) { $0 + (surfaces[$1]?.declarations ?? 0) }
            #expect(
                types <= budget.types,
                "the \(product) product (\(targets.joined(separator: ", "))) declares \(types) public type names, over its budget of \(budget.types): make the new ones internal or package, or raise the budget saying why."
            )
            #expect(
                declarations <= budget.declarations,
                "the \(product) product (\(targets.joined(separator: ", "))) has \(declarations) public declarations, over its budget of \(budget.declarations)."
            )
        }
    }

    /// The demo's targets are in `Sources/ProfileDemo/` and named `ProfileDemo…`; nothing else
    /// is, and no demo target takes the framework's `Scenery` prefix, so an app's own target
    /// names (`ProfileDomain`, `ProfileStore`) never collide with the demo's.
    @Test func theDemoIsOneFolderOfTargetsNamedForIt() throws {
        let sources = DocumentationSampleTests.packageRoot.appending(path: "Sources")
        let topLevel = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        let demo = try FileManager.default.contentsOfDirectory(atPath: sources.appending(path: "ProfileDemo").path)
        #expect(demo.count >= 10, "found the demo's targets: \(demo.sorted())")
        #expect(demo.allSatisfy { $0.hasPrefix("ProfileDemo") }, "every folder of Sources/ProfileDemo is a ProfileDemo… target: \(demo.sorted())")
        let strays = topLevel.filter { $0 != "ProfileDemo" && !$0.hasPrefix("Scenery") && $0 != "CSQLite" }
        #expect(strays.isEmpty, "Sources/ holds the framework's Scenery… targets and ProfileDemo/ alone: \(strays.sorted())")
        let products = try Self.libraryProducts()
        let demoTargets = Self.demoProducts.flatMap { products[$0] ?? [] }
        #expect(demoTargets.allSatisfy { $0.hasPrefix("ProfileDemo") }, "\(demoTargets.sorted())")
        let frameworkTargets = products.filter { !Self.demoProducts.contains($0.key) }.values.joined()
        #expect(frameworkTargets.allSatisfy { $0.hasPrefix("Scenery") }, "\(Set(frameworkTargets).sorted())")
    }

    /// The core's layers point down: the text layer depends on nothing, the view-tree layer
    /// on text alone, scene files' reading on both, rendering on those three, the runtime on
    /// all four (so no lower layer can reach it), and `import Scenery` re-exports them.
    @Test func theCoresLayersPointDownAndTheRuntimeReexportsThem() throws {
        let root = DocumentationSampleTests.packageRoot
        let manifest = try String(contentsOf: root.appending(path: "Package.swift"), encoding: .utf8)
        func dependencies(of target: String) throws -> String? {
            let opening = try #require(manifest.firstMatch(of: try Regex(#"\.target\(name: ""# + target + #""[^)]*\)"#)), "\(target) is a target")
            return opening.output[0].substring.flatMap { $0.firstMatch(of: /dependencies: \[([^\]]*)\]/).map { String($0.output.1) } }
        }
        #expect(try dependencies(of: "SceneryText") == nil, "the text layer depends on nothing")
        #expect(try dependencies(of: "SceneryViewTree") == #""SceneryText""#, "the view tree stands on text alone")
        #expect(try dependencies(of: "ScenerySceneFiles") == #""SceneryText", "SceneryViewTree""#, "scene files' reading stands on text and values")
        #expect(
            try dependencies(of: "SceneryRendering") == #""SceneryText", "SceneryViewTree", "ScenerySceneFiles""#,
            "rendering draws trees and reads theme files, nothing of scenes' lives")
        #expect(
            try dependencies(of: "Scenery") == #""SceneryText", "SceneryViewTree", "ScenerySceneFiles", "SceneryRendering""#,
            "the runtime stands on the four layers")
        let exports = try String(contentsOf: root.appending(path: "Sources/Scenery/Exports.swift"), encoding: .utf8)
        for layer in Self.layers {
            #expect(exports.contains("@_exported import \(layer)"), "import Scenery re-exports \(layer)")
        }
        let layers = SourceSizeBudgetTests.swiftFiles(under: Self.layers.map { "Sources/\($0)" })
        #expect(layers.count > 60)
        for file in layers {
            let source = try String(contentsOf: file, encoding: .utf8)
            #expect(!source.contains("import Scenery\n"), "\(file.lastPathComponent) imports the runtime")
        }
    }

}
