import ArgumentParser
import Foundation
import Scenery

/// The scene and the context to run it for.
struct ContextOptions: ParsableArguments {
    @Argument(
        help: "The scene id: a file name in the scene directory, without .json.",
        // Asked when a shell completes, not each time the command is parsed (listing the
        // scenes is part of a cold start).
        completion: .custom { _, _, _ in ModuleCatalog.current.sceneIDs })
    var scene: String

    @Option(help: "The signed-in user's id; leave out for a signed-out viewer.")
    var viewer: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("A scene argument as name=value; repeat for several.", valueName: "name=value"))
    var arguments: [String] = []

    @Option(
        name: .customLong("arm"),
        help: ArgumentHelp(
            "Put the viewer in an experiment's arm, as experiment=arm (see '\(ToolName.current) list'); repeat for several. Only where the experiment applies.",
            valueName: "experiment=arm"))
    var arms: [String] = []

    @Option(help: ArgumentHelp("A stable anonymous id for a signed-out viewer, so experiments assign an arm.", valueName: "id"))
    var visitor: String?

    @Option(
        help: ArgumentHelp(
            "The viewer's language (BCP 47, such as zh-Hans or pl): the scene shows in it when the scenes have a catalog of it (Scenes/zh-Hans.messages.json), else in its own language, with a warning.",
            valueName: "tag"))
    var locale: String?

    func validate() throws {
        for pair in arms where pair.split(separator: "=", omittingEmptySubsequences: false).count != 2 || pair.hasPrefix("=") || pair.hasSuffix("=") {
            throw ValidationError("--arm \(pair.quoted) must have the form experiment=arm, for example --arm friends-layout=compact.")
        }
        if let viewer, viewer.allSatisfy(\.isWhitespace) {
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
        var overrides: [String: String] = [:]
        for pair in arms {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { overrides[parts[0]] = parts[1] }
        }
        return SceneContext(viewer: viewer, arguments: values, anonymousID: visitor, armOverrides: overrides, locale: locale)
    }

    /// The context, after checking that the viewer exists in the session's data (a viewer
    /// who does not exist would fail later, inside the scene, at the first action). An
    /// unknown viewer is a bad argument value: exit code 2, as documented.
    func checkedContext(in session: SceneSession) async throws -> SceneContext {
        if let viewer, try await !session.hasAccount(viewer) {
            throw CommandFailure(
                "No user with id \(viewer.quoted) exists in \(session.databaseDescription); sign in as an existing user (see '\(ToolName.current) data export -'), or leave out --viewer to view signed out.",
                code: .sceneryError)
        }
        let experiments = session.registry.experiments(of: scene).map(\.name)
        for name in context.armOverrides.keys.sorted() where !experiments.contains(name) {
            let known = experiments.isEmpty ? "\(scene.quoted) runs no experiment" : "its experiments: \(experiments.joined(separator: ", "))"
            throw CommandFailure(
                "--arm names the experiment \(name.quoted), which \(scene.quoted) does not run\(didYouMean(name, in: experiments)); \(known).",
                code: .usage)
        }
        return context
    }
}
