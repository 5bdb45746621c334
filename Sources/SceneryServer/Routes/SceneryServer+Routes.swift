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
        // Where a visitor starts: sign in, people to visit; the scenes' index is a link away.
        router.get("/") { request, _ in
            self.html(
                Pages.home(personScene: self.personScene, users: self.users, viewer: self.viewer(of: request), language: self.homeLanguage))
        }
        router.get("/scenes") { request, context in
            self.html(
                Pages.index(
                    registry: self.registry, users: self.users, viewer: self.viewer(of: request),
                    previews: self.configuration.enablesPreview && context.isFromLoopback))
        }
        router.get("/assets/scenery.js") { _, _ in
            Self.asset(ClientScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get("/assets/scenery.css") { _, _ in
            Self.asset(Pages.stylesheet, type: "text/css; charset=utf-8")
        }
        router.get("/assets/theme.css") { _, _ in
            Self.asset(self.registry.themeStylesheet, type: "text/css; charset=utf-8")
        }
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
        router.get("/api/scenes/:id") { request, context in
            await self.scenePage(
                try context.parameters.require("id"), request: request, context: context, viewer: self.viewer(of: request)?.id, format: .viewTree)
        }
        router.get("/preview/:id") { request, context in
            try await self.previewPage(try context.parameters.require("id"), request: request, context: context)
        }
        router.get("/preview/:id/frame") { request, context in
            try await self.previewFrame(try context.parameters.require("id"), request: request, context: context)
        }
        return router
    }

    // MARK: Pages

    /// The scene a person's name opens: ``Configuration/personScene`` when the registry has
    /// it without errors, else the first scene whose one required parameter is a person.
    var personScene: (id: String, parameter: String)? {
        func person(of id: String) -> String? {
            guard !registry.diagnostics(for: id).containsErrors else { return nil }
            let required = registry.parameters(of: id).filter { $0.defaultValue == nil }
            return required.count == 1 && required[0].type == .userID ? required[0].name : nil
        }
        if let chosen = configuration.personScene { return person(of: chosen).map { (chosen, $0) } }
        return registry.sceneIDs.lazy.compactMap { id in person(of: id).map { (id, $0) } }.first
    }

    /// The language of the person scene, for the home page's `lang` (English without one).
    var homeLanguage: String { personScene.flatMap { registry.language(of: $0.id) } ?? "en" }

    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The signed-in user, from the cookie only; a tampered, expired or unknown one is no one.
    func viewer(of request: Request) -> SignInUser? {
        guard let value = request.cookies[Self.cookieName]?.value, let id = cookies.user(from: value) else { return nil }
        return users.first { $0.id == id }
    }

    /// The scene's arguments from the query.
    static func arguments(of request: Request) -> [String: JSONValue] {
        var arguments: [String: JSONValue] = [:]
        for (name, value) in request.uri.queryParameters {
            arguments[String(name)] = .string(String(value))
        }
        return arguments
    }

    /// A page path the request may return to after signing in or out, or `nil` to send
    /// the person home.
    ///
    /// Browsers drop tabs and newlines from a URL and read a backslash as a slash, so
    /// `/<TAB>/evil.example` and `/\\evil.example` both mean `//evil.example`: another site.
    /// The value is percent-decoded once (as the form and the query are), then accepted only
    /// if it is a path on this server: it starts with one `/` that is not followed by another
    /// `/` or a backslash, and holds no control character, backslash or encoded form of one.
    static func localPath(_ value: Substring?) -> String? {
        guard let value, value.utf8.count < 2048, let decoded = String(value).removingPercentEncoding else { return nil }
        // A second decoding must not reveal what the first would have refused.
        let twice = decoded.removingPercentEncoding ?? decoded
        for text in [decoded, twice] {
            guard text.hasPrefix("/"), !text.hasPrefix("//"),
                !text.unicodeScalars.contains(where: { $0 == "\\" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || Self.isBidiControl($0) })
            else { return nil }
        }
        return decoded
    }

    /// Whether a character reorders text around it (which could make a path read as
    /// another).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// A live scene page: the scene assembled for the viewer, its first rendering, and a
    /// session for the page's socket.
    func scenePage(
        _ sceneID: String, request: Request, context: SceneryRequestContext, viewer: String?, framed: Bool = false,
        format: PageSession.Format = .html
    ) async -> Response {
        let signedIn = users.first { $0.id == viewer }
        let address = clientAddress(peer: context.peer, headers: request.headers)
        let reservation: SessionStore.Reservation
        switch await reservePage(viewer: viewer, address: address) {
        case .success(let held): reservation = held
        case .failure(let reached):
            guard format == .viewTree else { return tooManyPages(reached, signedIn: signedIn) }
            return apiRefusal(
                "You have as many live scenes of this site open as one person may hold; close some, then try again in a minute.",
                status: .tooManyRequests)
        }
        let returnTo = request.uri.description
        var arguments = Self.arguments(of: request)
        // The language switch's `?lang=` and the theme switch's `?theme=` (which
        // ``ThemeMiddleware`` reads) are the page's, not the scene's, unless the scene has a
        // parameter of that name; the scene is looked at only when the address has one.
        let (locale, chosenLanguage) = requestedLocale(of: request, sceneID: sceneID)
        for name in [Self.languageParameter, Self.themeParameter] where arguments[name] != nil {
            if !registry.parameters(of: sceneID).contains(where: { $0.name == name }) { arguments[name] = nil }
        }
        // A preview frame (an author on this machine) may put itself in an experiment's arm
        // with `arm.EXPERIMENT=ARM`; anywhere else that is a scene argument like any other.
        var overrides: [String: String] = [:]
        if framed {
            arguments["as"] = nil
            for (name, value) in arguments where name.hasPrefix(Self.armPrefix) {
                overrides[String(name.dropFirst(Self.armPrefix.count))] = value.stringValue
                arguments[name] = nil
            }
        }
        let (visitor, newVisitorCookie) = viewer == nil ? visitorID(of: request, address: address) : (nil, nil)
        let registry = self.registry
        let session = PageSession(
            id: SessionStore.newID(), viewer: viewer, sceneID: sceneID, arguments: arguments, renderer: renderer,
            configuration: configuration, logger: logger, isPreview: framed, address: address, anonymousID: visitor,
            armOverrides: overrides, format: format, locale: locale)
        let scene: SceneInstance
        do {
            scene = try registry.instantiate(sceneID, for: session.context, host: session.host)
        } catch {
            await sessions.release(reservation)
            let status: HTTPResponse.Status = error.code == .unknownScene ? .notFound : .badRequest
            if format == .viewTree { return apiRefusal(error.description, status: status) }
            // A page's words for a page's visitor: its address, never a command's options.
            let message =
                error.missingArgument.map { name in
                    "This page needs to know which \(name) to show: add ?\(name)=… to its address, or start from the home page."
                } ?? error.description
            return html(
                Pages.problem(
                    title: status == .notFound ? "No such page" : "This page cannot open", message: message, viewer: signedIn, returnTo: "/"),
                status: status)
        }
        session.host.link(session)
        await session.setInitialWindows(of: scene)
        // The modules that load within the wait are in the response; slower ones are their
        // loading placeholders there, patched in over the socket as each one loads.
        await scene.start(waitingAtMost: configuration.firstResponseWait)
        await scene.appear()
        let snapshot = await scene.takeBaseline()
        // Nothing to show (a user or blog that does not exist): one "not found" page with
        // status 404 and a way back, not a failure per module with status 200.
        if format == .html, !framed, let missing = await scene.permanentFailure {
            await scene.leave()
            await sessions.release(reservation)
            return html(Pages.problem(title: "Not found", message: missing, viewer: signedIn, returnTo: "/"), status: .notFound)
        }
        await session.install(scene, baseline: snapshot)
        await sessions.add(session, in: reservation)
        if let errors = currentErrors { await session.showErrors(errors) }
        let language = registry.language(of: sceneID, for: locale)
        if let chosenLanguage, !registry.canShow(sceneID, in: chosenLanguage) {
            noteUnshownLanguage(chosenLanguage, sceneID: sceneID, shown: language)
        }
        if format == .viewTree {
            var response = apiScene(snapshot.node, scene: scene, session: session.id, visitorCookie: newVisitorCookie, language: language)
            if let chosenLanguage { response.setCookie(Self.languageCookie(chosenLanguage)) }
            return response
        }
        // The page names what it is about (the person, the blog) when a module says so; a
        // module still loading names it when it loads.
        let title = await scene.pageTitle() ?? registry.title(of: sceneID, in: language) ?? sceneID
        await session.showsTitle(title)
        let page = Pages.scene(
            snapshot.node, title: title, language: language, session: session.id, viewer: signedIn,
            returnTo: returnTo, renderer: renderer, showsBanner: !framed, impressionFraction: scene.impressionRule.minimumVisibleFraction,
            modulesCountingRows: scene.modulesCountingRows, resumeToken: await session.signedResumeToken(),
            largestMessage: configuration.maxMessageSize, transitions: scene.transitions, languages: languages(of: sceneID))
        var response = html(framed ? page.replacingOccurrences(of: "<body>", with: "<body class=\"framed\">") : page)
        if let newVisitorCookie {
            response.setCookie(Self.visitorCookie(newVisitorCookie))
        }
        if let chosenLanguage {
            response.setCookie(Self.languageCookie(chosenLanguage))
        }
        return response
    }

    /// A live scene for a view-tree client: its session (for `/live`), the protocol version,
    /// the language the scene is shown in, and the scene as a view-tree document, numbered 0.
    ///
    /// ```json
    /// {"type":"tree","session":"…","protocol":1,"language":"en","sequence":0,"format":"scenery.view-tree","version":1,
    ///  "scene":"user-profile","variant":"default","root":{…}}
    /// ```
    func apiScene(_ tree: ViewNode, scene: SceneInstance, session: String, visitorCookie: String?, language: String) -> Response {
        let message = PageProtocol.ServerMessage.tree(
            sequence: 0, document: ViewTreeDocument(scene: scene.sceneID, variant: scene.variant, root: tree))
        var fields: [String: JSONValue] = [:]
        if case .object(let encoded) = try? JSONValueEncoder().encode(message) { fields = encoded }
        fields["session"] = .string(session)
        fields["protocol"] = .int(PageProtocol.version)
        fields["language"] = .string(language)
        var response = Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(fields).compactJSON)))
        if let visitorCookie {
            response.setCookie(Self.visitorCookie(visitorCookie))
        }
        return response
    }

    /// A refusal for a view-tree client, as JSON: `{"type":"refused","message":"…"}`.
    func apiRefusal(_ message: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: PageProtocol.ServerMessage.refused(message: message).text)))
    }

    /// The query names a preview frame uses to choose an arm: `arm.friends-layout=compact`.
    static let armPrefix = "arm."

    /// The cookie that keeps a signed-out visitor's anonymous id, for experiments.
    static let visitorCookieName = "scenery-visitor"

    /// The cookie that keeps a new visitor's anonymous id (signed by the server) for a year.
    static func visitorCookie(_ value: String) -> Cookie {
        Cookie(name: visitorCookieName, value: value, maxAge: Int(VisitorIssuer.lifetime), path: "/", httpOnly: true, sameSite: .lax)
    }

    /// A signed-out visitor's anonymous id: the one its cookie holds when the site signed
    /// it; else a new one the server issues, with the cookie to set; else (the address had
    /// as many new ids this hour as it may) none: the visitor takes part in no experiment.
    func visitorID(of request: Request, address: String) -> (id: String?, newCookie: String?) {
        if let value = request.cookies[Self.visitorCookieName]?.value, let id = visitors.id(fromCookie: value) {
            return (id, nil)
        }
        guard let issued = visitors.issue(to: address) else {
            if visitors.isFirstRefusal(of: address) {
                logger.notice("issued no more visitor ids to \(address) this hour: it had as many new ones as it may (--new-visitors-per-address-per-hour)")
            }
            return (nil, nil)
        }
        return (issued.id, issued.cookie)
    }

    /// The address a request counts against for the page limits: the peer's, or, from a
    /// trusted proxy, the last address of its `X-Forwarded-For` (the client the proxy saw).
    func clientAddress(peer: String, headers: HTTPFields) -> String {
        guard configuration.trustedProxies.contains(peer), let name = HTTPField.Name("X-Forwarded-For") else { return peer }
        let forwarded = headers[values: name].flatMap { $0.split(separator: ",") }
        guard let last = forwarded.last?.trimmingCharacters(in: .whitespaces), Configuration.isIPAddress(last) else { return peer }
        return last
    }

    /// The page limits: holds a place for a new page of `viewer` at `address`, checked and
    /// taken in one step (pages asked for at once cannot all pass the check while their
    /// scenes start); or the limit the viewer (or the address) has reached, logged.
    func reservePage(viewer: String?, address: String) async -> Result<SessionStore.Reservation, SessionStore.LimitReached> {
        let result = await sessions.reserve(
            viewer: viewer, address: address, maxPerViewer: configuration.maxPagesPerViewer, maxPerAddress: configuration.maxPagesPerAddress)
        if case .failure(let reached) = result {
            logger.notice("refused a page for \(viewer.map { "viewer \($0.quoted)" } ?? "a signed-out viewer") at \(address): \(reached.limit) pages open")
        }
        return result
    }

    /// The page a viewer (or an address) that holds as many pages as it may gets instead of
    /// a new one.
    func tooManyPages(_ reached: SessionStore.LimitReached, signedIn: SignInUser?) -> Response {
        let limit = reached.limit
        var response = html(
            Pages.problem(
                title: "Too many open pages",
                message:
                    "You have \(limit) pages of this site open, the most one person may hold at once. Close pages you no longer need (a closed page counts for another minute), then load this one again.",
                viewer: signedIn, returnTo: "/"),
            status: .tooManyRequests)
        response.headers[.retryAfter] = "60"
        return response
    }

    // MARK: Preview

    /// Why a preview request is refused, or `nil` when it may be served: the server must
    /// have been started for authoring, and the request must come from this machine.
    func previewRefusal(_ request: Request, context: SceneryRequestContext) throws -> Response? {
        guard configuration.enablesPreview else { throw HTTPError(.notFound) }
        guard context.isFromLoopback else {
            logger.notice("refused a preview request from \(context.peer)")
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

    private func framePath(_ sceneID: String, _ arguments: [String: JSONValue], as viewer: String?) -> String {
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

    // MARK: Sign-in

    func signIn(_ request: Request, context: some RequestContext) async throws -> Response {
        guard sameOrigin(request) else { throw HTTPError(.forbidden, message: "Sign-in requests must come from this site's own pages.") }
        let form = try await form(of: request)
        guard let id = form["user"], let user = users.first(where: { $0.id == id }) else {
            return html(
                Pages.problem(title: "No such user", message: "Choose one of the users on the sign-in page.", viewer: nil, returnTo: "/"), status: .badRequest)
        }
        let expiry = Date().addingTimeInterval(Double(configuration.signInDuration.components.seconds))
        var response = Response(status: .seeOther, headers: [.location: Self.localPath(form["next"].map { Substring($0) }) ?? "/"])
        response.setCookie(
            Cookie(
                name: Self.cookieName, value: cookies.value(for: user.id, expiry: expiry), expires: expiry, path: "/", httpOnly: true,
                sameSite: .lax))
        return response
    }

    func signOut(_ request: Request, context: some RequestContext) async throws -> Response {
        guard sameOrigin(request) else { throw HTTPError(.forbidden, message: "Sign-out requests must come from this site's own pages.") }
        let form = try await form(of: request)
        var response = Response(status: .seeOther, headers: [.location: Self.localPath(form["next"].map { Substring($0) }) ?? "/"])
        response.setCookie(Cookie(name: Self.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }

    /// A URL-encoded form body (at most 4 KB). (How long it may take to arrive is the
    /// connection's ``Configuration/bodyTimeout``.)
    func form(of request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 4096)
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            if let name = decode(parts[0]), let value = decode(parts[1]) { fields[name] = value }
        }
        return fields
    }

    /// Whether a request comes from this site's own pages: it names an `Origin`, and every
    /// web origin it names is the server's own (or an allowed one).
    ///
    /// A browser names exactly one origin, its page's, always `http` or `https`; so a
    /// `ws:`/`wss:` origin, which only a non-browser WebSocket client names (such as
    /// HummingbirdTesting's, beside the page's origin it is given), is left out of the
    /// check. It never counts for a request: one with no web origin is refused.
    func sameOrigin(_ request: Request) -> Bool {
        let origins = request.headers[values: .origin].filter { !$0.hasPrefix("ws://") && !$0.hasPrefix("wss://") }
        guard !origins.isEmpty else { return false }
        return origins.allSatisfy { origin in
            if let allowed = configuration.allowedOrigins { return allowed.contains(origin) }
            guard let host = request.head.authority else { return false }
            return origin == "http://\(host)" || origin == "https://\(host)"
        }
    }

    // MARK: The page socket

    /// Only same-origin pages may open a page socket, and only for a session of theirs.
    func mayUpgrade(_ request: Request) -> Bool {
        guard sameOrigin(request) else {
            logger.notice("refused a WebSocket upgrade from origin \(request.headers[.origin] ?? "none") to \(request.head.authority ?? "no authority")")
            return false
        }
        return request.uri.queryParameters["session"] != nil
    }

    /// Whether a request opens a page socket (`/live` from a page of this site, naming its
    /// session): the inbox that will serve it, or `nil` (the upgrade is refused with 400).
    func acceptPageSocket(_ head: HTTPRequest) async -> PageSocketInbox? {
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        guard request.uri.path == "/live", mayUpgrade(request) else { return nil }
        return PageSocketInbox { channel in await self.attachPageSocket(request, channel: channel) }
    }

    /// Attaches an upgraded page socket to its page's session, or closes it saying why: a
    /// page of another version of the protocol or whose session ended is told to load
    /// itself again; a socket of another sign-in is refused.
    func attachPageSocket(_ request: Request, channel: any Channel) async -> (PageSession, Int)? {
        await attachPageSocket(
            request, peer: channel.remoteAddress?.ipAddress ?? "unknown", socket: ChannelPageSocket(channel: channel),
            refuse: { code, reason in PageSocketHandler.close(channel, code: code, reason: reason) })
    }

    /// Attaches a page socket of any transport (a WebSocket's channel, the test kit's
    /// in-process socket) to its page's session, through the same checks; `refuse` closes
    /// the socket with a code and a reason instead.
    func attachPageSocket(
        _ request: Request, peer: String, socket: @autoclosure () -> any PageSocket, refuse: (WebSocketErrorCode, String) -> Void
    ) async -> (PageSession, Int)? {
        func close(_ code: WebSocketErrorCode, _ reason: String) -> (PageSession, Int)? {
            refuse(code, reason)
            return nil
        }
        let id = request.uri.queryParameters["session"].map(String.init) ?? ""
        // Every number a client sends is checked where it enters: a page resumed with a
        // message number near Int.max would overflow its next message's.
        let since: Int
        do {
            since = try PageProtocol.sequence(fromQuery: request.uri.queryParameters["since"])
        } catch {
            logger.notice("refused page \(id.prefix(64)): a since that is no message number")
            return close(.policyViolation, error.message)
        }
        // The page says which version of the page protocol it speaks; one from another
        // version of the site is told to load itself again (which brings this server's script).
        let spoken = request.uri.queryParameters["protocol"].map(String.init)
        let reload = WebSocketErrorCode(codeNumber: PageProtocol.reloadCloseCode)
        guard spoken == String(PageProtocol.version) else {
            return close(reload, PageProtocol.versionMismatchReason(spoken: spoken))
        }
        guard let session = await sessions.session(id), await !session.hasEnded else {
            // A page whose server went away (or that was away past the grace period) comes
            // back with its resume token: make its page again from it.
            guard let token = request.uri.queryParameters["resume"].map(String.init) else {
                return close(reload, "This page's scene has ended; load the page again.")
            }
            do {
                let address = clientAddress(peer: peer, headers: request.headers)
                let session = try await resumePage(id, token: token, since: since, request: request, address: address)
                return (session, await session.attach(since: since, socket: socket()))
            } catch {
                // The page loads again: for whoever holds the socket's cookie now.
                logger.notice("did not resume page \(id.prefix(64)): \(error.logged)")
                return close(reload, error.reason)
            }
        }
        // The socket belongs to the viewer the page was made for. A signed-out preview frame
        // (public data only) also serves its signed-in author's socket.
        guard session.viewer == viewer(of: request)?.id || (session.isPreview && session.viewer == nil) else {
            logger.notice("refused page \(id): the socket's viewer is not the page's")
            return close(.policyViolation, "This page belongs to another sign-in; load it again.")
        }
        return (session, await session.attach(since: since, socket: socket()))
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
