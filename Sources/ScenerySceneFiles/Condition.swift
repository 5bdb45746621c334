import SceneryViewTree

/// A condition on the context, as written in a scene file's `"when"`.
///
/// The grammar is small and total:
///
/// ```
/// condition  := or
/// or         := and ("||" and)*
/// and        := unary ("&&" unary)*
/// unary      := "!" unary | "(" condition ")" | comparison
/// comparison := operand (("==" | "!=") operand)?
/// operand    := "viewer" | parameter | "event." field | "string" | 'string' | number | true | false | null
/// ```
///
/// `viewer` is the signed-in user's id, `null` when signed out. A bare operand is true
/// when it is neither `null`, `false` nor empty. Examples: `viewer == user`,
/// `viewer != null && viewer != user`, `event.following == true`.
package struct Condition: Sendable, Hashable, CustomStringConvertible {
    /// The condition as written.
    package let source: String
    package let expression: Expression

    package indirect enum Expression: Sendable, Hashable {
        case compare(Operand, isEqual: Bool, Operand)
        case truthy(Operand)
        case not(Expression)
        /// Every operand holds. A chain `a && b && c` is one node, however long, so depth
        /// grows only with parentheses and `!` (bounded when parsed).
        case all([Expression])
        /// Some operand holds (`a || b || c`, one node).
        case any([Expression])
    }

    package enum Operand: Sendable, Hashable {
        case viewer
        case parameter(String)
        case eventField(String)
        case literal(JSONValue)
    }

    package var description: String { source }

    package init(source: String, expression: Expression) {
        self.source = source
        self.expression = expression
    }

    /// Both conditions (either alone when the other is `nil`): what holds for a viewer of an
    /// experiment's arm over a variant.
    package static func all(_ first: Condition?, _ second: Condition?) -> Condition? {
        guard let first else { return second }
        guard let second else { return first }
        return Condition(source: "(\(first.source)) && (\(second.source))", expression: .all([first.expression, second.expression]))
    }

    /// The values a condition is evaluated against.
    package struct Environment: Sendable {
        /// The signed-in user's id, `nil` when signed out.
        package var viewer: String?
        /// The scene's arguments by parameter name.
        package var arguments: [String: JSONValue]
        /// The payload of the event being routed, for event rules.
        package var event: [String: JSONValue]

        /// Creates an environment.
        package init(viewer: String?, arguments: [String: JSONValue], event: [String: JSONValue] = [:]) {
            self.viewer = viewer
            self.arguments = arguments
            self.event = event
        }
    }

    /// Whether the condition holds in `environment`.
    package func evaluate(in environment: Environment) -> Bool {
        Self.evaluate(expression, in: environment)
    }

    private static func evaluate(_ expression: Expression, in environment: Environment) -> Bool {
        switch expression {
        case .compare(let lhs, let isEqual, let rhs):
            return equal(value(of: lhs, in: environment), value(of: rhs, in: environment)) == isEqual
        case .truthy(let operand):
            switch value(of: operand, in: environment) {
            case .null, .bool(false): return false
            case .string(let text): return !text.isEmpty
            default: return true
            }
        case .not(let inner): return !evaluate(inner, in: environment)
        case .all(let operands): return operands.allSatisfy { evaluate($0, in: environment) }
        case .any(let operands): return operands.contains { evaluate($0, in: environment) }
        }
    }

    private static func value(of operand: Operand, in environment: Environment) -> JSONValue {
        switch operand {
        case .viewer: environment.viewer.map(JSONValue.string) ?? .null
        case .parameter(let name): environment.arguments[name] ?? .null
        case .eventField(let name): environment.event[name] ?? .null
        case .literal(let value): value
        }
    }

    /// Ids are strings in one place and integers in another; compare numbers as numbers
    /// and everything else by its text, so `viewer == user` holds for "1" and 1.
    private static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.bool(let a), .bool(let b)): return a == b
        default:
            if let a = lhs.doubleValue, let b = rhs.doubleValue { return a == b }
            return lhs.plainText == rhs.plainText
        }
    }
}

extension Condition {
    /// Every operand of the condition, in order.
    private var operands: [Operand] {
        var found: [Operand] = []
        func visit(_ expression: Expression) {
            switch expression {
            case .compare(let lhs, _, let rhs): found += [lhs, rhs]
            case .truthy(let operand): found.append(operand)
            case .not(let inner): visit(inner)
            case .all(let operands), .any(let operands): operands.forEach(visit)
            }
        }
        visit(expression)
        return found
    }

    /// The scene parameters the condition names.
    package var parameterNames: [String] {
        operands.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The event payload fields the condition names (`event.following`).
    package var eventFieldNames: [String] {
        operands.compactMap { if case .eventField(let name) = $0 { name } else { nil } }
    }

    /// Whether the condition can only hold when the viewer is the user named by `parameter`:
    /// it is `viewer == parameter`, or a conjunction that includes it.
    package func requiresViewer(equalTo parameter: String) -> Bool {
        func requires(_ expression: Expression) -> Bool {
            switch expression {
            case .compare(.viewer, true, .parameter(let name)), .compare(.parameter(let name), true, .viewer):
                return name == parameter
            case .all(let operands): return operands.contains(where: requires)
            case .any(let operands): return !operands.isEmpty && operands.allSatisfy(requires)
            default: return false
            }
        }
        return requires(expression)
    }
}
