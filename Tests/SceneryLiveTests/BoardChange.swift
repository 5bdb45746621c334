import SceneryLive

/// An app's own entities, of another domain than the demo's: what the generic live layer is
/// tested with.
enum BoardChange: LiveEntity {
    case task(Int)
    case comments(on: Int)
    case everything

    var description: String {
        switch self {
        case .task(let id): "task \(id)"
        case .comments(let id): "task \(id)'s comments"
        case .everything: "everything"
        }
    }
}
