extension ClientScript {
    /// Impressions (what crosses the threshold, and for how long), a page hidden or offline, and
    /// the end of the script: images that fail become the fallback circle.
    static let visibility = #"""
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

        // An avatar that fails to load becomes the fallback circle, named like the image,
        // with the person's initials when the page has them (drawn for sight; the label says
        // the name).
        function replaceImage(image) {
          if (!image.id && !image.alt) return;
          const circle = document.createElement("span");
          const initials = image.getAttribute("data-initials");
          for (const { name, value } of Array.from(image.attributes)) {
            if (name !== "src" && name !== "alt" && name !== "data-initials") circle.setAttribute(name, value);
          }
          circle.className = initials ? "symbol initials" : "symbol";
          if (initials) {
            const letters = document.createElement("span");
            letters.setAttribute("aria-hidden", "true");
            letters.textContent = initials;
            circle.appendChild(letters);
          }
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
