import Foundation
import ProfileDemoDomain
import Scenery
import SceneryFaults

/// A blog its author deleted, kept in the bin until restored.
public struct DeletedBlog: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var title: String
    public var deletedAt: Date

    public init(id: Int64, title: String, deletedAt: Date) {
        self.id = id
        self.title = title
        self.deletedAt = deletedAt
    }
}

/// What the recycle bin module needs: the deleted blogs of an owner, and restoring one.
public protocol RecycleBinService: Sendable {
    /// The owner's deleted blogs, most recently deleted first.
    /// - Throws: ``ProfileError/notPermitted(_:)`` unless `viewer` is `owner`.
    func deletedBlogs(of owner: UserID, viewer: UserID) async throws -> [DeletedBlog]
    /// Takes a blog out of the bin.
    func restore(_ blog: Int64, owner: UserID) async throws
}

extension ServiceName {
    /// ``RecycleBinService``, for `--fail bin` and `--latency bin=2s`.
    public static let recycleBin: ServiceName = "bin"
}

/// A bin in memory, for demos and tests.
public actor DemoRecycleBin: RecycleBinService {
    private var bins: [UserID: [DeletedBlog]]

    /// A bin with these contents, by owner.
    public init(_ bins: [UserID: [DeletedBlog]]) {
        self.bins = bins
    }

    /// Two deleted blogs of user 1 (Alice in the demo data), shared by the tool's commands.
    public static let shared = DemoRecycleBin([
        "1": [
            DeletedBlog(id: 901, title: "Notes on the tea party", deletedAt: Date(timeIntervalSince1970: 1_767_600_000)),
            DeletedBlog(id: 902, title: "A clock that runs backwards", deletedAt: Date(timeIntervalSince1970: 1_767_000_000)),
        ]
    ])

    public func deletedBlogs(of owner: UserID, viewer: UserID) async throws -> [DeletedBlog] {
        guard viewer == owner else { throw ProfileError.notPermitted(RecycleBinModule.privacyMessage) }
        return (bins[owner] ?? []).sorted { $0.deletedAt > $1.deletedAt }
    }

    public func restore(_ blog: Int64, owner: UserID) async throws {
        bins[owner]?.removeAll { $0.id == blog }
    }
}

/// A bin whose calls take the faults of a ``FaultInjector`` (`--fail bin`, tests).
public struct FaultyRecycleBin: RecycleBinService {
    let base: any RecycleBinService
    let injector: FaultInjector

    public init(base: any RecycleBinService, injector: FaultInjector) {
        self.base = base
        self.injector = injector
    }

    public func deletedBlogs(of owner: UserID, viewer: UserID) async throws -> [DeletedBlog] {
        try await injector.apply(.recycleBin, .read)
        return try await base.deletedBlogs(of: owner, viewer: viewer)
    }

    public func restore(_ blog: Int64, owner: UserID) async throws {
        try await injector.apply(.recycleBin, .write)
        try await base.restore(blog, owner: owner)
    }
}
