import Scenery

extension PageProtocol {
    /// A kind of view-tree node, as a client names it on connect.
    public enum NodeKind: String, CaseIterable, Sendable, Hashable {
        case text, image, button, stack, list, tabs, placeholder, module, textField, form

        /// The kind of a node.
        public init(of node: ViewNode) {
            switch node.kind {
            case .text: self = .text
            case .image: self = .image
            case .button: self = .button
            case .stack: self = .stack
            case .list: self = .list
            case .tabs: self = .tabs
            case .placeholder: self = .placeholder
            case .module: self = .module
            case .textField: self = .textField
            case .form: self = .form
            }
        }

        /// The kind in words, for a person ("a text field").
        var inWords: String {
            switch self {
            case .text: "a text"
            case .image: "an image"
            case .button: "a button"
            case .stack: "a stack"
            case .list: "a list"
            case .tabs: "tabs"
            case .placeholder: "a placeholder"
            case .module: "a module"
            case .textField: "a text field"
            case .form: "a form"
            }
        }
    }

    /// The node kinds a client can show, which it names when it connects
    /// (`kinds=text,image,…` in the socket's and the scene's address): the server never
    /// sends it a node of another kind. Such a node, and what it holds, reaches the client as
    /// a placeholder that says why, and the server logs it.
    ///
    /// A client that names no kinds shows those of ``version1`` (every client of page
    /// protocol 1 shows them); a kind added later reaches it as a placeholder. Names this
    /// server does not know (a newer client's) are passed over.
    ///
    /// ```swift
    /// let address = "/live?session=\(id)&since=0&protocol=\(PageProtocol.version)&kinds=\(PageProtocol.NodeKinds.every.query)"
    ///
    /// // On the server: what a watch that shows no forms is sent.
    /// let watch = try PageProtocol.NodeKinds(query: "text,image,button,stack,list,placeholder,module")
    /// let fitted = watch.fitting(tree)   // the drafts' form is a placeholder in it
    /// ```
    public struct NodeKinds: Sendable, Hashable {
        /// The kinds named.
        public private(set) var kinds: Set<NodeKind>

        /// Every kind of page protocol 1: what a client shows that names none. (A kind added
        /// later is not one of them.)
        public static let version1 = NodeKinds([.text, .image, .button, .stack, .list, .tabs, .placeholder, .module, .textField, .form])

        /// Every kind this library knows: what a client built with it names when it draws
        /// every kind (the page script, `scenery connect`, the test kit).
        public static let every = NodeKinds(NodeKind.allCases)

        /// The kinds every client must show: a scene is a stack of module frames, and
        /// what a client cannot show reaches it as a placeholder.
        public static let required: Set<NodeKind> = [.stack, .module, .placeholder]

        /// The most names a client may give (a forged list of thousands is refused).
        public static let mostNames = 64
        /// The longest `kinds` text a client may give, in bytes.
        public static let longestQuery = 512

        /// The kinds given.
        public init(_ kinds: some Sequence<NodeKind>) {
            self.kinds = Set(kinds)
        }

        /// The kinds a client named in its address: ``version1`` for none.
        ///
        /// - Throws: ``BadNodeKinds`` for a text longer than ``longestQuery`` bytes, more
        ///   than ``mostNames`` names, a name that is not 1 to 32 ASCII letters, or a list
        ///   without every ``required`` kind.
        public init(query text: Substring?) throws(BadNodeKinds) {
            guard let text else {
                self = .version1
                return
            }
            guard text.utf8.count <= Self.longestQuery else { throw BadNodeKinds(reason: .tooLong) }
            let names = text.split(separator: ",", omittingEmptySubsequences: false)
            guard names.count <= Self.mostNames else { throw BadNodeKinds(reason: .tooMany) }
            var kinds = Set<NodeKind>()
            for name in names {
                guard (1...32).contains(name.utf8.count), name.utf8.allSatisfy(Self.isASCIILetter) else {
                    throw BadNodeKinds(reason: .badName)
                }
                // A name this server does not know is a newer client's: passed over.
                if let kind = NodeKind(rawValue: String(name)) { kinds.insert(kind) }
            }
            guard Self.required.isSubset(of: kinds) else { throw BadNodeKinds(reason: .missingRequired) }
            self.kinds = kinds
        }

        private static func isASCIILetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }

        /// The kinds as a client names them in its address (`text,image,…`, in
        /// ``NodeKind`` order).
        public var query: String {
            NodeKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
        }

        /// Whether these are every kind this library knows (a client that is sent every
        /// tree as it is).
        public var showsEveryKind: Bool {
            kinds.count == NodeKind.allCases.count
        }

        /// Whether a client of these kinds shows every node of `tree`.
        public func shows(_ tree: ViewNode) -> Bool {
            unshown(in: tree).isEmpty
        }

        /// The kinds of the nodes of `tree` a client of these kinds does not show (outermost
        /// nodes only: what they hold goes with them).
        public func unshown(in tree: ViewNode) -> Set<NodeKind> {
            var found = Set<NodeKind>()
            collectUnshown(in: tree, into: &found)
            return found
        }

        private func collectUnshown(in node: ViewNode, into found: inout Set<NodeKind>) {
            let kind = NodeKind(of: node)
            guard kinds.contains(kind) else {
                found.insert(kind)
                return
            }
            var inside = node.children
            if case .tabs(let tabs) = node.kind { inside += tabs.unselectedPanels.values }
            for child in inside { collectUnshown(in: child, into: &found) }
        }

        /// `tree` with every node a client of these kinds does not show replaced by a
        /// placeholder of the same id that says what was there; `tree` itself when it
        /// shows all of it.
        public func fitting(_ tree: ViewNode) -> ViewNode {
            let kind = NodeKind(of: tree)
            guard kinds.contains(kind) else { return Self.placeholder(for: tree.id, kind: kind) }
            var node = tree
            switch tree.kind {
            case .text, .image, .button, .textField, .placeholder: break
            case .stack(let axis, let children):
                node.kind = .stack(axis: axis, children: children.map(fitting))
            case .form(var form):
                form.children = form.children.map(fitting)
                node.kind = .form(form)
            case .list(let layout, let sections):
                node.kind = .list(
                    layout: layout,
                    sections: sections.map { section in
                        var section = section
                        section.rows = section.rows.map(fitting)
                        return section
                    })
            case .tabs(var tabs):
                tabs.content = fitting(tabs.content)
                tabs.unselectedPanels = tabs.unselectedPanels.mapValues(fitting)
                node.kind = .tabs(tabs)
            case .module(var frame):
                frame.content = fitting(frame.content)
                node.kind = .module(frame)
            }
            return node
        }

        /// What a client is sent in place of a node it does not show.
        static func placeholder(for id: NodeID, kind: NodeKind) -> ViewNode {
            ViewNode(
                id: id,
                kind: .placeholder(.init(kind: .empty, message: "This app cannot show \(kind.inWords) here: update it to see this part.")))
        }
    }

    /// A `kinds` list a client named that the server refuses; the socket is closed with
    /// 1008 and ``message`` as its reason.
    public struct BadNodeKinds: Error, Equatable, Sendable {
        /// What was wrong with the list.
        public enum Reason: Sendable, Equatable {
            case tooLong, tooMany, badName, missingRequired
        }

        /// What was wrong with the list.
        public var reason: Reason

        /// A refusal for `reason`.
        public init(reason: Reason) {
            self.reason = reason
        }

        /// In words for the client (a close reason: at most 123 bytes).
        public var message: String {
            switch reason {
            case .tooLong: "kinds is longer than \(NodeKinds.longestQuery) bytes; name each node kind once."
            case .tooMany: "kinds names more than \(NodeKinds.mostNames) kinds; name each node kind once."
            case .badName: "kinds must be node kind names (1 to 32 letters) separated by commas."
            case .missingRequired: "kinds must name stack, module and placeholder: every client shows them."
            }
        }
    }
}
