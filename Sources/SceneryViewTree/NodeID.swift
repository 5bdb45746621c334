/// The stable identity of a node in a view tree.
///
/// Identity is separate from content: two renderings of the same blog row share an id
/// while their like counts differ, so a host can tell "changed" from "replaced".
/// Inside a scene, ids are qualified by the module that rendered them
/// (`blogs/row.7`), so modules never collide.
public struct NodeID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByStringInterpolation
{
    // Kept in two parts, split at the first separator: the module's id and the id the
    // module used. Both are usually short enough for Swift to keep inline, so a qualified id
    // (`blogs/blog.27.like`) costs no allocation, where the joined text would. The split is
    // the same for equal texts, so equality and hashing by parts match the text's.
    private var prefix: String?
    private var local: String

    /// The id as text.
    public var rawValue: String {
        get { prefix.map { "\($0)\(Self.separator)\(local)" } ?? local }
        set { (prefix, local) = Self.split(newValue) }
    }

    /// Creates an id from text.
    public init(_ rawValue: String) { (prefix, local) = Self.split(rawValue) }
    public init(rawValue: String) { self.init(rawValue) }
    public init(stringLiteral value: String) { self.init(value) }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // By parts, not by text: the `RawRepresentable` defaults would join the parts into a
    // new string for every comparison and hash (a diff compares ids at every element).
    public static func == (a: NodeID, b: NodeID) -> Bool {
        a.local == b.local && a.prefix == b.prefix
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(prefix)
        hasher.combine(local)
    }

    /// Separator between a module id and the node's id inside the module.
    public static let separator: Character = "/"

    private static func split(_ text: String) -> (String?, String) {
        guard let slash = text.firstIndex(of: separator) else { return (nil, text) }
        return (String(text[..<slash]), String(text[text.index(after: slash)...]))
    }

    /// The id qualified by a module: `blogs` + `row.7` gives `blogs/row.7`.
    public func qualified(by module: ModuleID) -> NodeID {
        // The parts are always the text split at its first separator (equality compares
        // parts): a module id with a separator of its own is split as text would be.
        guard !module.rawValue.contains(Self.separator) else { return NodeID("\(module.rawValue)\(Self.separator)\(rawValue)") }
        var qualified = self
        qualified.prefix = module.rawValue
        qualified.local = rawValue
        return qualified
    }

    /// The first path component, which names the module in a scene's tree.
    public var moduleComponent: ModuleID {
        ModuleID(prefix ?? local)
    }

    /// The id with its first component removed: the id the module itself used.
    public var localComponent: NodeID {
        prefix == nil ? self : NodeID(local)
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
