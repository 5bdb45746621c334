import Foundation

/// The app's scene files (`Sources/Board/Scenes`, shipped as resources).
public enum BoardScenes {
    /// Their folder among the package's resources.
    public static var directory: URL {
        (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appending(path: "Scenes", directoryHint: .isDirectory)
    }
}
