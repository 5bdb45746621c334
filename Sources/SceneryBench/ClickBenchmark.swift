import Foundation
import Scenery

/// What one like click costs a scene, as a host runs it: the control found by its id in the
/// tree the host was given, its event sent through the scene's route, the module's row
/// changed and rendered again, the host told. Time per click, and heap allocations per click
/// when the allocation counter is preloaded (Benchmarks/AllocationCounter).
enum ClickBenchmark {
    static let rows = 60
    static let clicks = 2_000

    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var table = Table(
            "A like click on a \(rows)-row list: time and allocations per click",
            header: ["step", "min / click", "median / click", "allocations / click"])
        let controls = (1...rows).map { NodeID("rows/row.\($0).like") }
        let onPage = try await scene(onItsPage: true)
        let ofItsOwn = try await scene(onItsPage: false)

        let lookUp: () async -> Void = {
            for index in 0..<clicks { _ = await onPage.action(withID: controls[index % rows]) }
        }
        let click = { (scene: SceneInstance) in
            { () async -> Void in
                for index in 0..<clicks { _ = try? await scene.activate(controls[index % rows]) }
            }
        }
        let (clickOnPage, clickOfItsOwn) = (click(onPage), click(ofItsOwn))
        let samples = await Measure.interleaved(rounds: 5 * options.roundScale, [lookUp, clickOnPage, clickOfItsOwn])
        let counter = AllocationCounter()
        for (name, body, sample) in [
            ("find the control by its id", lookUp, samples[0]),
            ("a whole click (activate): find, send, render, tell the host; the module on its page", clickOnPage, samples[1]),
            ("the same, the module an actor of its own (a hop there and back)", clickOfItsOwn, samples[2]),
        ] {
            var allocations = "preload the counter"
            if let counter {
                let before = counter.count
                await body()
                allocations = String(format: "%.1f", Double(counter.count - before) / Double(clicks))
            }
            table.add(
                name, Measure.format(sample.minimum / Double(clicks)), Measure.format(sample.median / Double(clicks)), allocations)
        }
        table.notes.append(
            "One scene of one module showing \(rows) rows (a title, a like count, a like button each), viewed by a signed-in user; "
                + "\(clicks.formatted()) clicks per round over every row in turn, \(5 * options.roundScale) rounds after a warm-up. "
                + "The module's like changes its row and asks for that row alone to be rendered again; the host drops the update. "
                + "On its page, the module names the page's executor (as the bundled modules do); of its own, it runs on an actor's executor of its own.")
        table.notes.append(
            counter == nil
                ? "Allocations: run with the counter preloaded (Benchmarks/AllocationCounter/README.md) to count them."
                : "Allocations: every malloc, calloc, realloc and aligned allocation of the process during one more round, per click.")
        return table
    }
}

extension ClickBenchmark {
    /// The click scene, shown, its module on the scene's page or an actor of its own.
    static func scene(onItsPage: Bool) async throws -> SceneInstance {
        var registry = SceneRegistry()
        registry.register(LikeRowsModule.self) { _, context in LikeRowsModule(context: context, onItsPage: onItsPage) }
        let problems = registry.addScene(id: "likes", source: #"{"modules": [{"id": "rows", "type": "LikeRowsModule"}]}"#)
        guard problems.isEmpty else { throw ValidationFailure("the click scene: \(problems)") }
        let scene = try await registry.assemble("likes", for: SceneContext(viewer: "2"), host: NullSceneHost())
        await scene.appear()
        _ = await scene.takeBaseline()
        return scene
    }
}

/// The allocation count of the preloaded counter, when it is preloaded.
private struct AllocationCounter {
    private let read: @convention(c) () -> Int

    init?() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "scenery_allocation_count") else { return nil }
        read = unsafeBitCast(symbol, to: (@convention(c) () -> Int).self)
    }

    var count: Int { read() }
}

/// Rows with a like button each; a like changes its row's count and renders that row alone.
private actor LikeRowsModule: Module {
    static let descriptor = ModuleDescriptor(type: "LikeRowsModule", summary: "Rows with a like button each.")
    static let like = EventKind("row.like", payload: Like.self)
    struct Like: Codable, Sendable { var row: Int }

    let context: ModuleContext
    private var likes = [Int](repeating: 0, count: ClickBenchmark.rows + 1)
    /// The executor of an actor of its own, when it is not on its page.
    private let own: OwnExecutor?
    nonisolated var unownedExecutor: UnownedSerialExecutor { own?.unownedExecutor ?? context.unownedExecutor }

    init(context: ModuleContext, onItsPage: Bool) {
        self.context = context
        own = onItsPage ? nil : OwnExecutor()
    }

    func load(_ request: LoadRequest) async throws {}

    func render() -> ViewNode {
        .list("list", sections: [.init(id: "all", header: "Rows", rows: (1...ClickBenchmark.rows).map(row))])
    }

    func render(_ id: NodeID) -> ViewNode? {
        guard id.rawValue.hasPrefix("row."), let number = Int(id.rawValue.dropFirst(4)), likes.indices.contains(number) else { return nil }
        return row(number)
    }

    private func row(_ number: Int) -> ViewNode {
        .stack(
            "row.\(number)", axis: .horizontal,
            [
                .text("row.\(number).title", "Notes number \(number)"),
                .text("row.\(number).likes", "Likes: \(likes[number])"),
                .button("row.\(number).like", title: likes[number] % 2 == 0 ? "Like" : "Unlike", sends: Self.like.descriptor(Like(row: number))),
            ])
    }

    func perform(_ event: Event) async throws {
        guard let like = try? Self.like.payload(of: event), likes.indices.contains(like.row) else { return }
        likes[like.row] += 1
        await context.setNeedsRender(["row.\(like.row)"])
    }
}

/// An actor whose executor a module off its page runs on.
private actor OwnExecutor {}
