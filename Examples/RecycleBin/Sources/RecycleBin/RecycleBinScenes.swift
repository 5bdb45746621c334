import Foundation

/// The package's scene files (`Sources/RecycleBin/Scenes`, shipped as resources).
public enum RecycleBinScenes {
    /// Their folder among the package's resources.
    public static var directory: URL {
        (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appending(path: "Scenes", directoryHint: .isDirectory)
    }
}
