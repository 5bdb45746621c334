import ArgumentParser
import Foundation
import ProfileDomain
import Scenery

/// The scene and the context to run it for.
struct ContextOptions: ParsableArguments {
    @Argument(
        help: "The scene id: a file name in the scene directory, without .json.",
        completion: .list(ModuleCatalog.current.sceneIDs))
    var scene: String

    @Option(help: "The signed-in user's id; leave out for a signed-out viewer.")
    var viewer: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("A scene argument as name=value; repeat for several.", valueName: "name=value"))
    var arguments: [String] = []

    func validate() throws {
        if let viewer, viewer.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("'--viewer' needs a user id, for example --viewer 1; leave it out to view signed out.")
        }
        for pair in arguments where !pair.contains("=") || pair.hasPrefix("=") {
            throw ValidationError("--arg \(pair.quoted) must have the form name=value, for example --arg user=1.")
        }
    }

    /// The context: the viewer and the arguments as text (the scene converts them to its types).
    var context: SceneContext {
        var values: [String: JSONValue] = [:]
        for pair in arguments {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            values[String(pair[..<equals])] = .string(String(pair[pair.index(after: equals)...]))
        }
        return SceneContext(viewer: viewer, arguments: values)
    }

    /// The context, after checking that the viewer exists in the session's data (a viewer
    /// who does not exist would fail later, inside the scene, at the first action).
    func checkedContext(in session: SceneSession) async throws -> SceneContext {
        if let viewer, try await !session.userExists(UserID(viewer)) {
            throw CommandFailure(
                "No user with id \(viewer.quoted) exists in \(session.databaseDescription); sign in as an existing user (see 'scenery data export -'), or leave out --viewer to view signed out.",
                code: .usage)
        }
        return context
    }
}
