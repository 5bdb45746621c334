import Foundation

/// One line of what a scene logs for experiments: an assignment, an impression, or an
/// exposure. A host chooses where they go (an ``ImpressionSink``); `scenery experiments
/// report` reads them back.
///
/// ```json
/// {"kind":"exposure","time":"2026-11-24T21:40:00Z","scene":"user-profile","variant":"default",
///  "unit":"2","module":"friends","experiment":"friends-layout","arm":"compact"}
/// ```
public struct ImpressionRecord: Sendable, Hashable, Codable {
    /// What a record says.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A unit was assigned an arm (once per page it opened).
        case assignment
        /// A module (or a row of a module that asks) was seen, once per page session.
        case impression
        /// A unit first saw what its arm changes: the impression that counts for the experiment.
        case exposure
    }

    /// What the record says.
    public var kind: Kind
    /// When it happened.
    public var time: Date
    /// The scene's id.
    public var scene: String
    /// The variant the context chose.
    public var variant: String
    /// Who: the viewer's id or the host's anonymous id; `nil` for a signed-out viewer the
    /// host gave no id.
    public var unit: String?
    /// The module seen (impressions and exposures).
    public var module: ModuleID?
    /// The row seen, for a row impression.
    public var node: NodeID?
    /// The experiment (assignments and exposures).
    public var experiment: String?
    /// The arm (assignments and exposures).
    public var arm: String?

    /// Creates a record.
    public init(
        kind: Kind, time: Date = Date(), scene: String, variant: String, unit: String?, module: ModuleID? = nil, node: NodeID? = nil,
        experiment: String? = nil, arm: String? = nil
    ) {
        self.kind = kind
        self.time = time
        self.scene = scene
        self.variant = variant
        self.unit = unit
        self.module = module
        self.node = node
        self.experiment = experiment
        self.arm = arm
    }
}
