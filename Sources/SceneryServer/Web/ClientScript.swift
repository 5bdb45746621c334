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
    static let source = #"""
        "use strict";
        (() => {
          const main = document.querySelector("main[data-session]");
          fallbackImages(document);
          document.addEventListener("error", (event) => {
            if (event.target instanceof HTMLImageElement) replaceImage(event.target);
          }, true);
          if (!main) return;

          // The page protocol this script speaks (PageProtocol.version on the server).
          const PROTOCOL = \#(PageProtocol.version);
          const session = main.dataset.session;
          let sequence = Number(main.dataset.sequence || "0");
          let socket = null;
          let attempts = 0;
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

          function element(tag, attributes, text) {
            const node = document.createElement(tag);
            for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
            if (text !== undefined) node.textContent = text;
            return node;
          }

          function say(text, sticky) {
            status.textContent = text;
            clearTimeout(statusTimer);
            if (!sticky && text) statusTimer = setTimeout(() => { status.textContent = ""; }, 4000);
          }

          function connect() {
            const scheme = location.protocol === "https:" ? "wss:" : "ws:";
            const resume = resumeToken ? `&resume=${encodeURIComponent(resumeToken)}` : "";
            socket = new WebSocket(`${scheme}//${location.host}/live?session=${encodeURIComponent(session)}&since=${sequence}&protocol=${PROTOCOL}${resume}`);
            socket.addEventListener("open", () => {
              attempts = 0;
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
                // The server no longer has this page's scene, or speaks another version of
                // the page protocol: load the page afresh (with the server's own script).
                say("This page expired; loading it again…", true);
                location.reload();
                return;
              }
              attempts += 1;
              const delay = Math.min(250 * 2 ** (attempts - 1), 5000);
              say(pending.size ? "Reconnecting… your action will be sent when the connection is back." : "Reconnecting…", true);
              setTimeout(connect, delay);
            });
          }

          function newKey() {
            return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
          }

          function send(message) {
            const open = socket && socket.readyState === WebSocket.OPEN;
            if (message.type === "event") {
              if (pending.size >= 20) {
                say(open ? "Too many actions are waiting; wait a moment." : "Not connected: that action was not sent. Try again in a moment.");
                return;
              }
              message.action = newKey();
              pending.set(message.action, JSON.stringify(message));
              if (!open) say("Reconnecting… your action will be sent when the connection is back.", true);
            }
            const text = JSON.stringify(message);
            if (open) {
              socket.send(text);
            } else if (message.type === "visibility") {
              unsentVisibility.set(message.node, text);
            } else if (message.type !== "event") {
              say("Not connected: that action was not sent. Try again in a moment.");
            }
          }

          function receive(text) {
            let message;
            try { message = JSON.parse(text); } catch { return; }
            if (typeof message.sequence === "number") {
              if (message.sequence <= sequence) return;
              if (message.sequence !== sequence + 1) { send({ type: "resync" }); return; }
            }
            switch (message.type) {
              case "patch": keepingFocus(() => apply(message.operations)); break;
              case "reset":
                keepingFocus(() => { document.getElementById("scene-root").innerHTML = message.html; });
                spaceWindows();
                // New elements (perhaps of a new version of the scene): report them afresh.
                visible.clear();
                break;
              case "confirm": ask(message); break;
              case "navigate": closedForGood = true; location.assign(message.url); break;
              case "refused": say(message.message); break;
              case "errors": showErrors(message.text); break;
              case "resume":
                resumeToken = message.token;
                for (const key of message.applied || []) pending.delete(key);
                break;
            }
            if (typeof message.sequence === "number") {
              sequence = message.sequence;
              main.dataset.sequence = String(sequence);
            }
            fallbackImages(document.getElementById("scene-root"));
          }

          // --- Applying operations, by element id, in the order the server planned them.
          function byID(id) { return document.getElementById(id); }
          function item(node) { return node.parentElement && node.parentElement.tagName === "LI" ? node.parentElement : node; }
          function slot(parent) { return parent.querySelector(":scope > [data-slot]") || parent; }
          function parse(html) {
            const template = document.createElement("template");
            template.innerHTML = html.trim();
            return template.content.firstElementChild;
          }
          function place(container, index, node) {
            const target = slot(container);
            if (target.tagName === "UL" && node.tagName !== "LI") {
              const li = document.createElement("li");
              li.appendChild(node);
              node = li;
            } else if (target.tagName !== "UL" && node.tagName === "LI" && node.firstElementChild) {
              node = node.firstElementChild;
            }
            target.insertBefore(node, target.children[index] || null);
          }
          function apply(ops) {
            const detached = new Map();
            for (const op of ops) {
              const node = op.id ? byID(op.id) : null;
              switch (op.op) {
                case "detach": if (node) { const moved = item(node); moved.remove(); detached.set(op.id, moved); } break;
                case "remove": if (node) item(node).remove(); break;
                case "insert": { const parent = byID(op.parent); if (parent) place(parent, op.index, parse(op.html)); break; }
                case "attach": { const parent = byID(op.parent); const moved = detached.get(op.id); if (parent && moved) place(parent, op.index, moved); break; }
                case "replace": if (node) node.replaceWith(parse(op.html)); break;
                case "window":
                  if (node) {
                    node.dataset.firstRow = String(op.first ?? 0);
                    node.dataset.totalRows = String(op.total ?? 0);
                  }
                  asked.clear();
                  break;
              }
            }
            spaceWindows();
          }
          function keepingFocus(change) {
            const focused = document.activeElement && document.activeElement.id;
            change();
            if (focused && !document.activeElement?.id) {
              const again = byID(focused);
              if (again) again.focus();
            }
          }

          // --- Long lists: the page holds a window of a list's rows (a section with
          // data-first-row and data-total-rows); padding stands in for the rows before and
          // after it, and scrolling asks the server to move the window, which answers with
          // patches like any other change.
          const asked = new Map();
          let lastAsked = 0;
          let trailing = null;
          function windowedSections() { return main.querySelectorAll(".section[data-total-rows]"); }
          function rowsOf(section) { return section.querySelector(":scope > ul"); }
          function spaceWindows() {
            for (const section of windowedSections()) {
              const list = rowsOf(section);
              if (!list) continue;
              const rows = list.children.length;
              if (rows > 1) {
                const top = list.firstElementChild.getBoundingClientRect().top;
                const bottom = list.lastElementChild.getBoundingClientRect().bottom;
                section.dataset.pitch = String((bottom - top) / rows);
                section.dataset.windowRows = String(Math.max(rows, Number(section.dataset.windowRows || "0")));
              }
              const pitch = Number(section.dataset.pitch || "0");
              const first = Number(section.dataset.firstRow || "0");
              const total = Number(section.dataset.totalRows || "0");
              list.style.paddingTop = `${first * pitch}px`;
              list.style.paddingBottom = `${Math.max(0, total - first - rows) * pitch}px`;
            }
          }
          function followScroll() {
            if (!socket || socket.readyState !== WebSocket.OPEN) return;
            for (const section of windowedSections()) {
              const list = rowsOf(section);
              const pitch = Number(section.dataset.pitch || "0");
              const module = section.closest("[data-module]")?.dataset.module;
              if (!list || !pitch || !module) continue;
              const first = Number(section.dataset.firstRow || "0");
              const total = Number(section.dataset.totalRows || "0");
              const rows = list.children.length;
              const size = Number(section.dataset.windowRows || String(rows));
              const top = list.getBoundingClientRect().top;
              const firstSeen = Math.max(0, Math.floor(-top / pitch));
              const lastSeen = Math.min(total, Math.ceil((window.innerHeight - top) / pitch));
              if (lastSeen <= 0 || firstSeen >= total) continue;
              const margin = Math.max(2, Math.floor(size / 6));
              const early = first > 0 && firstSeen < first + margin;
              const late = first + rows < total && lastSeen > first + rows - margin;
              if (!early && !late) continue;
              const start = Math.max(0, Math.min(total - size, Math.round(firstSeen - (size - (lastSeen - firstSeen)) / 2)));
              if (asked.get(module) === start || start === first) continue;
              asked.set(module, start);
              socket.send(JSON.stringify({ type: "window", module, start }));
            }
          }
          let scrollFrame = 0;
          window.addEventListener("scroll", () => {
            if (scrollFrame) return;
            scrollFrame = requestAnimationFrame(() => {
              scrollFrame = 0;
              const now = performance.now();
              clearTimeout(trailing);
              // At most one request every 100 ms while scrolling, and one when it stops.
              if (now - lastAsked >= 100) { lastAsked = now; followScroll(); }
              trailing = setTimeout(() => { lastAsked = performance.now(); followScroll(); }, 120);
            });
          }, { passive: true });
          window.addEventListener("resize", () => { spaceWindows(); followScroll(); });
          spaceWindows();

          // --- Confirmations: a real dialog, keyboard accessible; Esc cancels.
          function ask(message) {
            const dialog = element("dialog", { "aria-labelledby": "scenery-confirm-title" });
            dialog.appendChild(element("h2", { id: "scenery-confirm-title" }, message.title));
            if (message.message) dialog.appendChild(element("p", {}, message.message));
            const actions = element("div", { class: "actions" });
            const cancel = element("button", { type: "button" }, message.cancel);
            const confirm = element("button", { type: "button", class: "primary" }, message.confirm);
            actions.append(cancel, confirm);
            dialog.appendChild(actions);
            document.body.appendChild(dialog);
            let answered = false;
            const answer = (accept) => {
              if (answered) return;
              answered = true;
              send({ type: "answer", question: message.question, accept });
              dialog.close();
              dialog.remove();
            };
            cancel.addEventListener("click", () => answer(false));
            confirm.addEventListener("click", () => answer(true));
            dialog.addEventListener("cancel", (event) => { event.preventDefault(); answer(false); });
            dialog.showModal();
            cancel.focus();
          }

          function showErrors(text) {
            let overlay = byID("scenery-errors");
            if (text === null || text === undefined) { if (overlay) overlay.remove(); return; }
            if (!overlay) {
              overlay = element("section", { id: "scenery-errors", role: "alert", "aria-label": "Scene file errors" });
              document.body.appendChild(overlay);
            }
            overlay.replaceChildren(element("strong", {}, "The scene file has errors; this page shows the last good version."), element("pre", {}, text));
          }

          // --- Controls: every element with data-node sends its id.
          document.addEventListener("click", (event) => {
            const control = event.target.closest("[data-node]");
            if (!control || !main.contains(control)) return;
            // A control inside a selectable row is its own control.
            event.preventDefault();
            send({ type: "event", node: control.dataset.node });
          });
          document.addEventListener("keydown", (event) => {
            if (event.key !== "Enter" && event.key !== " ") return;
            const control = event.target.closest("[data-node]");
            if (!control || control !== event.target || control.tagName === "BUTTON" || !main.contains(control)) return;
            event.preventDefault();
            send({ type: "event", node: control.dataset.node });
          });

          // --- Impressions: the page tells the server when a module (and each row of a module
          // that counts rows) crosses the impression threshold, either way; the server times
          // how long it stays and counts it once. A part taller than the window counts by the
          // share of the window it fills.
          const threshold = Number(main.dataset.impressionFraction || "0.5");
          const rowModules = new Set((main.dataset.rowImpressions || "").split(" ").filter(Boolean));
          const visible = new Map();
          const observer = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
            if (document.visibilityState === "hidden") return;
            for (const entry of entries) {
              const id = entry.target.id;
              if (!id || !main.contains(entry.target)) continue;
              const viewport = entry.rootBounds ? entry.rootBounds.height : window.innerHeight;
              const share = viewport > 0 ? entry.intersectionRect.height / viewport : 0;
              const fraction = Math.min(1, Math.round(Math.max(entry.intersectionRatio, share) * 1000) / 1000);
              const isVisible = entry.isIntersecting && fraction >= threshold;
              if ((visible.get(id) || false) === isVisible) continue;
              visible.set(id, isVisible);
              send({ type: "visibility", node: id, fraction: isVisible ? fraction : 0 });
            }
          }, { threshold: Array.from({ length: 21 }, (_, index) => index / 20) }) : null;
          let watched = new WeakSet();
          function watchVisibility() {
            if (!observer) return;
            for (const frame of main.querySelectorAll("section[data-module]")) {
              const parts = [frame];
              if (rowModules.has(frame.dataset.module)) parts.push(...frame.querySelectorAll("ul[data-slot] > li > [id]"));
              for (const part of parts) {
                if (watched.has(part)) continue;
                watched.add(part);
                observer.observe(part);
              }
            }
          }
          new MutationObserver(watchVisibility).observe(main, { childList: true, subtree: true });
          watchVisibility();
          // A page in a background tab or a minimised window is not seen: what was visible
          // stops counting, and counts again from when the page is shown.
          document.addEventListener("visibilitychange", () => {
            if (!observer) return;
            if (document.visibilityState === "hidden") {
              for (const [id, isVisible] of visible) {
                if (!isVisible) continue;
                visible.set(id, false);
                send({ type: "visibility", node: id, fraction: 0 });
              }
            } else {
              observer.disconnect();
              watched = new WeakSet();
              watchVisibility();
            }
          });

          // The browser knows when the network is gone: stop waiting on a dead socket, and
          // come back as soon as it returns.
          window.addEventListener("offline", () => { if (socket) socket.close(); });
          window.addEventListener("online", () => {
            if (!socket || socket.readyState === WebSocket.CLOSED) { attempts = 0; connect(); }
          });

          connect();
        })();

        // An avatar that fails to load becomes the fallback circle, named like the image.
        function replaceImage(image) {
          if (!image.id && !image.alt) return;
          const circle = document.createElement("span");
          for (const { name, value } of Array.from(image.attributes)) {
            if (name !== "src" && name !== "alt") circle.setAttribute(name, value);
          }
          circle.className = "symbol";
          if (!circle.hasAttribute("role")) circle.setAttribute("role", "img");
          circle.setAttribute("aria-label", image.alt);
          image.replaceWith(circle);
        }
        function fallbackImages(root) {
          if (!root) return;
          for (const image of root.querySelectorAll("img")) {
            if (image.complete && image.naturalWidth === 0) replaceImage(image);
          }
        }
        """#
}
