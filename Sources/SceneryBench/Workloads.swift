import Foundation
import Scenery
import Synchronization

struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var content: Int
}

/// A deterministic generator, so runs compare the same arrays.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `count` rows, and a version with 10% deletes, moves, updates and inserts. With
/// `duplicatesPerHundred`, that many rows in each hundred take the id of the row before
/// (the same relabelling in both lists).
func listWorkload(count: Int, seed: UInt64 = 42, duplicatesPerHundred: Int = 0) -> (old: [Row], new: [Row]) {
    var random = SplitMix(state: seed)
    let old = (0..<count).map { Row(id: $0, content: 0) }
    var rows = old
    let changes = count / 10
    for _ in 0..<changes { rows.remove(at: Int.random(in: 0..<rows.count, using: &random)) }
    for _ in 0..<changes {
        let row = rows.remove(at: Int.random(in: 0..<rows.count, using: &random))
        rows.insert(row, at: Int.random(in: 0...rows.count, using: &random))
    }
    for _ in 0..<changes { rows[Int.random(in: 0..<rows.count, using: &random)].content += 1 }
    for index in 0..<changes { rows.insert(Row(id: count + index, content: 0), at: Int.random(in: 0...rows.count, using: &random)) }
    guard duplicatesPerHundred > 0 else { return (old, rows) }
    func relabel(_ row: Row) -> Row { row.id % 100 >= 100 - duplicatesPerHundred ? Row(id: row.id - 1, content: row.content) : row }
    return (old.map(relabel), rows.map(relabel))
}

/// A module with a long list: it can re-render one row and honour a window.
actor LongListModule: Module {
    static let descriptor = ModuleDescriptor(
        type: "LongList", summary: "Many rows.", parameters: [ParameterSpec("rows", .int, default: 10_000, range: 1...10_000_000)],
        events: ["row.like"])
    let count: Int
    private var likes: [Int]
    let context: ModuleContext

    init(parameters: ModuleParameters, context: ModuleContext) throws {
        count = try parameters.int("rows")
        likes = Array(repeating: 0, count: count)
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {}

    func row(_ index: Int) -> ViewNode {
        .stack(
            NodeID("row.\(index)"), axis: .horizontal,
            [
                .text(NodeID("row.\(index).title"), "Row number \(index) with a title"),
                .text(NodeID("row.\(index).likes"), "Likes: \(likes[index])", role: .caption),
                .button(NodeID("row.\(index).like"), title: "Like", sends: EventDescriptor("row.like", payload: ["row": .int(index)])),
            ])
    }

    func render() -> ViewNode {
        .list("list", sections: [.init(id: "all", header: "Rows", rows: (0..<count).map { row($0) })])
    }

    func render(window: RowWindow) -> ViewNode {
        .list("list", sections: [.windowed(id: "all", header: "Rows", total: count, window: window) { row($0) }])
    }

    func render(_ id: NodeID) -> ViewNode? {
        guard let index = Int(id.rawValue.dropFirst(4)), likes.indices.contains(index) else { return nil }
        return row(index)
    }

    func like(_ index: Int, rowOnly: Bool) async {
        likes[index] += 1
        if rowOnly { await context.setNeedsRender(["row.\(index)"]) } else { await context.setNeedsRender() }
    }
}

/// A module whose load takes a fixed time.
actor SlowModule: Module {
    static let descriptor = ModuleDescriptor(type: "Slow", summary: "Sleeps.", parameters: [ParameterSpec("milliseconds", .int)])
    let milliseconds: Int
    init(parameters: ModuleParameters) throws { milliseconds = try parameters.int("milliseconds") }
    func load(_ request: LoadRequest) async throws { try await Task.sleep(for: .milliseconds(milliseconds)) }
    func render() -> ViewNode { .text("done", "Loaded after \(milliseconds) ms") }
}

/// A host that keeps nothing, so measurements are not about the host.
struct NullHost: SceneHost {
    let counter: UpdateCounter
    func confirm(_ confirmation: Confirmation) async -> Bool { true }
    func navigate(to intent: NavigationIntent) async {}
    func sceneDidUpdate(_ update: SceneUpdate) async { counter.add(update) }
}

/// Counts the patches a host was sent and keeps the last update.
final class UpdateCounter: Sendable {
    private let state = Locked((patches: 0, last: SceneUpdate?.none))
    func add(_ update: SceneUpdate) {
        state.withLock {
            $0.patches += update.patches.count
            $0.last = update
        }
    }
    func take() -> Int {
        state.withLock { value in
            defer { value.patches = 0 }
            return value.patches
        }
    }
    func lastUpdate() -> SceneUpdate? { state.withLock { $0.last } }
}

/// Holds the module the registry created, for the benchmark to drive.
final class Holder: Sendable {
    let module = Locked<LongListModule?>(nil)
}
