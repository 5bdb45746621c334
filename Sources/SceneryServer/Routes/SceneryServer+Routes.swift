import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import ServiceLifecycle

extension SceneryServer {
    /// The name of the sign-in cookie.
    static let cookieName = "scenery-viewer"

    /// The server's routes, for mounting in an application of your own (with
    /// ``httpServer()`` as its server, so `/live` can upgrade to a page socket).
    public func router() -> Router<SceneryRequestContext> {
        let router = Router(context: SceneryRequestContext.self)
        router.middlewares.add(SecurityHeaders())
        router.middlewares.add(NoBodyUnlessPosted())
        router.middlewares.add(ThemeMiddleware(server: self))
        router.middlewares.add(NotFoundPage(server: self))
        // Where a visitor starts: sign in, people to visit; the scenes' index is a link away.
        router.get("/") { request, _ in
            self.html(
                Pages.home(personScene: self.personScene, users: self.users, viewer: self.viewer(of: request), language: self.homeLanguage))
        }
        router.get("/scenes") { request, context in
            self.html(
                Pages.index(
                    registry: self.registry, users: self.users, viewer: self.viewer(of: request),
                    previews: self.configuration.enablesPreview && self.isFromThisMachine(request, context: context)))
        }
        router.get("/assets/scenery.js") { _, _ in
            Self.asset(ClientScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get("/assets/scenery.css") { _, _ in
            Self.asset(Pages.stylesheet, type: "text/css; charset=utf-8")
        }
        router.get(RouterPath(Pages.iconPath)) { _, _ in
            Self.asset(Pages.icon, type: "image/svg+xml")
        }
        router.get("/assets/theme.css") { _, _ in
            Self.asset(self.registry.themeStylesheet, type: "text/css; charset=utf-8")
        }
        router.get("/pictures/:name") { _, context in try self.picture(named: try context.parameters.require("name")) }
        router.get("/sign-in") { request, _ in
            self.html(Pages.signIn(users: self.users, viewer: self.viewer(of: request), next: Self.localPath(request.uri.queryParameters["next"]) ?? "/"))
        }
        router.post("/sign-in") { request, context in try await self.signIn(request, context: context) }
        router.post("/sign-out") { request, context in try await self.signOut(request, context: context) }
        router.get("/scenes/:id") { request, context in
            let id = try context.parameters.require("id")
            // `<id>.json` is the scene file itself, `index.json` the list of them (for apps
            // that take their scenes from this server); anything else is the page.
            if id.hasSuffix(".json") { return self.sceneFile(String(id.dropLast(".json".count)), request: request) }
            return await self.scenePage(id, request: request, context: context, viewer: self.viewer(of: request)?.id)
        }
        // The same live scene for a client that reads the view tree (a native app, `scenery
        // connect`): the scene as a view-tree document with its session, then `/live`.
        // It names the node kinds it shows (`?kinds=`); it is sent no other.
        router.get("/api/scenes/:id") { request, context in
            let kinds: PageProtocol.NodeKinds
            do throws(PageProtocol.BadNodeKinds) {
                kinds = try PageProtocol.NodeKinds(query: request.uri.queryParameters[Substring(Self.kindsParameter)])
            } catch {
                return self.apiRefusal(error.message, status: .badRequest)
            }
            return await self.scenePage(
                try context.parameters.require("id"), request: request, context: context, viewer: self.viewer(of: request)?.id,
                format: .viewTree(kinds))
        }
        if let metricsPage = configuration.telemetry.metricsPage {
            router.get("/metrics") { request, context in self.metricsResponse(metricsPage, request: request, context: context) }
        }
        if configuration.enablesInspector {
            router.get(RouterPath(InspectorScript.path)) { _, _ in Self.asset(InspectorScript.source, type: "text/javascript; charset=utf-8") }
            router.get("/inspect/:session") { request, context in
                await self.inspection(of: try context.parameters.require("session"), request: request, context: context)
            }
        }
        router.get("/preview/:id") { request, context in
            try await self.previewPage(try context.parameters.require("id"), request: request, context: context)
        }
        router.get("/preview/:id/frame") { request, context in
            try await self.previewFrame(try context.parameters.require("id"), request: request, context: context)
        }
        return router
    }
}

/// Adds the headers every response carries: a strict Content-Security-Policy (same-origin
/// script and style only, images from the web, the socket to this origin) and friends.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src http: https:; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"
        response.headers[.xContentTypeOptions] = "nosniff"
        if let name = HTTPField.Name("Referrer-Policy") { response.headers[name] = "same-origin" }
        return response
    }
}

/// Answers an address no page has with a page a person can read and leave (a 404 with the
/// site's header and a way home), where an empty body made the browser show its own error.
/// The page socket and the view-tree API keep their own answers.
struct NotFoundPage: RouterMiddleware {
    let server: SceneryServer

    func handle(_ request: Request, context: SceneryRequestContext, next: (Request, SceneryRequestContext) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil && !request.uri.path.hasPrefix("/api/") {
            return server.html(
                Pages.problem(
                    title: "Page not found",
                    message: "There is no page at this address. It may have moved, or the address may be mistyped; start again from the home page.",
                    viewer: server.viewer(of: request), returnTo: "/"),
                status: .notFound)
        }
    }
}

/// Refuses a request body where no route reads one (anything but POST): a client that
/// announces a body and sends it slowly would otherwise hold its connection open.
struct NoBodyUnlessPosted<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method != .post,
            request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
        {
            throw HTTPError(.badRequest, headers: [.connection: "close"], message: "This address takes no request body; send the request without one.")
        }
        return try await next(request, context)
    }
}

/// Ends page sessions whose socket has been gone longer than the grace period.
struct SessionSweeper: Service {
    let sessions: SessionStore

    func run() async throws {
        // Stops when the server shuts down (gracefully or not), ending every page's scene.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(2))
                await sessions.sweep()
            }
        }
        await sessions.endAll()
    }
}
