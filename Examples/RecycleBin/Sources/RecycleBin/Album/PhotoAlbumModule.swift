import ProfileDemoDomain
import Scenery

/// A user's photos, shown to everyone; only the owner may remove one.
///
/// The module any viewer sees with an action only one of them may take: the owner gets a
/// Remove button on each photo, everyone else a plain list. The descriptor declares
/// `album.remove` owner-only, so the router refuses it to anyone but `owner` — a forged
/// message or a scene rule that lets it through included — before ``perform(_:)`` runs.
///
/// ```json
/// { "id": "album", "type": "PhotoAlbumModule", "params": { "owner": "$user" }, "after": "friends" }
/// ```
public actor PhotoAlbumModule: Module {
    /// What `album.remove` carries: the photo, and its caption for the scene's question.
    public struct Removal: Codable, Sendable, Hashable {
        public var photo: Int64
        public var caption: String

        public init(photo: Int64, caption: String) {
            self.photo = photo
            self.caption = caption
        }
    }

    /// Sent by a photo's Remove button (the owner's only); removed here once the scene lets it through.
    public static let remove = EventKind("album.remove", payload: Removal.self)

    public static let descriptor = ModuleDescriptor(
        type: "PhotoAlbumModule",
        summary: "A user's photos, for everyone; the owner may remove them.",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose album."),
            ParameterSpec("header", .string, default: "Photos", summary: "The list's header."),
            ParameterSpec("emptyText", .string, default: "No photos yet.", summary: "Shown when the album is empty."),
            ParameterSpec("removeTitle", .string, default: "Remove", summary: "The owner's remove button."),
        ],
        sends: [remove],
        performs: [remove],
        // Everyone sees the album; only its owner may remove a photo.
        ownerOnlyActions: [remove.name: "owner"])

    private let owner: UserID
    private let header: String
    private let emptyText: String
    private let removeTitle: String
    private let album: any PhotoAlbumService
    private let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    private var state: LoadState<[Photo]> = .idle
    private var removalFailure: String?

    public init(parameters: ModuleParameters, context: ModuleContext, album: any PhotoAlbumService) throws {
        owner = UserID(try parameters.string("owner"))
        header = try parameters.string("header")
        emptyText = try parameters.string("emptyText")
        removeTitle = try parameters.string("removeTitle")
        self.album = album
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        if request == .nextPage { return }
        state = .loading
        do {
            let photos = try await album.photos(of: owner)
            state = photos.isEmpty ? .empty : .loaded(photos)
        } catch {
            state = .failed(SceneryError.message(for: error))
            throw error
        }
    }

    public func render() -> ViewNode {
        let isOwner = context.viewer == owner.rawValue
        return state.render(id: "album", loadingMessage: "Opening the album…", emptyMessage: emptyText) { photos in
            let rows = photos.map { photo in
                var cells: [ViewNode] = [.text("photo.\(photo.id).caption", photo.caption, role: .body)]
                if isOwner {
                    cells.append(
                        .button(
                            "photo.\(photo.id).remove", title: removeTitle,
                            sends: Self.remove.descriptor(Removal(photo: photo.id, caption: photo.caption))))
                }
                return ViewNode.stack("photo.\(photo.id)", axis: .horizontal, cells)
            }
            var children: [ViewNode] = [.list("list", sections: [.init(id: "photos", header: header, rows: rows)])]
            if let removalFailure { children.append(.text("failure", removalFailure, role: .caption)) }
            return .stack("content", children)
        }
    }

    /// Removes the photo once the scene let `album.remove` through (the router has already
    /// refused it to anyone but the owner).
    /// - Throws: The album's error, after showing it under the list.
    public func perform(_ event: Event) async throws {
        guard let removal = try? Self.remove.payload(of: event), case .loaded(let photos) = state else { return }
        do {
            try await album.remove(removal.photo, owner: owner)
            let left = photos.filter { $0.id != removal.photo }
            state = left.isEmpty ? .empty : .loaded(left)
            removalFailure = nil
        } catch {
            removalFailure = "Couldn't remove the photo: \(SceneryError.message(for: error))"
            await context.setNeedsRender()
            throw error
        }
        await context.setNeedsRender()
    }
}
