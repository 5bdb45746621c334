import SceneryText
import SceneryViewTree

/// An experiment a scene file declares: people who take part are split between arms by
/// weight, and each arm changes the scene the way a variant does.
///
/// ```json
/// "experiments": [
///   { "name": "friends-layout",
///     "arms": [
///       { "name": "carousel", "weight": 50 },
///       { "name": "compact", "weight": 50,
///         "replace": [ { "id": "friends", "type": "UserListModule", "display": "rows",
///                        "params": { "user": "$user", "list": "friends", "presenter": "friend" } } ] }
///     ] }
/// ]
/// ```
///
/// An arm takes a variant's keys (`add`, `remove`, `replace`, `params`, `layout`, `tabs`,
/// `events`) and applies them on top of the variant the viewer's context chose; an arm with
/// `"extends": "owner"` starts from that variant instead. `"when"` limits who takes part.
/// Assignment is a stable hash of the experiment's name and the viewer (or the host's
/// anonymous id), so a person stays in one arm (see `ExperimentAssignment`); the validator
/// checks every arm as it checks a variant, privacy included. See <doc:Experiments>.
package struct Experiment: Sendable {
    /// The experiment's name, unique in its scene; assignment hashes it.
    package var name: String
    /// Who takes part; `nil` means everyone the host can identify.
    package var condition: Condition?
    /// The arms, in the file's order.
    package var arms: [Arm]
    /// The JSON path of this experiment in its file.
    package var path: String = ""
    /// The file the experiment was written in (a parent's, when inherited).
    package var file: String = ""

    /// Creates an experiment.
    package init(name: String, condition: Condition? = nil, arms: [Arm]) {
        self.name = name
        self.condition = condition
        self.arms = arms
    }

    /// One arm of an experiment: its share of the people taking part, and what it changes.
    package struct Arm: Sendable {
        /// The arm's name, unique in its experiment.
        package var name: String
        /// Its share, relative to the other arms' weights (50 and 50 split evenly).
        package var weight: Double
        /// What the arm changes, written like a variant; `changes.extends` names the variant
        /// the arm starts from, if any. Its `condition` is unused: the experiment's decides.
        package var changes: Variant

        /// Creates an arm.
        package init(name: String, weight: Double, changes: Variant? = nil) {
            self.name = name
            self.weight = weight
            self.changes = changes ?? Variant(name: name, condition: nil, add: [], remove: [], replace: [], layout: nil, events: [])
        }

        /// Whether the arm replaces the page's arrangement: a layout of its own, or a variant
        /// it starts from.
        package var replacesLayout: Bool { changes.layout != nil || changes.extends != nil }
    }

    /// The arm a unit (a viewer's id or an anonymous id) falls in: its stable bucket in
    /// [0, 1) against the arms' cumulative shares.
    package func arm(for unit: String) -> Arm {
        let total = arms.reduce(0) { $0 + $1.weight }
        let point = ExperimentAssignment.bucket(experiment: name, unit: unit) * total
        var cumulative = 0.0
        for arm in arms {
            cumulative += arm.weight
            if point < cumulative { return arm }
        }
        return arms[arms.count - 1]
    }
}
