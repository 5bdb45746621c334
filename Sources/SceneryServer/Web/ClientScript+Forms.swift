extension ClientScript {
    /// Scene file errors, controls that send their id, and forms that keep what is typed
    /// until it is submitted.
    static let forms = #"""
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
          // Tabs as the ARIA tabs pattern has them: one tab stop (the selected tab), the arrow
          // keys (mirrored right to left), Home and End move to another tab and select it.
          document.addEventListener("keydown", (event) => {
            const tab = event.target.closest && event.target.closest("[role=tab]");
            if (!tab || !main.contains(tab)) return;
            const tabs = Array.from(tab.closest("[role=tablist]").querySelectorAll("[role=tab]"));
            const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
            const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
            const index = tabs.indexOf(tab);
            const next = { [forward]: tabs[(index + 1) % tabs.length], [backward]: tabs[(index - 1 + tabs.length) % tabs.length],
                           Home: tabs[0], End: tabs[tabs.length - 1] }[event.key];
            if (!next) return;
            event.preventDefault();
            next.focus();
            if (next.getAttribute("aria-selected") !== "true") send({ type: "event", node: next.dataset.node });
          });
          // A focused element is shown whole, as a card of a carousel scrolled halfway.
          document.addEventListener("focusin", (event) => {
            if (main.contains(event.target) && event.target.scrollIntoView) event.target.scrollIntoView({ block: "nearest", inline: "nearest" });
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
          // As the server counts them: a length limit allows BYTES_PER_CHARACTER bytes (UTF-8)
          // per character, and no character carries more than MOST_MARKS marks.
          const BYTES_PER_CHARACTER = 16, MOST_MARKS = 30;
          function byteProblem(label, text, maximum) {
            const bytes = new TextEncoder().encode(text).length;
            if (bytes <= maximum * BYTES_PER_CHARACTER) return null;
            return `${label} is at most ${maximum} characters of ${BYTES_PER_CHARACTER} bytes (${maximum * BYTES_PER_CHARACTER} bytes); it has ${bytes} bytes. Shorten it, or remove marks stacked on its letters.`;
          }
          function markProblem(label, text) {
            if (!segmenter || Array.from(text).length <= MOST_MARKS) return null;
            for (const { segment } of segmenter.segment(text)) {
              const marks = Array.from(segment).length - 1;
              if (marks > MOST_MARKS) return `${label} holds a character with ${marks} marks stacked on it; at most ${MOST_MARKS} are taken. Type the text without them.`;
            }
            return null;
          }
          function fieldsOf(form) { return Array.from(form.querySelectorAll("input[name], textarea[name]")); }
          function problemOf(input) {
            const label = input.dataset.label || input.name;
            const text = input.value;
            const count = characters(text);
            const maximum = input.maxLength;  // -1 when the field declares none
            if (maximum >= 0) {
              const heavy = byteProblem(label, text, maximum);
              if (heavy) return heavy;
              if (count > maximum) return `${label} is at most ${maximum} characters; it has ${count}.`;
            }
            // What no field takes (as the server checks it): control characters, but tabs and,
            // in a text area, new lines; bidirectional overrides.
            const control = input.tagName === "TEXTAREA" ? /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u
              : /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;
            const found = text.match(control);
            if (found) return `${label} holds a control character (U+${found[0].codePointAt(0).toString(16).toUpperCase()}); type text only.`;
            const stacked = markProblem(label, text);
            if (stacked) return stacked;
            let rules = [];
            try { rules = JSON.parse(input.dataset.rules || "[]"); } catch { rules = []; }
            for (const rule of rules) {
              if (rule.rule === "required" && text.trim() === "") return rule.message || `${label} is required.`;
              if (rule.rule === "length" && text !== "") {
                const heavy = byteProblem(label, text, rule.max);
                if (heavy) return rule.message || heavy;
                if (count < rule.min || count > rule.max) return rule.message || `${label} is ${rule.min} to ${rule.max} characters; it has ${count}.`;
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
              form: input.form && input.form.dataset.form ? input.form.dataset.form : null,
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
          // Returns whether it said why itself: a submit whose form the page no longer has (the
          // page was made again with its editors closed) says where the text is, not the
          // server's words about a control that is gone.
          const FORM_GONE = "What you typed was not sent: its form closed when the page came back. It is kept; open the form again to send it.";
          function refuseSubmitted(key, text) {
            const formID = submitted.get(key);
            if (formID === undefined) return false;
            submitted.delete(key);
            const form = byID(formID);
            if (!form) {
              if (!unrestored.some((field) => field.form === formID)) return false;
              say(FORM_GONE);
              return true;
            }
            let error = form.querySelector(".form-error");
            if (!error) {
              error = document.createElement("p");
              error.id = formID + "--error";
              error.className = "form-error";
              error.setAttribute("role", "alert");
              form.insertBefore(error, form.querySelector("button[type=submit]"));
            }
            error.textContent = text;
            return false;
          }
          // An answered submit: its fields show what the module rendered.
          function settleSubmitted(keys) {
            for (const key of keys) {
              const formID = submitted.get(key);
              if (formID === undefined) continue;
              submitted.delete(key);
              const form = byID(formID);
              if (form) for (const input of fieldsOf(form)) input.value = input.defaultValue;
              // What was kept of that form's text was sent and applied: nothing to put back.
              unrestored = unrestored.filter((field) => field.form !== formID);
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

          // --- Leaving with typed text: a person who typed into a form and did not send it is
          // asked once before the page goes (a link, a reload, closing the tab, or the scene
          // sending them to another). A field that sends as it is typed has nothing unsent.
          const LEAVE_QUESTION = "Leave this page? What you typed here has not been sent.";
          let leaving = false;
          function unsentFields() {
            return Array.from(main.querySelectorAll("input[name], textarea[name]")).filter((input) =>
              input.type !== "radio" && input.type !== "checkbox" && input.dataset.changes === undefined && input.value !== input.defaultValue);
          }
          function hasUnsentText() {
            return unsentFields().length > 0;
          }
          // Whether the page may go: nothing unsent, or the person said so (asked here once).
          function mayLeave() {
            if (leaving || !hasUnsentText()) return true;
            leaving = confirm(LEAVE_QUESTION);
            return leaving;
          }
          window.addEventListener("beforeunload", (event) => {
            if (leaving || !hasUnsentText()) return;
            event.preventDefault();
            event.returnValue = "";
          });

          // --- What was typed outlives a reload (the Reload button after a deploy, the
          // browser's) and a whole scene that no longer has its field (a page made again on
          // a restarted server shows its editors closed): text not sent when the page goes is
          // kept in this tab's session storage with the page's address and its viewer's key
          // (data-typed-key, naming no one), for an hour, and put back in its empty field when
          // the field is on the page again (at once, or when its tab is selected or its module
          // loads), saying so. One record: the latest page left with text. Another viewer's
          // page drops it unread.
          const TYPED_LIFETIME = 60 * 60 * 1000;
          const here = location.pathname + location.search;
          function savedTyped() {
            try {
              const saved = JSON.parse(sessionStorage.getItem(TYPED_STORE) || "null");
              if (!saved) return null;
              if (saved.viewer !== main.dataset.typedKey || !(Date.now() - saved.savedAt < TYPED_LIFETIME) || !Array.isArray(saved.fields)) {
                sessionStorage.removeItem(TYPED_STORE);
                return null;
              }
              return saved;
            } catch { return null; }
          }
          const savedAtLoad = savedTyped();
          let unrestored = savedAtLoad && savedAtLoad.path === here ? savedAtLoad.fields.filter((field) => typeof field.id === "string" && typeof field.value === "string") : [];
          function putBackTyped() {
            if (!unrestored.length) return;
            let restored = 0;
            unrestored = unrestored.filter((field) => {
              const input = byID(field.id);
              if (!input || !main.contains(input)) return true;
              // A field the person typed into again keeps what they typed now.
              if ("value" in input && input.value === input.defaultValue) { input.value = field.value; restored += 1; }
              return false;
            });
            if (restored) say("What you typed is back in its field; it has not been sent.");
          }
          // Typed text whose field the whole scene just sent no longer has: kept, to come back
          // with its field (the same editor opened again).
          function keepUnplaced(kept) {
            for (const typed of kept) {
              if (!typed.typed || byID(typed.id) || unrestored.some((field) => field.id === typed.id)) continue;
              unrestored.push({ id: typed.id, value: typed.value, form: typed.form });
            }
          }
          putBackTyped();
          window.addEventListener("pagehide", () => {
            const typed = unsentFields().map((input) => ({ id: input.id, value: input.value })).filter((field) => field.id);
            const fields = typed.concat(unrestored.filter((field) => !typed.some((other) => other.id === field.id)));
            try {
              if (fields.length) {
                sessionStorage.setItem(TYPED_STORE, JSON.stringify({ viewer: main.dataset.typedKey, path: here, savedAt: Date.now(), fields }));
              } else if ((savedTyped() || {}).path === here) {
                sessionStorage.removeItem(TYPED_STORE);
              }
            } catch { /* storage full or refused: leaving asked first */ }
          });

        """#
}
