import Foundation
import Hummingbird
import Scenery

extension SceneryServer {
    /// `GET /inspect/{session}?node=ID` (with ``Configuration/enablesInspector``): what
    /// `SceneInstance.inspect(_:)` says of the node on that page, the theme the request's
    /// cookie chose, and the page's recent events and the problems it reported itself (a script error, a patch it could not
    /// apply), as JSON. Answered to the page's own viewer on this machine only; any other
    /// request gets 403 (another machine) or 404 (no such page of this viewer's, no module
    /// showing the node), and learns nothing of the page.
    func inspection(of sessionID: String, request: Request, context: SceneryRequestContext) async -> Response {
        guard isFromThisMachine(request, context: context) else {
            logger.notice("refused an inspector request from \(clientAddress(peer: context.peer, headers: request.headers))")
            return apiRefusal("The inspector answers requests from this machine only (a loopback address).", status: .forbidden)
        }
        guard let node = request.uri.queryParameters["node"].map(String.init), !node.isEmpty, node.utf8.count <= 512 else {
            return apiRefusal("Name the part of the page to inspect: ?node=ID, the element's id.", status: .badRequest)
        }
        guard let session = await sessions.session(String(sessionID.prefix(64))), session.viewer == viewer(of: request)?.id,
            let (inspection, events, problems) = await session.inspect(NodeID(node))
        else {
            return apiRefusal("No module of this page of yours shows \(node.quoted(limit: 60)).", status: .notFound)
        }
        guard case .object(var fields)? = try? JSONValueEncoder().encode(inspection) else {
            return apiRefusal("The inspection could not be written as JSON.", status: .internalServerError)
        }
        if let position = inspection.position, let link = configuration.editorLink?(inspection.file, position) {
            fields["editorLink"] = .string(link)
        }
        // The page's theme, as this request's cookie has it (the page's own choice).
        fields["theme"] = requestedTheme(of: request).choice.chosen.map { .string($0) } ?? .null
        fields["events"] = .array(events.map { .string($0) })
        fields["problems"] = .array(problems.map { .string($0) })
        let body = (try? JSONEncoder().encode(JSONValue.object(fields))) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension PageSession {
    /// How many of the page's recent events the inspector lists.
    static let inspectedEvents = 20

    /// The inspection of `node` on this page, its newest events, each as its route
    /// (`blog.like from blogs/blog.26.like: module blogs: handled → …`), and the problems it
    /// reported (as logged), newest last.
    func inspect(_ node: NodeID) async -> (SceneInstance.Inspection, [String], [String])? {
        guard let scene, let inspection = await scene.inspect(node) else { return nil }
        return (inspection, recentEvents, problemsReported)
    }

    /// The page's newest events and updates (at most ``inspectedEvents``), oldest first, as its
    /// ``PageTrace`` has them (routes, rules, µs, patches). Only an inspecting server asks (the
    /// inspector's route, `trace`), and its pages keep a trace.
    var recentEvents: [String] { Array(trace?.lines.suffix(Self.inspectedEvents) ?? []) }
}
