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
          // The longest message the server takes, in bytes (a form's text must fit).
          const LARGEST_MESSAGE = Number(main.dataset.largestMessage || "16384");
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
              say(heard.length > 3 ? `${shown} (+${heard.length - 3})` : shown);
              heard = [];
            }, 1000);
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
            return message.action || null;
          }

          function receive(text) {
            if (composing) { heldWhileComposing.push(text); return; }
            let message;
            try { message = JSON.parse(text); } catch { return; }
            if (typeof message.sequence === "number") {
              if (message.sequence <= sequence) return;
              if (message.sequence !== sequence + 1) { send({ type: "resync" }); return; }
            }
            switch (message.type) {
              case "patch": keepingFocus(() => apply(message.operations)); announceStatus(); break;
              case "reset":
                keepingFocus(() => {
                  const root = document.getElementById("scene-root");
                  const kept = typedIn(root);
                  root.innerHTML = message.html;
                  restoreTyped(kept);
                });
                spaceWindows();
                // New elements (perhaps of a new version of the scene): report them afresh.
                visible.clear();
                break;
              case "announce": announceLater(message.texts); break;
              case "title": {
                // What the page is about, named by a module that loaded after the page came.
                const heading = main.querySelector(":scope > h1");
                if (heading) heading.textContent = message.text;
                document.title = `${message.text} · Scenery`;
                break;
              }
              case "confirm": ask(message); break;
              case "navigate": closedForGood = true; location.assign(message.url); break;
              case "refused":
                say(message.message);
                // A submit the server refused: its fields keep what was typed, and the form says why.
                if (message.action) refuseSubmitted(message.action, message.message);
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
            // A part still playing its way out holds no place: indexes count the others.
            const staying = Array.from(target.children).filter((child) => !child.hasAttribute("data-leaving"));
            target.insertBefore(node, staying[index] || null);
            return node;
          }

          // --- Motion from the diff: the scene file's transitions per module (appear,
          // disappear, move, change), played on what each operation touched, for the
          // viewer's own changes and others' alike; none under reduced motion.
          const motion = (() => { try { return JSON.parse(main.dataset.transitions || "{}"); } catch { return {}; } })();
          const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
          function effectFor(node, change) {
            if (reducedMotion.matches || !node || !node.closest) return null;
            const section = node.closest("section.module[data-module]");
            const effects = section && motion[section.dataset.module];
            return (effects && effects[change]) || null;
          }
          function play(node, change, effect) {
            if (!effect || !node) return;
            const name = `t-${change}-${effect}`;
            node.classList.remove(name);
            void node.offsetWidth;  // restart it when it is already playing
            node.classList.add(name);
            node.addEventListener("animationend", () => node.classList.remove(name), { once: true });
          }
          function leave(node, effect) {
            // Out of the page's ids and of reach at once; gone when its motion ends.
            for (const part of [node, ...node.querySelectorAll("[id]")]) part.removeAttribute("id");
            node.setAttribute("data-leaving", "");
            node.setAttribute("aria-hidden", "true");
            node.inert = true;
            const gone = () => node.remove();
            node.addEventListener("animationend", gone, { once: true });
            setTimeout(gone, 700);
            play(node, "disappear", effect);
          }
          function apply(ops) {
            const detached = new Map();
            let movedWindow = false;
            for (const op of ops) {
              const node = op.id ? byID(op.id) : null;
              switch (op.op) {
                case "detach": if (node) { const moved = item(node); moved.remove(); detached.set(op.id, moved); } break;
                case "remove":
                  if (node) {
                    const effect = effectFor(node, "disappear");
                    if (effect) leave(item(node), effect); else item(node).remove();
                  }
                  break;
                case "insert": {
                  const parent = byID(op.parent);
                  if (parent) play(place(parent, op.index, parse(op.html)), "appear", effectFor(parent, "appear"));
                  break;
                }
                case "attach": {
                  const parent = byID(op.parent);
                  const moved = detached.get(op.id);
                  if (parent && moved) play(place(parent, op.index, moved), "move", effectFor(parent, "move"));
                  break;
                }
                case "replace":
                  if (node) {
                    const kept = typedIn(node);
                    const fresh = parse(op.html);
                    node.replaceWith(fresh);
                    restoreTyped(kept);
                    play(fresh, "change", effectFor(fresh, "change"));
                  }
                  break;
                case "window":
                  if (node) {
                    node.dataset.firstRow = String(op.first ?? 0);
                    node.dataset.totalRows = String(op.total ?? 0);
                  }
                  asked.clear();
                  movedWindow = true;
                  break;
              }
            }
            spaceWindows();
            // A window that arrived changes the rows' measured height, and so which rows the
            // screen shows: look again once it is laid out, as scrolling would.
            if (movedWindow) setTimeout(followScroll, 0);
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
            // A choice that destroys or ends something looks so; Cancel keeps the focus.
            const confirm = element("button", { type: "button", class: message.destructive ? "danger" : "primary" }, message.confirm);
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

          // --- Forms: what a person types stays in the page (no patch replaces it, nor its
          // caret and selection) until they submit. The page checks each field's rules first
          // (the module checks them again), then sends the form's id with the text of each
          // field under its name; once the server has answered, each field shows what the
          // module rendered (the text back with its error, or an empty field after a save).
          const submitted = new Map();
          let composing = false;
          const heldWhileComposing = [];
          const segmenter = "Segmenter" in Intl ? new Intl.Segmenter() : null;
          function characters(text) { return segmenter ? Array.from(segmenter.segment(text)).length : Array.from(text).length; }
          function fieldsOf(form) { return Array.from(form.querySelectorAll("input[name], textarea[name]")); }
          function problemOf(input) {
            const label = input.dataset.label || input.name;
            const text = input.value;
            const count = characters(text);
            const maximum = input.maxLength;  // -1 when the field declares none
            if (maximum >= 0 && count > maximum) return `${label} is at most ${maximum} characters; it has ${count}.`;
            // What no field takes (as the server checks it): control characters, but tabs and,
            // in a text area, new lines; bidirectional overrides.
            const control = input.tagName === "TEXTAREA" ? /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u
              : /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;
            const found = text.match(control);
            if (found) return `${label} holds a control character (U+${found[0].codePointAt(0).toString(16).toUpperCase()}); type text only.`;
            let rules = [];
            try { rules = JSON.parse(input.dataset.rules || "[]"); } catch { rules = []; }
            for (const rule of rules) {
              if (rule.rule === "required" && text.trim() === "") return rule.message || `${label} is required.`;
              if (rule.rule === "length" && text !== "" && (count < rule.min || count > rule.max)) {
                return rule.message || `${label} is ${rule.min} to ${rule.max} characters; it has ${count}.`;
              }
              if (rule.rule === "pattern" && text !== "") {
                let pattern;
                try { pattern = new RegExp(`^(?:${rule.pattern})$`, "u"); } catch { continue; }
                if (!pattern.test(text)) return rule.message || `${label} is not in the expected form.`;
              }
            }
            return null;
          }
          function showProblem(input, problem) {
            const field = input.closest(".field");
            if (!field) return;
            const id = `${field.id}--error`;
            let note = byID(id);
            if (problem) {
              if (!note) { note = element("p", { id, class: "field-error" }); field.appendChild(note); }
              note.textContent = problem;
              input.setAttribute("aria-invalid", "true");
              input.setAttribute("aria-describedby", id);
            } else if (note) {
              note.remove();
              input.removeAttribute("aria-invalid");
              input.removeAttribute("aria-describedby");
            }
          }
          document.addEventListener("submit", (event) => {
            const form = event.target.closest("form[data-form]");
            if (!form || !main.contains(form)) return;
            event.preventDefault();
            const values = {};
            let first = null;
            for (const input of fieldsOf(form)) {
              const problem = problemOf(input);
              showProblem(input, problem);
              if (problem && !first) first = { input, problem };
              values[input.name] = input.value;
            }
            if (first) {
              first.input.focus();
              say(first.problem);
              return;
            }
            const message = { type: "event", node: form.dataset.form, values };
            if (new TextEncoder().encode(JSON.stringify(message)).length > LARGEST_MESSAGE) {
              const input = fieldsOf(form).sort((a, b) => b.value.length - a.value.length)[0];
              const problem = `${input.dataset.label || input.name} is too long to send; shorten it.`;
              showProblem(input, problem);
              say(problem);
              return;
            }
            const key = send(message);
            if (key) submitted.set(key, form.dataset.form);
          });
          // Typed text as it is in an element about to be replaced: a field's text, caret and
          // selection where a person typed or is typing.
          function typedIn(node) {
            const inputs = node.matches("input[name], textarea[name]") ? [node] : Array.from(node.querySelectorAll("input[name], textarea[name]"));
            return inputs.filter((input) => input.id && (input.value !== input.defaultValue || input === document.activeElement)).map((input) => ({
              id: input.id, value: input.value, typed: input.value !== input.defaultValue,
              start: input.selectionStart, end: input.selectionEnd, focused: input === document.activeElement,
            }));
          }
          function restoreTyped(kept) {
            for (const typed of kept) {
              const input = byID(typed.id);
              if (!input || !("value" in input)) continue;
              if (typed.typed) input.value = typed.value;
              if (typed.focused) input.focus();
              // The caret and selection too, focused or not (a dialog may hold the focus).
              try { input.setSelectionRange(typed.start, typed.end); } catch { /* not a text field */ }
            }
          }
          // A refused submit: nothing reached the module, so what was typed stays where it was,
          // and the refusal is shown with the form's own error.
          function refuseSubmitted(key, text) {
            const formID = submitted.get(key);
            if (formID === undefined) return;
            submitted.delete(key);
            const form = byID(formID);
            if (!form) return;
            let error = form.querySelector(".form-error");
            if (!error) {
              error = document.createElement("p");
              error.id = formID + "--error";
              error.className = "form-error";
              error.setAttribute("role", "alert");
              form.insertBefore(error, form.querySelector("button[type=submit]"));
            }
            error.textContent = text;
          }
          // An answered submit: its fields show what the module rendered.
          function settleSubmitted(keys) {
            for (const key of keys) {
              const formID = submitted.get(key);
              if (formID === undefined) continue;
              submitted.delete(key);
              const form = byID(formID);
              if (form) for (const input of fieldsOf(form)) input.value = input.defaultValue;
            }
          }
          // A field that sends changes (search as you type, a check as you type) sends its
          // text once the person pauses (CHANGE_PAUSE ms), never in the middle of a
          // composition, and only when it changed since it last sent.
          const CHANGE_PAUSE = 300;
          const changeTimers = new Map();
          const lastSent = new Map();
          function changeLater(input) {
            if (!input.dataset || input.dataset.changes === undefined || !main.contains(input)) return;
            clearTimeout(changeTimers.get(input.id));
            changeTimers.set(input.id, setTimeout(() => {
              changeTimers.delete(input.id);
              const field = input.closest(".field");
              if (!field || lastSent.get(field.id) === input.value) return;
              const message = { type: "event", node: field.id, values: { [input.name]: input.value } };
              if (new TextEncoder().encode(JSON.stringify(message)).length > LARGEST_MESSAGE) return;
              lastSent.set(field.id, input.value);
              send(message);
            }, CHANGE_PAUSE));
          }
          document.addEventListener("input", (event) => {
            if (!event.isComposing && !composing) changeLater(event.target);
          });
          // An input method's composition (Japanese, Chinese, Korean) is never broken by a
          // patch: what arrives meanwhile waits until it ends.
          document.addEventListener("compositionstart", () => { composing = true; });
          document.addEventListener("compositionend", (event) => {
            composing = false;
            for (const text of heldWhileComposing.splice(0)) receive(text);
            changeLater(event.target);
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
