/// A node of the platform-neutral view tree a scene renders to.
///
/// A view tree is a value: `Codable`, `Equatable`, with a stable ``id`` on every node.
/// Terminal, JSON and HTML renderers draw it; a native host can decode the JSON form and
/// draw it with UIKit or SwiftUI. Controls carry an ``EventDescriptor`` rather than a
/// closure, so a tree can be stored, sent and compared.
///
/// Components never know their container: a row is a node, and the same node can sit in
/// a list, a grid or alone.
///
/// ```swift
/// let row = ViewNode.stack("row.7", axis: .horizontal, [
///     .text("title", "Hello, world", role: .headline),
///     .button("like", title: "Likes: 12", sends: EventDescriptor("blog.like", payload: ["blog": 7])),
/// ])
/// let list = ViewNode.list("blogs", sections: [.init(id: "all", header: "Blogs", rows: [row])])
/// ```
public struct ViewNode: Sendable, Hashable, Identifiable {
    /// The node's stable identity.
    public var id: NodeID
    /// What the node is and shows.
    public var kind: Kind
    /// The event the node sends when it is selected (a tapped avatar, a selected row),
    /// carrying the item rather than an index; `nil` if it cannot be selected.
    public var action: EventDescriptor?

    /// Creates a node.
    public init(id: NodeID, kind: Kind, action: EventDescriptor? = nil) {
        self.id = id
        self.kind = kind
        self.action = action
    }

    /// What a node is.
    public indirect enum Kind: Sendable, Hashable {
        /// A run of text with a typographic role.
        case text(String, role: TextRole)
        /// An image from a URL or a named symbol, with alternative text.
        case image(ImageSource, alt: String)
        /// A control that sends an event when activated.
        case button(title: String, event: EventDescriptor, style: ButtonStyle)
        /// Children laid out along an axis.
        case stack(axis: Axis, children: [ViewNode])
        /// Rows grouped into sections, shown as a column or a grid.
        case list(layout: ListLayout, sections: [Section])
        /// A tab (segment) switch and the content of the selected tab.
        case tabs(TabSwitch)
        /// Stand-in content while loading, when empty, or after a failure.
        case placeholder(Placeholder)
        /// The subtree of one module in a scene, named by the module's id and type.
        case module(ModuleFrame)
        /// A field a person types text into (see ``TextField``).
        case textField(TextField)
        /// Fields and other nodes with the control that submits them (see ``Form``).
        case form(Form)
    }

    /// The typographic role of text.
    public enum TextRole: String, Sendable, Hashable, Codable, CaseIterable {
        case title, headline, body, caption
        /// What just happened to the viewer's own action, where they acted (a like that
        /// could not be saved, next to its button): hosts show it as a notice and announce
        /// it politely to assistive technology when it appears (HTML: `role="status"`).
        case status
    }

    /// Where an image comes from.
    public enum ImageSource: Sendable, Hashable {
        /// A remote or file URL.
        case url(String)
        /// A symbol name the host resolves, such as an SF Symbol.
        case symbol(String)
        /// A person's initials ("AL"), drawn in a circle where they have no picture.
        case initials(String)
        /// A person's picture at a URL, and their initials, which a host draws in its place
        /// while it does not load, or when it cannot.
        ///
        /// ```swift
        /// .image("avatar", .picture("https://example.com/alice.jpg", initials: "AL"), alt: "Alice")
        /// ```
        case picture(String, initials: String)

        /// The initials it draws, alone or in a picture's place (``initials(_:)``,
        /// ``picture(_:initials:)``).
        public var initials: String? {
            switch self {
            case .initials(let initials), .picture(_, let initials): initials
            case .url, .symbol: nil
            }
        }

        /// A person's avatar: their picture with their initials to draw while it does not load,
        /// their initials when they have no picture, and a generic symbol (`person.crop.circle`)
        /// for a nameless person without one.
        ///
        /// ```swift
        /// .image("avatar", .person(named: "Alice Liddell", picture: user.avatarURL), alt: "Alice Liddell")
        /// ```
        public static func person(named name: String, picture url: String?) -> ImageSource {
            let initials = initials(of: name.trimmingCharacters(in: .whitespacesAndNewlines))
            switch (url, initials) {
            case (let url?, let initials?): return .picture(url, initials: initials)
            case (let url?, nil): return .url(url)
            case (nil, let initials?): return .initials(initials)
            case (nil, nil): return .symbol("person.crop.circle")
            }
        }

        /// The initials of a name, for ``initials(_:)``: the first letter of its first and
        /// last words ("Alice Liddell" → "AL"), the first character of a name in one word
        /// ("李雷" → "李"), `nil` for an empty name.
        public static func initials(of name: String) -> String? {
            let words = name.split(whereSeparator: \.isWhitespace)
            guard let first = words.first?.first else { return nil }
            guard words.count > 1, let last = words.last?.first, first.isLetter, last.isLetter else { return String(first).uppercased() }
            return (String(first) + String(last)).uppercased()
        }
    }

    /// How prominent a button is.
    public enum ButtonStyle: String, Sendable, Hashable, Codable, CaseIterable {
        case primary, secondary, destructive
    }

    /// The direction of a stack.
    public enum Axis: String, Sendable, Hashable, Codable, CaseIterable {
        case vertical, horizontal
    }

    /// How a list arranges its rows. The rows are the same nodes whatever the layout: a
    /// scene chooses it for a module's list with the module instance's `"display"` key, and
    /// the module does not change.
    public enum ListLayout: Sendable, Hashable {
        /// One row under another.
        case rows
        /// Rows flow into a grid with a number of columns.
        case grid(columns: Int)
        /// Rows flow into a grid with as many columns as fit, each at least this many
        /// character widths (terminal columns; `ch` on a web page).
        case adaptiveGrid(minimumCellWidth: Int)
        /// Rows side by side in one band that scrolls sideways (a carousel).
        case carousel
    }

    /// A group of rows with an optional header and footer title.
    public struct Section: Sendable, Hashable, Identifiable, Codable {
        public var id: NodeID
        public var header: String?
        public var footer: String?
        public var rows: [ViewNode]
        /// When only a window of a long list is rendered: the index of the first row here.
        public var firstRowIndex: Int?
        /// When only a window of a long list is rendered: how many rows the list has in all.
        public var totalRowCount: Int?

        /// Creates a section.
        public init(id: NodeID, header: String? = nil, footer: String? = nil, rows: [ViewNode]) {
            self.id = id
            self.header = header
            self.footer = footer
            self.rows = rows
        }
    }

    /// A tab (segment) switch: its tabs, the selected one, and the selected tab's content.
    ///
    /// A live tree holds the selected tab's content only; selecting another tab is an
    /// update. A tree rendered as a document (`SceneInstance.renderDocument()`, for JSON
    /// and HTML files) also carries every other tab's content in ``unselectedPanels``, so
    /// nothing a viewer may see is missing from the file. Patches never touch those panels.
    public struct TabSwitch: Sendable, Hashable {
        /// One tab: its id, title, and the event that selects it.
        public struct Tab: Sendable, Hashable, Identifiable, Codable {
            public var id: String
            public var title: String
            public var event: EventDescriptor

            public init(id: String, title: String, event: EventDescriptor) {
                self.id = id
                self.title = title
                self.event = event
            }
        }

        public var tabs: [Tab]
        public var selection: String
        /// What the selected tab shows.
        public var content: ViewNode
        /// What each other tab shows, by tab id, in a document; empty in a live tree.
        public var unselectedPanels: [String: ViewNode]

        public init(tabs: [Tab], selection: String, content: ViewNode, unselectedPanels: [String: ViewNode] = [:]) {
            self.tabs = tabs
            self.selection = selection
            self.content = content
            self.unselectedPanels = unselectedPanels
        }

        /// Every tab with its content where there is one: the selected tab's, and in a
        /// document the others'.
        public var panels: [(tab: Tab, content: ViewNode?)] {
            tabs.map { tab in (tab, tab.id == selection ? content : unselectedPanels[tab.id]) }
        }
    }

    /// Stand-in content: loading, empty, or failed with an optional retry.
    public struct Placeholder: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case loading, empty, error
        }

        public var kind: Kind
        public var message: String
        /// The event a retry control sends, for errors that can be retried.
        public var retry: EventDescriptor?

        public init(kind: Kind, message: String, retry: EventDescriptor? = nil) {
            self.kind = kind
            self.message = message
            self.retry = retry
        }
    }

    /// The subtree one module rendered, labelled with the module's id, type and status.
    public struct ModuleFrame: Sendable, Hashable {
        public var module: ModuleID
        public var type: String
        public var status: ModuleStatus
        public var content: ViewNode

        public init(module: ModuleID, type: String, status: ModuleStatus, content: ViewNode) {
            self.module = module
            self.type = type
            self.status = status
            self.content = content
        }
    }
}

/// Where a module stands in its scene, as the runtime sees it.
public enum ModuleStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Created, not yet started.
    case idle
    /// Its first load (or a retry) is in flight.
    case loading
    /// Loaded; the module renders its own content.
    case ready
    /// Its load failed or timed out; the runtime shows an error with retry.
    case failed
}
