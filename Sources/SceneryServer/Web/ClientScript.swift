import SceneryPageProtocol

/// The page script: no framework, no build step, served as `/assets/scenery.js` under a
/// CSP that allows only same-origin script.
///
/// It never renders: it sends the id of the control a person activates, and applies what
/// the server sends — numbered DOM operations with HTML from the server's renderer, a whole
/// scene after a resync, a confirmation to ask, an address to go to. A dropped socket
/// reconnects by itself with the last message applied, so the same scene resumes; actions
/// taken meanwhile are queued and sent after reconnecting, or refused on the page. Each
/// action carries a random key and is kept until the server says it is done with it; a
/// socket that reconnects (perhaps to another server, with the page's resume token) sends
/// the unanswered ones again under the same keys, and the server applies each once.
enum ClientScript {
    /// The script, in the order it runs: its parts are in files by what they do (this one:
    /// the socket, sending and receiving; `+Patches`: applying operations, motion and long
    /// lists; `+Questions`: confirmations; `+Forms`: controls and forms; `+Visibility`:
    /// impressions, the page hidden or offline, and fallback images).
    static let source = [opening, patches, questions, forms, visibility].joined(separator: "\n")

    /// The script's opening: its state, the socket, sending and receiving.
    static let opening = #"""
        "use strict";
        (() => {
          const main = document.querySelector("main[data-session]");
          fallbackImages(document);
          document.addEventListener("error", (event) => {
            if (event.target instanceof HTMLImageElement) replaceImage(event.target);
          }, true);
          // Where a scene page keeps unsent typed text across a reload (+Forms); a page that
          // is no scene (signing in or out, the home page) lets go of it unread.
          const TYPED_STORE = "scenery-typed";
          if (!main) {
            try { sessionStorage.removeItem(TYPED_STORE); } catch { /* storage refused: nothing kept */ }
            return;
          }

          // The page protocol this script speaks (PageProtocol.version on the server), and the
          // node kinds it shows: all (the server draws them in HTML).
          const PROTOCOL = \#(PageProtocol.version);
          const KINDS = "\#(PageProtocol.NodeKinds.every.query)";
          // The longest message the server takes, in bytes (a form's text must fit).
          const LARGEST_MESSAGE = Number(main.dataset.largestMessage || "16384");
          const session = main.dataset.session;
          let sequence = Number(main.dataset.sequence || "0");
          let socket = null;
          let attempts = 0;
          // Whether the socket was ever open: an action taken while the page first connects
          // waits, marked, with nothing said (it is not a reconnection).
          let everOpened = false;
          // Actions not yet answered, by key, in the order taken; and the latest resume token.
          const pending = new Map();
          let resumeToken = main.dataset.resume || null;
          // The latest visibility of each part, kept while the socket is away (not an action:
          // nothing to tell the person).
          const unsentVisibility = new Map();
          let closedForGood = false;
          const status = element("div", { id: "scenery-status", role: "status", "aria-live": "polite" });
          document.body.appendChild(status);
          let statusTimer = null;
          // How long a notice that goes by itself stays on the status line.
          const NOTICE_MS = 4000;
          // Until when a refusal of the person's own action stays on the status line (as long as
          // any notice that goes by itself): a failed attempt to reconnect meanwhile does not
          // say "Reconnecting…" over it, which took it away before it could be read.
          let refusalShownUntil = 0;

          function element(tag, attributes, text) {
            const node = document.createElement(tag);
            for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
            if (text !== undefined) node.textContent = text;
            return node;
          }

          // The one line of status at the bottom. `kind` says what it is: "announcement" for
          // other people's changes, else a notice about this page or the viewer's action.
          function say(text, sticky, kind) {
            status.dataset.kind = kind || "notice";
            status.textContent = text;
            clearTimeout(statusTimer);
            if (!sticky && text) statusTimer = setTimeout(() => { status.textContent = ""; }, NOTICE_MS);
          }

          // A notice that stays, with a button that loads the page again (asking first when
          // typed text was not sent).
          function offerReload(text) {
            say(text, true, "notice");
            const button = element("button", { type: "button", class: "reload" }, "Reload");
            button.addEventListener("click", () => location.reload());
            status.append(" ", button);
          }

          // A module's notice of what just happened to the viewer's action (a text of role
          // status, next to the control): announced once when it appears or changes.
          // A module that could not load (its error block, streamed in after the page) is
          // announced the same way; what the page was sent with is not announced again.
          const announced = new Map();
          function announceStatus(silently) {
            const shown = new Map();
            for (const note of main.querySelectorAll("p.status[role=status][id], p.placeholder.error[id]")) shown.set(note.id, note.textContent);
            if (!silently) for (const [id, text] of shown) if (announced.get(id) !== text) say(text);
            announced.clear();
            for (const [id, text] of shown) announced.set(id, text);
          }
          announceStatus(true);

          // Other people's changes, as their modules word them: gathered for a moment and
          // said once, politely, so a burst of changes is one announcement, not a queue.
          let heard = [];
          let heardTimer = null;
          function announceLater(texts) {
            for (const text of texts || []) {
              if (typeof text === "string" && text && !heard.includes(text)) heard.push(text.slice(0, 300));
            }
            if (heardTimer || !heard.length) return;
            heardTimer = setTimeout(() => {
              heardTimer = null;
              const shown = heard.slice(0, 3).join(" · ");
              say(heard.length > 3 ? `${shown} (+${heard.length - 3})` : shown, false, "announcement");
              heard = [];
            }, 1000);
          }

          function connect() {
            const scheme = location.protocol === "https:" ? "wss:" : "ws:";
            const resume = resumeToken ? `&resume=${encodeURIComponent(resumeToken)}` : "";
            socket = new WebSocket(`${scheme}//${location.host}/live?session=${encodeURIComponent(session)}&since=${sequence}&protocol=${PROTOCOL}&kinds=${KINDS}${resume}`);
            socket.addEventListener("open", () => {
              attempts = 0;
              everOpened = true;
              document.body.classList.remove("offline");
              say("");
              asked.clear();
              setTimeout(followScroll, 0);
              // Every action not answered yet, under its key: one the server already did is
              // answered, not done again.
              for (const message of pending.values()) socket.send(message);
              // What is on screen now, as last seen while the socket was away.
              for (const message of unsentVisibility.values()) socket.send(message);
              unsentVisibility.clear();
            });
            socket.addEventListener("message", (event) => receive(event.data));
            socket.addEventListener("close", (event) => {
              if (closedForGood) return;
              if (event.code === 4404) {
                // The site was updated (another version of the page protocol), or this page's
                // scene ended and cannot be made again: say why and offer a reload. Never a
                // reload by itself, so nothing typed here is lost.
                closedForGood = true;
                offerReload(event.reason || "This page was updated: reload it to get the new version.");
                return;
              }
              // Away: what the page shows stays, to read; what needs the server is marked, and
              // what the person does meanwhile waits, marked, to be sent once it is back.
              document.body.classList.add("offline");
              attempts += 1;
              const delay = Math.min(250 * 2 ** (attempts - 1), 5000);
              if (Date.now() >= refusalShownUntil) {
                say(pending.size ? "Reconnecting… your action will be sent when the connection is back." : "Reconnecting…", true);
              }
              setTimeout(connect, delay);
            });
          }

          function newKey() {
            return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
          }

          // The controls whose actions wait for the server's answer (sent, or kept while the
          // connection is away) are marked, after every patch too: `pending` and aria-busy.
          function markPending() {
            const waiting = new Set(Array.from(pending.values(), (text) => { try { return JSON.parse(text).node; } catch { return null; } }));
            for (const control of main.querySelectorAll(".pending")) {
              if (!waiting.has(control.id)) { control.classList.remove("pending"); control.removeAttribute("aria-busy"); }
            }
            for (const node of waiting) {
              const control = node && byID(node);
              if (control && main.contains(control)) { control.classList.add("pending"); control.setAttribute("aria-busy", "true"); }
            }
          }

          // What may wait for an answer (sent, or kept while the connection is away): at most
          // MOST_PENDING actions and MOST_PENDING_BYTES bytes of them (four of the largest
          // messages); past either, the action is not taken and the person is told.
          const MOST_PENDING = 20;
          const MOST_PENDING_BYTES = 4 * LARGEST_MESSAGE;
          const bytesOf = (text) => new TextEncoder().encode(text).length;
          function send(message) {
            const open = socket && socket.readyState === WebSocket.OPEN;
            if (message.type === "event") message.action = newKey();
            const text = JSON.stringify(message);
            if (message.type === "event") {
              const waiting = Array.from(pending.values()).reduce((total, kept) => total + bytesOf(kept), 0);
              if (pending.size >= MOST_PENDING || waiting + bytesOf(text) > MOST_PENDING_BYTES) {
                say(open ? "Too many actions are waiting; wait a moment."
                  : "Too much is waiting to be sent while the connection is away: that action was not taken. Try it again once it is back.");
                refusalShownUntil = Date.now() + NOTICE_MS;
                return null;
              }
              pending.set(message.action, text);
              markPending();
              if (!open && everOpened) say("Reconnecting… your action will be sent when the connection is back.", true);
            }
            if (open) {
              socket.send(text);
            } else if (message.type === "visibility") {
              unsentVisibility.set(message.node, text);
            } else if (message.type !== "event") {
              say("Not connected: that action was not sent. Try again in a moment.");
            }
            return message.action || null;
          }

          // What goes wrong in this page itself reaches the scene's author (the server logs it
          // with the scene file's line of the module, when a node is known): at most
          // MOST_PROBLEMS a page, each cut to 500 characters, never queued while offline.
          const MOST_PROBLEMS = 5;
          let problemsReported = 0;
          function reportProblem(kind, error, node) {
            const text = String((error && error.stack) || (error && error.message) || error).slice(0, 500);
            console.error(`Scenery page: ${kind} problem: ${text}`);
            if (problemsReported >= MOST_PROBLEMS || !socket || socket.readyState !== WebSocket.OPEN) return;
            problemsReported += 1;
            const message = { type: "problem", kind, message: text };
            if (node) message.node = node;
            socket.send(JSON.stringify(message));
          }
          window.addEventListener("error", (event) => reportProblem("script", event.error || event.message));
          window.addEventListener("unhandledrejection", (event) => reportProblem("script", event.reason));

          function receive(text) {
            if (composing) { heldWhileComposing.push(text); return; }
            let message;
            try { message = JSON.parse(text); } catch (error) { reportProblem("decode", error); return; }
            if (typeof message.sequence === "number") {
              if (message.sequence <= sequence) return;
              if (message.sequence !== sequence + 1) { send({ type: "resync" }); return; }
            }
            switch (message.type) {
              case "patch":
                try {
                  keepingFocus(() => apply(message.operations));
                } catch (error) {
                  // A patch this page cannot apply: the author hears of it, and the page asks
                  // for the whole scene, which puts it right.
                  reportProblem("render", error);
                  send({ type: "resync" });
                  break;
                }
                announceStatus();
                break;
              case "reset": {
                // What the person looks at stays where it stood on the screen: the focused
                // control, focused again in the new scene, is scrolled to where it was (what is
                // above it may have grown; a whole new scene gives the browser no node to keep
                // in place).
                const root = document.getElementById("scene-root");
                const stood = root.contains(document.activeElement) ? document.activeElement.getBoundingClientRect().top : null;
                keepingFocus(() => {
                  const kept = typedIn(root);
                  root.innerHTML = message.html;
                  restoreTyped(kept);
                  keepUnplaced(kept);
                });
                if (stood !== null && root.contains(document.activeElement)) {
                  window.scrollBy(0, document.activeElement.getBoundingClientRect().top - stood);
                }
                spaceWindows();
                // The whole scene holds the server's windows: look whether they cover the screen.
                setTimeout(followScroll, 0);
                // New elements (perhaps of a new version of the scene): report them afresh.
                visible.clear();
                break;
              }
              case "announce": announceLater(message.texts); break;
              case "title": {
                // What the page is about, named by a module that loaded after the page came
                // (the module shows the name: the heading is for assistive technology).
                const heading = main.querySelector(":scope > h1");
                if (heading) { heading.textContent = message.text; heading.classList.add("in-scene"); }
                document.title = `${message.text} · Scenery`;
                break;
              }
              case "confirm": ask(message); break;
              case "navigate":
                // Typed text not sent: the person chooses to stay with it (the scene stays live).
                if (!mayLeave()) break;
                closedForGood = true;
                location.assign(message.url);
                break;
              case "refused":
                // A submit the server refused: its fields keep what was typed, and the form says
                // why (or, its form gone, the page says where the text is).
                if (!(message.action && refuseSubmitted(message.action, message.message))) say(message.message);
                if (message.action) settleQuestions([message.action]);
                break;
              case "errors": showErrors(message.text); break;
              case "theme": {
                // New themes: the stylesheet is fetched again; the page keeps its state.
                const link = byID("scenery-theme");
                if (link && typeof message.href === "string" && message.href.startsWith("/")) link.setAttribute("href", message.href);
                break;
              }
              case "resume":
                resumeToken = message.token;
                for (const key of message.applied || []) pending.delete(key);
                settleSubmitted(message.applied || []);
                settleQuestions(message.applied || []);
                break;
            }
            markPending();
            putBackTyped();
            if (typeof message.sequence === "number") {
              sequence = message.sequence;
              main.dataset.sequence = String(sequence);
            }
            fallbackImages(document.getElementById("scene-root"));
          }

        """#
}
