import Foundation

/// The package's scene files: its `user-profile`, which adds the guestbook to Scenery's.
public enum GuestbookScenes {
    public static var directory: URL? { Bundle.module.resourceURL?.appending(path: "Scenes") }
}
