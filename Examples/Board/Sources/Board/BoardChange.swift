import SceneryLive

/// What changes on the board app's data, as its modules follow it: one member's board.
///
/// The store records it in the change table (as `board`, the owner's id) in the write's
/// transaction; every process on the database hears it, and only the pages that show that
/// board fetch again.
public enum BoardChange: LiveEntity, RecordedEntity {
    /// The tasks of the board of the member with this id.
    case board(String)
    /// Anything: what a page fetches after it missed changes.
    case everything

    public static let app = "board"

    public var description: String {
        switch self {
        case .board(let owner): "board \(owner)"
        case .everything: "everything"
        }
    }

    public var record: (kind: String, id: String) {
        switch self {
        case .board(let owner): ("board", owner)
        case .everything: ("everything", "")
        }
    }

    public init?(kind: String, id: String) {
        guard kind == "board", !id.isEmpty else { return nil }
        self = .board(id)
    }
}
