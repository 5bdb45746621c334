/// The stable identity of a node in a view tree.
///
/// Identity is separate from content: two renderings of the same blog row share an id
/// while their like counts differ, so a host can tell "changed" from "replaced".
/// Inside a scene, ids are qualified by the module that rendered them
/// (`blogs/row.7`), so modules never collide.
public struct NodeID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByStringInterpolation
{
    /// The id as text.
    public var rawValue: String

    /// Creates an id from text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Separator between a module id and the node's id inside the module.
    public static let separator: Character = "/"

    /// The id qualified by a module: `blogs` + `row.7` gives `blogs/row.7`.
    public func qualified(by module: ModuleID) -> NodeID {
        NodeID("\(module.rawValue)\(Self.separator)\(rawValue)")
    }

    /// The first path component, which names the module in a scene's tree.
    public var moduleComponent: ModuleID {
        ModuleID(String(rawValue.prefix { $0 != Self.separator }))
    }

    /// The id with its first component removed: the id the module itself used.
    public var localComponent: NodeID {
        guard let slash = rawValue.firstIndex(of: Self.separator) else { return self }
        return NodeID(String(rawValue[rawValue.index(after: slash)...]))
    }

    public var description: String { rawValue }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The id of a module instance within a scene, as written in the scene file.
public struct ModuleID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as text.
    public var rawValue: String

    /// Creates an id from text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: ModuleID, rhs: ModuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}
