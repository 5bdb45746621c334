import Foundation
import Scenery

/// The HTML around scenes: the live scene page, the index, sign-in, preview and errors.
/// Every page has a banner with the sign-in state, one `main` with an `h1`, and loads only
/// same-origin CSS and script.
enum Pages {
    static func escape(_ text: String) -> String { HTMLRenderer.escape(text) }

    static func attribute(_ text: String) -> String { HTMLRenderer.escapeAttribute(text) }

    /// Where the site's icon is (a browser asks for one; without it, every page logged a 404).
    static let iconPath = "/assets/icon.svg"

    /// The site's icon: a rounded square with three stacked blocks, a scene of modules.
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0058d0"/>\
        <rect x="7" y="7" width="18" height="5" rx="1.5" fill="#fff"/><rect x="7" y="14" width="18" height="5" rx="1.5" fill="#fff" opacity=".8"/>\
        <rect x="7" y="21" width="11" height="4" rx="1.5" fill="#fff" opacity=".6"/></svg>
        """

    /// A page: head, banner, and `main` holding `body`.
    static func page(
        title: String, language: String = "en", viewer: SignInUser?, returnTo: String, main body: String, mainAttributes: String = "",
        showsBanner: Bool = true, languages: [String] = [], theme: ThemeChoice = .current, inspector: Bool = false
    ) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(attribute(language))"\(MessageLocale(language).isRightToLeft ? " dir=\"rtl\"" : "")\(theme.chosen.map { " data-theme=\"\(attribute($0))\"" } ?? "")>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · Scenery</title>
        <link rel="stylesheet" href="\(SceneryServer.themeStylesheetPath)" id="scenery-theme">
        <link rel="stylesheet" href="/assets/scenery.css">
        <link rel="icon" href="\(iconPath)" type="image/svg+xml">
        <script src="/assets/scenery.js" defer></script>\(inspector ? "\n<script src=\"\(InspectorScript.path)\" defer></script>" : "")
        </head>
        <body>
        \(showsBanner ? "<a class=\"skip\" href=\"#main\">Skip to content</a>\n" : "")\(showsBanner ? banner(viewer: viewer, returnTo: returnTo, language: language, languages: languages, theme: theme) : "")<main id="main"\(mainAttributes)>
        \(body)</main>
        </body>
        </html>

        """
    }

    /// The bar at the top: home, the page's languages (when it has more than one), who is
    /// signed in, sign in or out.
    static func banner(
        viewer: SignInUser?, returnTo: String, language: String = "en", languages: [String] = [], theme: ThemeChoice = .current
    ) -> String {
        let next = attribute(returnTo)
        let account: String
        if let viewer {
            account = """
                <span class="who"><span class="label">Signed in as </span><strong>\(escape(name(of: viewer)))</strong></span>
                <form method="post" action="/sign-out"><input type="hidden" name="next" value="\(next)"><button type="submit">Sign out</button></form>
                """
        } else {
            account =
                #"<span class="who"><span class="label">Signed out</span></span> <a href="/sign-in?next=\#(attribute(percentEncoded(returnTo)))">Sign in</a>"#
        }
        return """
            <header class="bar"><a href="/" class="home">Scenery</a>
            \(displayMenu(languageSwitch(language: language, languages: languages, returnTo: returnTo) + themeSwitch(theme, returnTo: returnTo)))\(account)
            </header>

            """
    }

    /// The page's languages and themes in one menu (a `details` disclosure, so it opens
    /// without the script), keeping the bar one line on a phone; nothing when the page has
    /// neither to choose.
    static func displayMenu(_ choices: String) -> String {
        guard !choices.isEmpty else { return "" }
        return "<details class=\"display\"><summary>Display</summary><div class=\"choices\">\n\(choices)</div></details>\n"
    }

    /// Links to the page in each of its languages, each named in its own language; the
    /// page's own is marked current. Following one opens the page again in that language
    /// (`?lang=`), and the choice is kept for the next pages (a cookie).
    static func languageSwitch(language: String, languages: [String], returnTo: String) -> String {
        guard languages.count > 1 else { return "" }
        let path = pathWithout(parameter: "lang", in: returnTo)
        let links = languages.map { tag in
            let name = ownName(of: tag)
            let href = path + (path.contains("?") ? "&" : "?") + "lang=" + (tag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? tag)
            let current = tag.lowercased() == language.lowercased() ? " aria-current=\"true\"" : ""
            return "<a href=\"\(attribute(href))\" lang=\"\(attribute(tag))\" hreflang=\"\(attribute(tag))\"\(current)>\(escape(name))</a>"
        }
        return "<nav class=\"languages\" aria-label=\"Language\">\(links.joined(separator: " "))</nav>\n"
    }

    /// Links to the page in each theme, and "Auto" (the browser's preference); the page's
    /// own is marked current. The choice is kept for the next pages (a cookie).
    static func themeSwitch(_ theme: ThemeChoice, returnTo: String) -> String {
        guard theme.available.count > 1 else { return "" }
        let path = pathWithout(parameter: SceneryServer.themeParameter, in: returnTo)
        // Light first (the default), then the others by name; names are [a-z0-9-], as is.
        let ordered = theme.available.filter { $0 == "light" } + theme.available.filter { $0 != "light" }
        let links = ([SceneryServer.automaticTheme] + ordered).map { name in
            let href = path + (path.contains("?") ? "&" : "?") + "\(SceneryServer.themeParameter)=\(name)"
            let isCurrent = theme.chosen == name || (theme.chosen == nil && name == SceneryServer.automaticTheme)
            let words = name == SceneryServer.automaticTheme ? "auto" : name.split(separator: "-").joined(separator: " ")
            let label = words.prefix(1).uppercased() + words.dropFirst()
            return "<a href=\"\(attribute(href))\"\(isCurrent ? " aria-current=\"true\"" : "")>\(escape(label))</a>"
        }
        return "<nav class=\"themes\" aria-label=\"Theme\">\(links.joined(separator: " "))</nav>\n"
    }

    /// Each language's name in its own words ("中文（简体）"), asked of Foundation once, not
    /// on every page.
    private static let ownNames = Locked<[String: String]>([:])

    static func ownName(of tag: String) -> String {
        if let known = ownNames.withLock({ $0[tag] }) { return known }
        let name = Locale(identifier: tag).localizedString(forIdentifier: tag) ?? tag
        ownNames.withLock { $0[tag] = name }
        return name
    }

    /// A path with one query parameter taken out.
    static func pathWithout(parameter: String, in path: String) -> String {
        guard let question = path.firstIndex(of: "?") else { return path }
        let kept = path[path.index(after: question)...].split(separator: "&").filter { !$0.hasPrefix("\(parameter)=") && $0 != parameter }
        return String(path[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "/-_.~"))) ?? "/"
    }

    /// A live scene: the rendered tree inside `main`, with the session the script connects to.
    /// When a module names the page (`titleShownByModule`), the module shows the name and the
    /// page's `h1` is for assistive technology only: a person reads the name once.
    static func scene(
        _ tree: ViewNode, title: String, titleShownByModule: Bool = false, language: String, session: String, viewer: SignInUser?, returnTo: String,
        renderer: HTMLRenderer, showsBanner: Bool = true, impressionFraction: Double = 0.5, modulesCountingRows: Set<ModuleID> = [],
        resumeToken: String? = nil, largestMessage: Int = 16 * 1024, transitions: [ModuleID: Transitions] = [:], languages: [String] = [],
        theme: ThemeChoice = .current, inspector: Bool = false, typedKey: String = ""
    ) -> String {
        // What the page script observes for impressions: the threshold it reports crossing,
        // and the modules whose rows it watches too.
        let rows = modulesCountingRows.map(\.rawValue).sorted().joined(separator: " ")
        return page(
            title: title, language: language, viewer: viewer, returnTo: returnTo,
            main: "<h1\(titleShownByModule ? " class=\"in-scene\"" : "")>\(escape(title))</h1>\n<div id=\"scene-root\">\n\(renderer.fragment(tree))</div>\n",
            mainAttributes:
                " data-session=\"\(attribute(session))\" data-sequence=\"0\" data-impression-fraction=\"\(impressionFraction)\" data-row-impressions=\"\(attribute(rows))\""
                + " data-largest-message=\"\(largestMessage)\" data-typed-key=\"\(attribute(typedKey))\""
                + (transitions.isEmpty ? "" : " data-transitions=\"\(attribute(motion(transitions)))\"")
                + (resumeToken.map { " data-resume=\"\(attribute($0))\"" } ?? ""),
            showsBanner: showsBanner, languages: languages, theme: theme, inspector: inspector)
    }

    /// The home page, where a visitor starts: who they are (sign in, or their own page),
    /// the people of the site to visit, and a link to every scene for developers.
    /// `personScene` is the scene a person's name opens and the name of its person parameter.
    static func home(personScene: (id: String, parameter: String)?, users: [SignInUser], viewer: SignInUser?, language: String) -> String {
        func page(of user: SignInUser) -> String? {
            personScene.map { PageSession.path(of: $0.id, arguments: [$0.parameter: .string(user.id)]) }
        }
        var body = "<h1>Welcome</h1>\n"
        if let viewer {
            body += "<p>Welcome back, <strong>\(escape(name(of: viewer)))</strong>."
            if let own = page(of: viewer) { body += " <a href=\"\(attribute(own))\">Your page</a>" }
            body += "</p>\n"
        } else {
            body += "<p><a href=\"/sign-in\">Sign in</a>, or visit someone first.</p>\n"
        }
        body += "<section aria-labelledby=\"people\"><h2 id=\"people\">People</h2>\n"
        let visitable = users.filter { $0.id != viewer?.id }.compactMap { user in page(of: user).map { (user, $0) } }
        if visitable.isEmpty {
            body += "<p class=\"placeholder empty\">No one to visit here yet.</p>\n"
        } else {
            body += "<ul class=\"people\">\n"
            for (user, path) in visitable {
                body += "<li><a href=\"\(attribute(path))\">\(escape(name(of: user)))</a></li>\n"
            }
            body += "</ul>\n"
        }
        body += "</section>\n<p class=\"developers\"><a href=\"/scenes\">Every scene of this site, for developers</a></p>\n"
        return Self.page(title: "Welcome", language: language, viewer: viewer, returnTo: "/", main: body)
    }

    /// A person's name on the site's pages; a nameless person is "Anonymous" here as in the
    /// bundled modules (`UserInfoWording.emptyName`), one name everywhere.
    static func name(of user: SignInUser) -> String { user.name.isEmpty ? "Anonymous" : user.name }

    /// The scene's transitions for the page script, as JSON: effect by change, by module.
    static func motion(_ transitions: [ModuleID: Transitions]) -> String {
        var modules: [String: JSONValue] = [:]
        for (module, transitions) in transitions {
            modules[module.rawValue] = .object(Dictionary(uniqueKeysWithValues: transitions.effects.map { ($0.key.rawValue, .string($0.value.rawValue)) }))
        }
        return JSONValue.object(modules).compactJSON
    }

    /// The list of scenes, each with links to try it (a form for its arguments).
    static func index(registry: SceneRegistry, users: [SignInUser], viewer: SignInUser?, previews: Bool) -> String {
        var body = "<h1>Scenes</h1>\n"
        body += "<p>Open a scene as you are signed in; <a href=\"/sign-in\">sign in</a> as one of the demo users to see it as them.</p>\n"
        body += "<ul class=\"scenes\">\n"
        for id in registry.sceneIDs where !registry.diagnostics(for: id).containsErrors {
            let title = registry.title(of: id) ?? id
            let parameters = registry.parameters(of: id)
            body += "<li><h2>\(escape(title)) <code>\(escape(id))</code></h2>\n"
            let required = parameters.filter { $0.defaultValue == nil }
            if required.count == 1, required[0].type == .userID {
                let name = required[0].name
                body += "<p>"
                body += users.map { user in
                    let path = PageSession.path(of: id, arguments: [name: .string(user.id)])
                    return "<a href=\"\(attribute(path))\">\(escape(Self.name(of: user)))</a>"
                }.joined(separator: " · ")
                if previews {
                    let preview = PageSession.path(of: id, arguments: [name: .string(users.first?.id ?? "1")]).replacingOccurrences(
                        of: "/scenes/", with: "/preview/")
                    body += " · <a href=\"\(attribute(preview))\">preview every variant</a>"
                }
                body += "</p>\n"
            } else {
                body += "<form method=\"get\" action=\"/scenes/\(attribute(id))\">"
                for parameter in parameters {
                    let field = "\(id)--\(parameter.name)"
                    let value = parameter.defaultValue?.plainText ?? (parameter.type == .int ? "1" : "")
                    body += "<label for=\"\(attribute(field))\">\(escape(parameter.name))</label> "
                    body += "<input id=\"\(attribute(field))\" name=\"\(attribute(parameter.name))\" value=\"\(attribute(value))\"> "
                }
                body += "<button type=\"submit\">Open</button></form>\n"
            }
            body += "</li>\n"
        }
        body += "</ul>\n"
        return page(title: "Scenes", viewer: viewer, returnTo: "/", main: body)
    }

    /// The demo sign-in: a button per user.
    static func signIn(users: [SignInUser], viewer: SignInUser?, next: String) -> String {
        var body = "<h1>Sign in</h1>\n<p>Choose who you are. The choice is kept in a signed cookie.</p>\n<ul class=\"users\">\n"
        for user in users {
            let name = Self.name(of: user)
            body += """
                <li><form method="post" action="/sign-in"><input type="hidden" name="user" value="\(attribute(user.id))">\
                <input type="hidden" name="next" value="\(attribute(next))"><button type="submit">Sign in as \(escape(name))</button></form></li>

                """
        }
        body += "</ul>\n<p><a href=\"\(attribute(next))\">Continue signed out</a></p>\n"
        return page(title: "Sign in", viewer: viewer, returnTo: next, main: body)
    }

    /// A scene for three viewers side by side, each a live page of its own.
    static func preview(
        title: String, frames: [(label: String, path: String)], notes: [String] = [], viewer: SignInUser?, returnTo: String
    ) -> String {
        var body = "<h1>\(escape(title)): every variant</h1>\n"
        for note in notes { body += "<p class=\"note\">\(escape(note))</p>\n" }
        body += "<div class=\"preview\">\n"
        for frame in frames {
            body += """
                <section class="variant" aria-label="\(attribute(frame.label))"><h2>\(escape(frame.label))</h2>\
                <iframe src="\(attribute(frame.path))" title="\(attribute("\(title), \(frame.label)"))"></iframe></section>

                """
        }
        body += "</div>\n"
        return page(title: "\(title) preview", viewer: viewer, returnTo: returnTo, main: body)
    }

    /// A page that says what went wrong and how to go on.
    static func problem(title: String, message: String, viewer: SignInUser?, returnTo: String) -> String {
        page(
            title: title, viewer: viewer, returnTo: returnTo,
            main: "<h1>\(escape(title))</h1>\n<p class=\"problem\">\(escape(message))</p>\n<p><a href=\"/\">Back to the home page</a></p>\n")
    }

    /// The CSS of every page: the scene renderer's, plus the page furniture.
    static let stylesheet =
        HTMLRenderer.stylesheet + """
            .bar{display:flex;gap:12px;align-items:center;max-width:760px;margin:0 auto var(--scenery-spacing-large);padding:var(--scenery-spacing-medium) 0;border-bottom:1px solid var(--scenery-color-border)}\
            .bar .home{font-weight:600;color:var(--scenery-color-text);text-decoration:none;margin-inline-end:auto}.bar form{display:inline}\
            main>h1.in-scene{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap;margin:0}\
            .bar .who{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\
            .display{position:relative}.display>summary{cursor:pointer;padding:var(--scenery-spacing-small) var(--scenery-spacing-medium);border-radius:var(--scenery-radius-small);min-height:44px;box-sizing:border-box;display:flex;align-items:center;list-style:none}\
            .display>summary::-webkit-details-marker{display:none}.display>summary::after{content:"▾";margin-inline-start:4px;font-size:12px}\
            .display>summary:focus-visible{outline:2px solid var(--scenery-color-accent)}\
            .display .choices{position:absolute;inset-inline-start:0;top:100%;z-index:5;display:grid;gap:var(--scenery-spacing-medium);min-width:12em;background:var(--scenery-color-surface-raised);border:1px solid var(--scenery-color-border);border-radius:var(--scenery-radius-medium);padding:var(--scenery-spacing-medium) var(--scenery-spacing-large);box-shadow:0 4px 16px rgba(0,0,0,.12)}\
            .bar .languages,.bar .themes{display:flex;flex-wrap:wrap;gap:var(--scenery-spacing-small) var(--scenery-spacing-medium)}.bar nav a[aria-current]{font-weight:600;color:var(--scenery-color-text);text-decoration:none}\
            .bar nav a{display:inline-block;padding:4px 0}\
            @media (max-width:480px){.bar .who .label{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}.display .choices{position:fixed;inset-inline:var(--scenery-spacing-large);top:auto;min-width:0}}\
            a{color:var(--scenery-color-accent)}.scenes>li,.users>li{border:none;padding:4px 0}.scenes h2{font-size:18px}code{font-size:var(--scenery-font-size-caption);color:var(--scenery-color-text-muted)}\
            .problem{color:var(--scenery-color-danger)}\
            .skip{position:absolute;inset-inline-start:8px;top:-48px;background:var(--scenery-color-surface-raised);color:var(--scenery-color-accent);padding:6px 12px;border-radius:var(--scenery-radius-small);z-index:10}.skip:focus{top:8px}\
            .preview{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:12px}.preview iframe{width:100%;height:900px;border:1px solid var(--scenery-color-border);border-radius:var(--scenery-radius-small);background:var(--scenery-color-surface-raised)}\
            body.framed{max-width:none;margin:8px}\
            #scenery-status{position:fixed;bottom:12px;left:50%;transform:translateX(-50%);background:var(--scenery-color-selected);color:var(--scenery-color-on-selected);padding:6px 12px;border-radius:var(--scenery-radius-small);font-size:14px}\
            #scenery-status:empty{display:none}\
            #scenery-status button{margin-inline-start:8px;min-height:32px}\
            main .pending{opacity:.6;cursor:progress}body.offline main :is(button,[role=button],[role=tab]){border-style:dashed}\
            dialog{border:1px solid var(--scenery-color-control-border);border-radius:var(--scenery-radius-medium);padding:var(--scenery-spacing-large) 20px;max-width:420px;background:var(--scenery-color-surface-raised);color:var(--scenery-color-text)}dialog::backdrop{background:rgba(0,0,0,.3)}\
            dialog .actions{display:flex;gap:8px;justify-content:flex-end;margin-top:12px}\
            #scenery-errors{position:fixed;inset:auto 12px 12px 12px;background:var(--scenery-color-danger-surface);border:2px solid var(--scenery-color-danger);border-radius:var(--scenery-radius-small);padding:12px;max-height:50vh;overflow:auto}\
            #scenery-errors pre{white-space:pre-wrap;margin:8px 0 0;font-size:var(--scenery-font-size-caption);color:var(--scenery-color-text)}\
            @keyframes scenery-fade-in{from{opacity:0}to{opacity:1}}@keyframes scenery-fade-out{from{opacity:1}to{opacity:0}}\
            @keyframes scenery-slide-in{from{opacity:0;transform:translateY(-8px)}to{opacity:1;transform:none}}\
            @keyframes scenery-slide-out{from{opacity:1;transform:none}to{opacity:0;transform:translateX(24px)}}\
            @keyframes scenery-highlight{from{background-color:var(--scenery-color-highlight)}to{background-color:transparent}}\
            .t-appear-fade,.t-change-fade{animation:scenery-fade-in .25s ease-out}.t-appear-slide,.t-move-slide{animation:scenery-slide-in .25s ease-out}\
            .t-disappear-fade{animation:scenery-fade-out .25s ease-in forwards}.t-disappear-slide{animation:scenery-slide-out .25s ease-in forwards}\
            .t-change-highlight{animation:scenery-highlight 1s ease-out}\
            @media (prefers-reduced-motion:reduce){.t-appear-fade,.t-appear-slide,.t-move-slide,.t-change-fade,.t-change-highlight,.t-disappear-fade,.t-disappear-slide{animation:none}}
            """
}
