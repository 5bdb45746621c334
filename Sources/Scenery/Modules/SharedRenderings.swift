/// Renderings of the same input made once for every page of the process: when a change
/// reaches many open pages that show the same row, the first page's module renders it and
/// the others reuse that node.
///
/// A module renders a row from values (a blog, whether the viewer may like, the wording):
/// pages whose values are equal get equal nodes, so the node can be shared. The input must
/// hold **everything** the rendering reads; a value left out (the viewer, a failure shown
/// beside the row) would show one page's rendering on another. Keep one table per kind of
/// row, as a `static let` of the module type.
///
/// The table holds at most `capacity` renderings; when it is full, it starts again empty
/// (the rows of the last change are what pages ask for, and they come back at once).
///
/// ```swift
/// struct TaskRow: Hashable, Sendable { var task: BoardTask; var canEdit: Bool }
/// static let rows = SharedRenderings<TaskRow>()
///
/// func row(_ task: BoardTask) -> ViewNode {
///     Self.rows.node(for: TaskRow(task: task, canEdit: canEdit)) { TaskCell(task, canEdit: canEdit).render() }
/// }
/// ```
public final class SharedRenderings<Input: Hashable & Sendable>: Sendable {
    private let table = Locked<[Input: ViewNode]>([:])

    /// How many renderings the table keeps at most.
    public let capacity: Int

    /// An empty table keeping at most `capacity` renderings (at least one).
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The node rendered for `input`: one already made for an equal input, or what `render`
    /// makes now (kept for the next caller). `render` runs outside the table's lock, so two
    /// pages asking at once may both render; either result is the same.
    public func node(for input: Input, render: () throws -> ViewNode) rethrows -> ViewNode {
        if let node = table.withLock({ $0[input] }) { return node }
        let node = try render()
        table.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[input] = node
        }
        return node
    }

    /// How many renderings the table holds now.
    public var count: Int { table.withLock { $0.count } }
}
