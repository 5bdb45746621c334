import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import ServiceLifecycle

/// Previews of an unsaved scene file: who may ask, the page that shows each viewer's
/// frame, and the frames.
extension SceneryServer {
    /// Why a preview request is refused, or `nil` when it may be served: the server must
    /// have been started for authoring, and the request must come from this machine (behind
    /// a trusted proxy: the client it names must be this machine).
    func previewRefusal(_ request: Request, context: SceneryRequestContext) throws -> Response? {
        guard configuration.enablesPreview else { throw HTTPError(.notFound) }
        guard isFromThisMachine(request, context: context) else {
            logger.notice("refused a preview request from \(clientAddress(peer: context.peer, headers: request.headers))")
            return html(
                Pages.problem(
                    title: "The preview is for authors on this machine",
                    message:
                        "The preview answers requests from this machine only (a loopback address). Open it in a browser on the machine that runs scenery serve.",
                    viewer: viewer(of: request), returnTo: "/"),
                status: .forbidden)
        }
        return nil
    }

    /// A scene's variants side by side: its owner's (the signed-in author viewing their
    /// own data), another viewer's (the author viewing someone else's), and signed out.
    func previewPage(_ sceneID: String, request: Request, context: SceneryRequestContext) async throws -> Response {
        if let refusal = try previewRefusal(request, context: context) { return refusal }
        let registry = self.registry
        let author = viewer(of: request)
        guard registry.sceneIDs.contains(sceneID) else {
            return html(
                Pages.problem(title: "No such scene", message: "No scene \(sceneID.quoted) is registered.", viewer: author, returnTo: "/"),
                status: .notFound)
        }
        let arguments = Self.arguments(of: request).filter { $0.key != "as" }
        let ownerParameter = registry.parameters(of: sceneID).first { $0.type == .userID }?.name
        var contexts: [(label: String, arguments: [String: JSONValue], viewer: String?)] = []
        var notes: [String] = []
        if let author, let ownerParameter {
            var own = arguments
            own[ownerParameter] = .string(author.id)
            contexts.append(("Its owner (you, on your own data)", own, author.id))
            let requested = arguments[ownerParameter]?.stringValue
            let other = requested.flatMap { id in id == author.id ? nil : id } ?? users.first { $0.id != author.id }?.id
            if let other {
                var others = arguments
                others[ownerParameter] = .string(other)
                contexts.append(("Another viewer (you, on user \(other)'s)", others, author.id))
            }
        } else if author != nil {
            contexts.append(("Signed in (you)", arguments, author?.id))
        } else if ownerParameter != nil {
            notes.append("Sign in to see the owner's and another viewer's variants: the preview shows them with your own data.")
        }
        contexts.append(("Signed out", arguments, nil))
        var frames = contexts.map { ($0.label, framePath(sceneID, $0.arguments, as: $0.viewer)) }
        // Each arm of each experiment, side by side, in the first of those views the
        // experiment takes part in.
        for experiment in registry.experiments(of: sceneID) {
            guard
                let context = contexts.first(where: { context in
                    experiment.condition?.evaluate(in: Condition.Environment(viewer: context.viewer, arguments: context.arguments)) ?? true
                })
            else {
                notes.append("No view here takes part in the experiment \(experiment.name.quoted) (\(experiment.condition?.source ?? "")).")
                continue
            }
            for arm in experiment.arms {
                var chosen = context.arguments
                chosen["\(Self.armPrefix)\(experiment.name)"] = .string(arm.name)
                frames.append(
                    (
                        "Arm \(arm.name.quoted) of \(experiment.name) (\(context.label.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces).lowercased()))",
                        framePath(sceneID, chosen, as: context.viewer)
                    ))
            }
        }
        return html(
            Pages.preview(
                title: registry.title(of: sceneID) ?? sceneID, frames: frames, notes: notes, viewer: author, returnTo: request.uri.description))
    }

    func framePath(_ sceneID: String, _ arguments: [String: JSONValue], as viewer: String?) -> String {
        var all = arguments
        all["as"] = .string(viewer ?? "")
        return PageSession.path(of: sceneID, arguments: all).replacingOccurrences(of: "/scenes/", with: "/preview/").replacingOccurrences(
            of: "?", with: "/frame?")
    }

    /// One frame of a preview: the scene as the signed-in author (`as` is their id) or
    /// signed out (`as` is empty). A frame never shows a scene as anyone else.
    func previewFrame(_ sceneID: String, request: Request, context: SceneryRequestContext) async throws -> Response {
        if let refusal = try previewRefusal(request, context: context) { return refusal }
        let author = viewer(of: request)
        let asked = request.uri.queryParameters["as"].map(String.init) ?? ""
        guard asked.isEmpty || asked == author?.id else {
            logger.notice("refused a preview frame as viewer \(asked.quoted) for \(author.map { "viewer \($0.id.quoted)" } ?? "a signed-out author")")
            return html(
                Pages.problem(
                    title: "A preview shows your own view only",
                    message:
                        "A preview frame shows a scene as you (\(author.map { "viewer \($0.id)" } ?? "signed out")) or signed out, not as viewer \(asked.quoted). Sign in as that viewer to see their variant.",
                    viewer: author, returnTo: "/"),
                status: .forbidden)
        }
        return await scenePage(sceneID, request: request, context: context, viewer: asked.isEmpty ? nil : author?.id, framed: true)
    }
}
