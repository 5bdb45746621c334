import SceneryText
import SceneryViewTree

extension SceneFileParser {
    /// `"transitions": { "appear": "fade", "disappear": "slide", "move": "slide", "change": "highlight" }`:
    /// each change at most once, each with an effect it takes.
    package mutating func transitions(_ node: SourceJSON.Node, path: String) -> Transitions? {
        guard let members = objectMembers(node, path: path) else { return nil }
        let fields = object(members, path: path, allowed: Transitions.Change.allCases.map(\.rawValue))
        var effects: [Transitions.Change: Transitions.Effect] = [:]
        for change in Transitions.Change.allCases {
            guard let value = fields[change.rawValue] else { continue }
            let place = join(path, change.rawValue)
            guard let name = string(value, path: place) else { continue }
            let allowed = Transitions.effects(for: change)
            guard let effect = Transitions.Effect(rawValue: name), allowed.contains(effect) else {
                let choices = allowed.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                error("'\(place)' must be \(choices), not \"\(name)\"; leave it out for no motion.", at: value.location, path: place)
                continue
            }
            effects[change] = effect
        }
        return Transitions(effects)
    }
}
