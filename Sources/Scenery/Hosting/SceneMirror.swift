/// A host's copy of a live scene's tree, kept in step with the scene's update stream.
///
/// Every host that shows a scene somewhere else — a browser page, a terminal, a native
/// view, a test — consumes the same stream the same way: take a baseline, hold the updates
/// that arrive while it is on its way, drop those it already includes, apply the rest in
/// order, and take a new baseline when one is missing or does not apply. `SceneMirror` is
/// that logic, once; a host keeps one per scene it shows, inside its own isolation (an
/// actor, or a lock), and tells it what arrives:
///
/// ```swift
/// var mirror = SceneMirror()
///
/// // Attaching (and resynchronising): one baseline at a time.
/// mirror.prepareToAttach()                         // updates arriving meanwhile are held
/// let baseline = await scene.takeBaseline()
/// mirror.attach(baseline)                           // applies the held ones newer than it
///
/// // In SceneHost.sceneDidUpdate(_:):
/// switch mirror.receive(update) {
/// case .applied: redraw(update.node)
/// case .alreadyApplied, .held: break
/// case .needsBaseline: resynchronise()               // attach again
/// }
/// ```
///
/// A host that turns patches into something of its own (DOM operations, say) does that
/// work in `applying`, after the mirror applied them to its tree, so that both move
/// together. A host that needs no copy of the tree — it works from each update's
/// ``SceneUpdate/previous`` and ``SceneUpdate/node``, or borrows the scene's model — makes
/// the mirror with `keepsTree: false`: the ordering rules hold the same, for no copy.
///
/// The type is a value with no lock of its own, like a collection: a host that receives
/// updates concurrently keeps it behind its actor or lock, and takes one baseline at a
/// time (``SceneInstance/takeBaseline()`` makes the scene drop the updates a baseline
/// includes, so an older baseline taken in after a newer one could not be caught up).
public struct SceneMirror {
    /// What became of an update the mirror received.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// Applied: the tree now includes it.
        case applied
        /// Already in the tree: it came with the baseline (or was received twice).
        case alreadyApplied
        /// Kept until the baseline on its way arrives, then applied if newer.
        case held
        /// Not applied: an update is missing before it, or its patches do not fit the tree.
        /// Take a new baseline (``prepareToAttach()``, ``SceneInstance/takeBaseline()``,
        /// ``attach(_:applying:)``); until then every update gets this answer.
        case needsBaseline(reason: String)

        public var description: String {
            switch self {
            case .applied: "applied"
            case .alreadyApplied: "already applied"
            case .held: "held for the baseline"
            case .needsBaseline(let reason): "needs a baseline: \(reason)"
            }
        }
    }

    private var patchable: PatchableTree?
    private let keepsTree: Bool
    private var baselineTaken = false
    private var held: [Pending] = []
    private var isHolding = true
    private var missing: String?

    /// The sequence number of the last update the tree includes (``SceneSnapshot/sequence``
    /// of the baseline, then of each update applied); `0` before the first baseline.
    public private(set) var sequence = 0

    /// A mirror with no baseline yet. Until the first ``attach(_:applying:)``, updates are held.
    ///
    /// - Parameter keepsTree: Whether the mirror keeps a copy of the tree (``tree``,
    ///   ``action(withID:)``); without one it keeps the stream in order only.
    public init(keepsTree: Bool = true) {
        self.keepsTree = keepsTree
    }

    /// The host's copy of the tree, or `nil` before the first baseline (or for a mirror that
    /// keeps no tree).
    ///
    /// Built from the mirror's patchable tree on each call; to find a control, use
    /// ``action(withID:)``, which costs a lookup.
    public var tree: ViewNode? { patchable?.root }

    /// Whether a baseline was attached.
    public var isAttached: Bool { baselineTaken }

    /// Whether updates are held for a baseline on its way.
    public var isAttaching: Bool { isHolding }

    /// Whether an update was missed or did not apply, so the tree is behind the scene until
    /// the next baseline.
    public var needsBaseline: Bool { missing != nil }

    /// The control with an action id in the host's copy, or `nil` (see
    /// `PatchableTree/action(withID:)`).
    public func action(withID id: NodeID) -> ViewAction? {
        patchable?.action(withID: id)
    }

    /// Starts holding updates: call it before asking the scene for a baseline, so that the
    /// updates the scene sends while it renders it are kept for ``attach(_:applying:)``.
    public mutating func prepareToAttach() {
        isHolding = true
    }

    /// Takes a baseline as the host's copy, then applies the held updates that are newer,
    /// in order, each followed by `apply`.
    ///
    /// - Parameters:
    ///   - baseline: What ``SceneInstance/takeBaseline()`` returned.
    ///   - apply: The host's own work with an update, once the mirror applied it; throw when
    ///     it cannot be done (the update then counts as not applied).
    /// - Returns: ``Outcome/applied`` when every held update applied (or none was held),
    ///   else the ``Outcome/needsBaseline(reason:)`` of the first that did not.
    @discardableResult
    public mutating func attach(_ baseline: SceneSnapshot, applying apply: (SceneUpdate) throws -> Void = { _ in }) -> Outcome {
        patchable = keepsTree ? PatchableTree(baseline.node) : nil
        baselineTaken = true
        sequence = baseline.sequence
        missing = nil
        isHolding = false
        let waiting = held
        held = []
        for pending in waiting {
            let outcome =
                switch pending {
                case .update(let update): receive(update, applying: apply)
                case .wire(let sequence, let patches): receive(sequence: sequence, patches: patches)
                }
            if case .needsBaseline(let reason) = outcome { return .needsBaseline(reason: reason) }
        }
        return .applied
    }

    /// Takes a whole tree a server sent as the host's copy (a view-tree client's baseline:
    /// the page protocol's `tree` message, or the document a scene opened with), then
    /// applies the held updates that are newer, in order.
    ///
    /// The same as ``attach(_:applying:)`` for a client that has the scene's updates from
    /// the wire, not from a ``SceneInstance``.
    ///
    /// ```swift
    /// case .tree(let sequence, let document):
    ///     mirror.attach(tree: document.root, sequence: sequence)
    /// ```
    @discardableResult
    public mutating func attach(tree: ViewNode, sequence: Int) -> Outcome {
        attach(SceneSnapshot(node: tree, sequence: sequence))
    }

    /// Receives the scene's next update: applies it if it is the next in the stream (then
    /// runs `apply`), holds it while a baseline is on its way, and says what became of it.
    ///
    /// - Parameters:
    ///   - update: What ``SceneHost/sceneDidUpdate(_:)`` received.
    ///   - apply: The host's own work with the update, once the mirror applied it to its
    ///     tree; throw when it cannot be done (the update then counts as not applied).
    @discardableResult
    public mutating func receive(_ update: SceneUpdate, applying apply: (SceneUpdate) throws -> Void = { _ in }) -> Outcome {
        if isHolding {
            held.append(.update(update))
            return .held
        }
        return receive(sequence: update.sequence, patches: update.patches, named: update.node.id.rawValue) { try apply(update) }
    }

    /// Receives one update as a server sent it (the page protocol's `patches` message): its
    /// number and its patches. Applies it if it is the next in the stream, holds it while a
    /// baseline is on its way, and says what became of it, by the same rules as
    /// ``receive(_:applying:)``.
    ///
    /// ```swift
    /// case .patches(let sequence, _, let node, let patches):
    ///     switch mirror.receive(sequence: sequence, patches: patches) {
    ///     case .applied: redraw(mirror.tree?.node(withID: node))
    ///     case .alreadyApplied, .held: break
    ///     case .needsBaseline: socket.send(try PageProtocol.ClientMessage.resync.jsonText())
    ///     }
    /// ```
    @discardableResult
    public mutating func receive(sequence number: Int, patches: [ViewPatch]) -> Outcome {
        if isHolding {
            held.append(.wire(sequence: number, patches: patches))
            return .held
        }
        return receive(sequence: number, patches: patches, named: nil) {}
    }

    /// The ordering rules, once: the update numbered `number` applies only right after the
    /// last one applied, and only while nothing is missing.
    private mutating func receive(
        sequence number: Int, patches: [ViewPatch], named name: @autoclosure () -> String?, applying apply: () throws -> Void
    ) -> Outcome {
        guard baselineTaken else { return .needsBaseline(reason: "No baseline was taken.") }
        guard number > sequence else { return .alreadyApplied }
        if let missing { return .needsBaseline(reason: missing) }
        guard number == sequence + 1 else {
            let reason = "Update \(number) arrived after \(sequence): \(number - sequence - 1) missing."
            missing = reason
            return .needsBaseline(reason: reason)
        }
        do {
            try patchable?.apply(patches)
            try apply()
        } catch {
            let reason = "Update \(number)\(name().map { " (\($0))" } ?? "") did not apply: \(error)"
            missing = reason
            return .needsBaseline(reason: reason)
        }
        sequence = number
        return .applied
    }

    /// An update held while a baseline is on its way: from a scene, or from the wire.
    private enum Pending {
        case update(SceneUpdate)
        case wire(sequence: Int, patches: [ViewPatch])
    }
}
