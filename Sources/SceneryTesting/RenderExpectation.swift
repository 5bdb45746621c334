import Scenery

/// A check of a rendered view tree, with a message that says what was found instead.
///
/// ```swift
/// let tree = await scene.render()
/// try RenderExpectation.shows("Alice").verify(tree)
/// try RenderExpectation.lacksModule("drafts").verify(tree)
/// ```
public struct RenderExpectation: Sendable, CustomStringConvertible {
    /// What the expectation checks, in words.
    public let description: String
    private let check: @Sendable (ViewNode) -> String?

    /// Creates an expectation from a check that returns `nil` when it holds, or what is
    /// wrong.
    public init(_ description: String, check: @escaping @Sendable (ViewNode) -> String?) {
        self.description = description
        self.check = check
    }

    /// The problem, or `nil` if the tree meets the expectation.
    public func problem(in tree: ViewNode) -> String? {
        check(tree)
    }

    /// Throws ``ExpectationFailure`` if the tree does not meet the expectation.
    public func verify(_ tree: ViewNode) throws(ExpectationFailure) {
        if let problem = check(tree) {
            throw ExpectationFailure("Expected the tree to \(description), but \(problem)\n\(TextRenderer().render(tree))")
        }
    }
}

extension RenderExpectation {
    /// Some visible text (text, title, header, message, alt text) contains `text`.
    public static func shows(_ text: String) -> RenderExpectation {
        RenderExpectation("show \"\(text)\"") { tree in
            tree.visibleTexts.contains { $0.contains(text) } ? nil : "no visible text contains it."
        }
    }

    /// No visible text contains `text`.
    public static func hides(_ text: String) -> RenderExpectation {
        RenderExpectation("not show \"\(text)\"") { tree in
            let found = tree.visibleTexts.filter { $0.contains(text) }
            return found.isEmpty ? nil : "it shows \(found.map { "\"\($0)\"" }.joined(separator: ", "))."
        }
    }

    /// The tree has a node with the id.
    public static func hasNode(_ id: NodeID) -> RenderExpectation {
        RenderExpectation("have a node '\(id)'") { tree in
            tree.node(withID: id) == nil ? "there is none." : nil
        }
    }

    /// The tree has no node with the id: a control this viewer must not be offered, say.
    public static func lacksNode(_ id: NodeID) -> RenderExpectation {
        RenderExpectation("have no node '\(id)'") { tree in
            tree.node(withID: id) == nil ? nil : "it has one."
        }
    }

    /// The tree shows the module, optionally with a status.
    public static func showsModule(_ id: ModuleID, status: ModuleStatus? = nil) -> RenderExpectation {
        RenderExpectation("show module '\(id)'\(status.map { " \($0.rawValue)" } ?? "")") { tree in
            guard let frame = tree.moduleFrame(id) else { return "it does not." }
            if let status, frame.status != status { return "its status is \(frame.status.rawValue)." }
            return nil
        }
    }

    /// The tree does not show the module.
    public static func lacksModule(_ id: ModuleID) -> RenderExpectation {
        RenderExpectation("not show module '\(id)'") { tree in
            tree.moduleFrame(id) == nil ? nil : "it does."
        }
    }

    /// The text rendering equals `expected` exactly.
    public static func rendersText(_ expected: String, width: Int = 80) -> RenderExpectation {
        RenderExpectation("render as the expected text") { tree in
            let actual = TextRenderer(width: width).render(tree)
            return actual == expected ? nil : "it differs:\n\(TextDiff.describe(expected: expected, actual: actual))"
        }
    }
}

/// A failed expectation of ``SceneryTesting``, with a readable message.
public struct ExpectationFailure: Error, Sendable, CustomStringConvertible {
    /// What was expected and what was found.
    public let message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension RenderExpectation {
    /// Every node and section in the tree has an id of its own.
    ///
    /// Ids must be unique in a tree: a host finds nodes by id, and a repeated id makes the
    /// scene replace the nearest unique container whole instead of patching one row. Run it
    /// over your module in every state:
    ///
    /// ```swift
    /// try RenderExpectation.hasUniqueIDs.verify(await module.render())
    /// ```
    public static var hasUniqueIDs: RenderExpectation {
        RenderExpectation("use every id once") { tree in
            let repeated = tree.repeatedIDs
            return repeated.isEmpty ? nil : "it repeats \(repeated.map { "'\($0)'" }.joined(separator: ", "))."
        }
    }
}

extension ViewNode {
    /// The ids used more than once among this node, its descendants and their sections, in
    /// the order they first repeat.
    public var repeatedIDs: [NodeID] {
        var seen: Set<NodeID> = []
        var repeated: [NodeID] = []
        func note(_ id: NodeID) {
            if !seen.insert(id).inserted, !repeated.contains(id) { repeated.append(id) }
        }
        var stack = [self]
        while let node = stack.popLast() {
            note(node.id)
            if case .list(_, let sections) = node.kind { for section in sections { note(section.id) } }
            stack.append(contentsOf: node.children.reversed())
        }
        return repeated
    }
}
