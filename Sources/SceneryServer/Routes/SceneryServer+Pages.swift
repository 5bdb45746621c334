import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import ServiceLifecycle
import Tracing

/// The scene pages: a person's name to their scene, a scene's page (HTML, or the view
/// tree for `/api/scenes`), the visitor cookie, and the per-address page limit.
extension SceneryServer {
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
    /// session for the page's socket; in a `scenery.page` span, a child of the trace the
    /// request carried, under which the scene's first loads run.
    func scenePage(
        _ sceneID: String, request: Request, context: SceneryRequestContext, viewer: String?, framed: Bool = false,
        format: PageSession.Format = .html
    ) async -> Response {
        var carried = ServiceContext.current ?? .topLevel
        tracer.extract(request.headers, into: &carried, using: HTTPFieldsExtractor())
        let span = tracer.startSpan("scenery.page", context: carried, ofKind: .server)
        defer { span.end() }
        span.attributes["scenery.scene"] = String(sceneID.prefix(128))
        let response = await ServiceContext.withValue(span.context) {
            await self.openScenePage(sceneID, request: request, context: context, viewer: viewer, framed: framed, format: format, span: span.context)
        }
        span.attributes["http.response.status_code"] = Int(response.status.code)
        if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        return response
    }

    private func openScenePage(
        _ sceneID: String, request: Request, context: SceneryRequestContext, viewer: String?, framed: Bool, format: PageSession.Format,
        span: ServiceContext
    ) async -> Response {
        let signedIn = users.first { $0.id == viewer }
        let address = clientAddress(peer: context.peer, headers: request.headers)
        let reservation: SessionStore.Reservation
        switch await reservePage(viewer: viewer, address: address) {
        case .success(let held): reservation = held
        case .failure(let reached):
            guard format.readsViewTree else { return tooManyPages(reached, signedIn: signedIn) }
            return apiRefusal(
                "You have as many live scenes of this site open as one person may hold; close some, then try again in a minute.",
                status: .tooManyRequests)
        }
        let returnTo = request.uri.description
        var arguments = Self.arguments(of: request)
        // The language switch's `?lang=`, the theme switch's `?theme=` (which
        // ``ThemeMiddleware`` reads) and a view-tree client's `?kinds=` are the page's, not
        // the scene's, unless the scene has a parameter of that name; the scene is looked at
        // only when the address has one.
        let (locale, chosenLanguage) = requestedLocale(of: request, sceneID: sceneID)
        let pageParameters = [Self.languageParameter, Self.themeParameter] + (format.readsViewTree ? [Self.kindsParameter] : [])
        for name in pageParameters where arguments[name] != nil {
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
            armOverrides: overrides, format: format, locale: locale, metrics: metrics, tracer: tracer, openedIn: span,
            inspectorStats: inspectorStats, sharedPatches: sharedPatches)
        let scene: SceneInstance
        do {
            scene = try registry.instantiate(sceneID, for: session.context, host: session.host, on: session.page)
        } catch {
            await sessions.release(reservation)
            let status: HTTPResponse.Status = error.code == .unknownScene ? .notFound : .badRequest
            if format.readsViewTree { return apiRefusal(error.description, status: status) }
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
        if format.readsViewTree {
            var response = apiScene(await session.shown(snapshot.node), scene: scene, session: session.id, visitorCookie: newVisitorCookie, language: language)
            if let chosenLanguage { response.setCookie(Self.languageCookie(chosenLanguage)) }
            return response
        }
        // The page names what it is about (the person, the blog) when a module says so; a
        // module still loading names it when it loads.
        let moduleTitle = await scene.pageTitle()
        let title = moduleTitle ?? registry.title(of: sceneID, in: language) ?? sceneID
        await session.showsTitle(title)
        let page = Pages.scene(
            snapshot.node, title: title, titleShownByModule: moduleTitle != nil, language: language, session: session.id, viewer: signedIn,
            returnTo: returnTo, renderer: renderer, showsBanner: !framed, impressionFraction: scene.impressionRule.minimumVisibleFraction,
            modulesCountingRows: scene.modulesCountingRows, resumeToken: await session.signedResumeToken(),
            largestMessage: configuration.maxMessageSize, transitions: scene.transitions, languages: languages(of: sceneID),
            inspector: configuration.enablesInspector && isFromThisMachine(request, context: context), typedKey: cookies.typedTextKey(for: viewer))
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

    /// The query name a view-tree client names the node kinds it shows with
    /// (``PageProtocol/NodeKinds``).
    static let kindsParameter = "kinds"

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
        forwardedClient(peer: peer, headers: headers) ?? peer
    }

    /// The client a trusted proxy names: the last address of its `X-Forwarded-For`; `nil`
    /// when `peer` is no trusted proxy, or names no address.
    private func forwardedClient(peer: String, headers: HTTPFields) -> String? {
        guard configuration.trustedProxies.contains(peer), let name = HTTPField.Name("X-Forwarded-For") else { return nil }
        let forwarded = headers[values: name].flatMap { $0.split(separator: ",") }
        guard let last = forwarded.last?.trimmingCharacters(in: .whitespaces), Configuration.isIPAddress(last) else { return nil }
        return last
    }

    /// Whether a request comes from this machine, for what only authors on it may see (the
    /// preview, its frames and forced arms, the preview links): its peer is a loopback
    /// address and, when that peer is a trusted proxy, so is the client the proxy names. A
    /// proxy's request that names no client is refused: in doubt, it is from afar.
    func isFromThisMachine(_ request: Request, context: SceneryRequestContext) -> Bool {
        guard let peer = context.remoteAddress?.ipAddress, Configuration.isLoopback(peer) else { return false }
        guard configuration.trustedProxies.contains(peer) else { return true }
        return forwardedClient(peer: peer, headers: request.headers).map(Configuration.isLoopback) ?? false
    }

    /// The page limits: holds a place for a new page of `viewer` at `address`, checked and
    /// taken in one step (pages asked for at once cannot all pass the check while their
    /// scenes start); or the limit the viewer (or the address) has reached, logged.
    func reservePage(viewer: String?, address: String) async -> Result<SessionStore.Reservation, SessionStore.LimitReached> {
        let result = await sessions.reserve(
            viewer: viewer, address: address, maxPerViewer: configuration.maxPagesPerViewer, maxPerAddress: configuration.maxPagesPerAddress)
        if case .failure(let reached) = result {
            metrics.pagesRefused.increment()
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
}
