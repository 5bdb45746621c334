import ProfileDemoDomain
import Scenery

/// A photo on a user's profile: public, like the profile itself.
public struct Photo: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var caption: String

    public init(id: Int64, caption: String) {
        self.id = id
        self.caption = caption
    }
}

/// What the photo album module needs: a user's photos, and removing one.
public protocol PhotoAlbumService: Sendable {
    /// The owner's photos, newest first. Anyone may read them.
    func photos(of owner: UserID) async throws -> [Photo]
    /// Takes a photo off the owner's album.
    func remove(_ photo: Int64, owner: UserID) async throws
}

/// An album in memory, for demos and tests.
public actor DemoPhotoAlbum: PhotoAlbumService {
    private var albums: [UserID: [Photo]]

    /// An album with these photos, by owner, newest first.
    public init(_ albums: [UserID: [Photo]]) {
        self.albums = albums
    }

    /// Three photos of user 1 (Alice in the demo data), shared by the tool's commands.
    public static let shared = DemoPhotoAlbum([
        "1": [
            Photo(id: 31, caption: "The rabbit hole, from above"),
            Photo(id: 32, caption: "Tea at six, as always"),
            Photo(id: 33, caption: "A grin without a cat"),
        ]
    ])

    public func photos(of owner: UserID) async throws -> [Photo] {
        albums[owner] ?? []
    }

    public func remove(_ photo: Int64, owner: UserID) async throws {
        albums[owner]?.removeAll { $0.id == photo }
    }
}
