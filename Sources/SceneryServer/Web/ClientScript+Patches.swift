extension ClientScript {
    /// Applying the server's numbered operations by element id, with the scene file's motion, and
    /// the window of a long list.
    static let patches = #"""
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
            const anchor = ops.some((op) => op.op === "window") ? rowOnScreen() : null;
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
            keepInPlace(anchor);
            // A window that arrived changes the rows' measured height, and so which rows the
            // screen shows: look again once it is laid out, as scrolling would.
            if (movedWindow) setTimeout(followScroll, 0);
          }
          // A window move takes rows away on one side of the screen and pads their place: what
          // the person sees must not move. The browser's scroll anchoring made up for the rows
          // but not for the padding (a change of padding suspends it), so the screen jumped by
          // the rows moved, and a page that landed where the jump called for the window it had
          // left asked for both in turn without end. The first row on screen is put back.
          function rowOnScreen() {
            for (const section of windowedSections()) {
              const list = rowsOf(section);
              if (!list) continue;
              for (const row of list.children) {
                const box = row.getBoundingClientRect();
                if (box.bottom > 0 && box.top < window.innerHeight) return { row, top: box.top };
              }
            }
            return null;
          }
          function keepInPlace(anchor) {
            if (!anchor || !anchor.row.isConnected) return;
            const drift = anchor.row.getBoundingClientRect().top - anchor.top;
            if (Math.abs(drift) >= 1) window.scrollBy(0, drift);
          }
          // The focused element keeps the focus when a patch replaces it: found again by its
          // id, or by the control it is (a tab has no id of its own).
          function keepingFocus(change) {
            const active = document.activeElement;
            const focused = active && active.id;
            const control = active && !focused && active.dataset ? active.dataset.node : null;
            change();
            if (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected) return;
            const again = focused ? byID(focused) : control ? main.querySelector(`[data-node="${CSS.escape(control)}"]`) : null;
            if (again) again.focus();
          }

          // --- Long lists: the page holds a window of a list's rows (a section with
          // data-first-row and data-total-rows); padding stands in for the rows before and
          // after it, and scrolling asks the server to move the window, which answers with
          // patches like any other change.
          // The start each module's window was last asked to move to, and when: a request the
          // server did not answer with a window (refused as too fast, or already held there)
          // is asked again after a second, as long as the screen still shows rows it lacks.
          const asked = new Map();
          let lastAsked = 0;
          let trailing = null;
          let recheck = null;
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
              const previous = asked.get(module);
              if (start === first || (previous && previous.start === start && performance.now() - previous.at < 1000)) continue;
              asked.set(module, { start, at: performance.now() });
              socket.send(JSON.stringify({ type: "window", module, start }));
              clearTimeout(recheck);
              recheck = setTimeout(followScroll, 1100);
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

        """#
}
