/// The page inspector's script (``SceneryServer/Configuration/enablesInspector``): a page
/// includes it only when the inspector is on, so a page served without it carries not a
/// byte of it.
///
/// It adds an Inspect button; pressed, the next click on the page is not an action but a
/// question: the script asks `/inspect/{session}?node=ID` about the nearest element with an
/// id and shows the answer in a panel, as text (never as HTML): the module, the scene file
/// line that placed it, the variant, the arms, the module's parameters, window and state, and
/// the page's recent events. Styles are set
/// through the DOM, which the page's Content-Security-Policy allows.
enum InspectorScript {
    /// Where the server serves it.
    static let path = "/assets/inspector.js"

    static let source = #"""
        "use strict";
        (() => {
          const main = document.querySelector("main[data-session]");
          if (!main) return;
          const button = document.createElement("button");
          button.type = "button";
          button.id = "scenery-inspect";
          button.textContent = "Inspect";
          button.setAttribute("aria-pressed", "false");
          Object.assign(button.style, { position: "fixed", right: "1rem", bottom: "1rem", zIndex: "1000" });
          const panel = document.createElement("aside");
          panel.id = "scenery-inspector";
          panel.setAttribute("aria-label", "Inspector");
          panel.setAttribute("aria-live", "polite");
          panel.hidden = true;
          Object.assign(panel.style, {
            position: "fixed", right: "1rem", bottom: "3.5rem", maxWidth: "34rem", maxHeight: "60vh", overflow: "auto",
            zIndex: "1000", background: "Canvas", color: "CanvasText", border: "1px solid GrayText", borderRadius: "0.5rem",
            padding: "0.75rem", font: "12px/1.5 ui-monospace, monospace", whiteSpace: "pre-wrap",
          });
          document.body.append(panel, button);
          let picking = false;
          const pick = (on) => {
            picking = on;
            button.setAttribute("aria-pressed", String(on));
            document.documentElement.style.cursor = on ? "crosshair" : "";
          };
          button.addEventListener("click", () => pick(!picking));
          // Each question is numbered: an answer that arrives after another question, or after
          // the panel was closed, is dropped (it would open the panel again, or show the wrong part).
          let asked = 0;
          const show = (lines, editorLink) => {
            panel.textContent = lines.join("\n");
            // The server's own link (serve --inspect with SCENERY_EDITOR), never a script URL.
            if (editorLink && !/^\s*(javascript|data|vbscript):/i.test(editorLink)) {
              const link = document.createElement("a");
              link.id = "scenery-inspector-editor";
              link.href = editorLink;
              link.textContent = "Open in editor";
              panel.append("\n", link);
            }
            panel.hidden = false;
          };
          // In the capture phase, before the page script: a click while picking asks, and acts on nothing.
          document.addEventListener("click", async (event) => {
            if (!picking || button.contains(event.target) || panel.contains(event.target)) return;
            event.preventDefault();
            event.stopImmediatePropagation();
            pick(false);
            const element = event.target instanceof Element ? event.target.closest("[id]") : null;
            if (!element || !main.contains(element)) {
              show(["Point at a part of the scene."]);
              return;
            }
            const session = main.dataset.session;
            const question = ++asked;
            let answer;
            try {
              const response = await fetch(`/inspect/${encodeURIComponent(session)}?node=${encodeURIComponent(element.id)}`,
                { credentials: "same-origin", cache: "no-store" });
              answer = await response.json();
              if (question !== asked) return;
            } catch {
              if (question !== asked) return;
              show(["The inspector could not reach the server."]);
              return;
            }
            if (answer.type === "refused") {
              show([element.id, answer.message]);
              return;
            }
            const arms = Object.entries(answer.arms).map(([name, arm]) => `${name} = ${arm}`).join(", ");
            const facts = (entries) => Object.keys(entries || {}).sort().map((name) => `${name}=${JSON.stringify(entries[name])}`).join(" ");
            const parameters = facts(answer.parameters), state = facts(answer.state), window = answer.window;
            const given = Object.entries(answer.arguments).map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`).join(" ");
            show([
              `${element.id}`,
              `${answer.module} (${answer.moduleType}), ${answer.status}`,
              `placed at ${answer.placement}`,
              `scene ${answer.scene}, variant ${answer.variant}${answer.variantCondition ? ` (when ${answer.variantCondition})` : ""}`,
              ...((answer.variantsPassedOver || []).length
                ? [`passed over: ${answer.variantsPassedOver.map((passed) => `${passed.name} (when ${passed.condition})`).join(", ")}`] : []),
              ...(arms ? [`arms: ${arms}`] : []),
              ...(parameters ? [`parameters: ${parameters}`] : []),
              ...(window ? [`window: rows ${window.start}–${window.start + window.count - 1}`] : []),
              ...(state ? [`state: ${state}`] : []),
              `viewer ${answer.viewer ?? "signed out"}${given ? `, arguments ${given}` : ""}${answer.locale ? `, language ${answer.locale}` : ""}`
                + `, theme ${answer.theme ?? "the system's (light or dark)"}`,
              ...(answer.events.length ? ["recent events:", ...answer.events.map((line) => `  ${line}`)] : ["no events yet"]),
              ...((answer.problems || []).length ? ["problems this page reported:", ...answer.problems.map((line) => `  ${line}`)] : []),
            ], answer.editorLink);
          }, true);
          document.addEventListener("keydown", (event) => {
            if (event.key === "Escape" && (picking || !panel.hidden)) {
              pick(false);
              asked += 1;
              panel.hidden = true;
            }
          });
        })();
        """#
}
