// strata web view: live updates over Server-Sent Events while a reconcile
// runs, and the graph's edge highlighting. Every page works without it.
"use strict";

(function () {
  const body = document.body;
  if (body.dataset.live === "true" && window.EventSource) {
    const panel = document.getElementById("live");
    const lines = document.getElementById("live-lines");
    const source = new EventSource("/events");
    source.addEventListener("log", function (e) {
      if (!panel || !lines) return;
      panel.hidden = false;
      lines.textContent += e.data + "\n";
      const all = lines.textContent.split("\n");
      if (all.length > 200) lines.textContent = all.slice(all.length - 200).join("\n");
      lines.scrollTop = lines.scrollHeight;
    });
    // A reconcile started or ended: fetch this page once and swap its
    // content in, keeping the live log and the focus where they are.
    source.addEventListener("refresh", function () {
      if (document.querySelector("form textarea:focus, form input:focus")) return;
      fetch(window.location.href, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          const next = new DOMParser().parseFromString(html, "text/html").getElementById("content");
          const here = document.getElementById("content");
          if (next && here) { here.replaceWith(next); wireGraph(); }
        })
        .catch(function () {});
    });
  }

  // Hovering or focusing a stack in the graph lights up its edges.
  function wireGraph() {
    document.querySelectorAll("svg.graph a[data-stack]").forEach(function (a) {
      const name = a.dataset.stack;
      const light = function (on) {
        document.querySelectorAll("svg.graph path.edge").forEach(function (p) {
          if (p.dataset.from === name || p.dataset.to === name) p.classList.toggle("lit", on);
        });
      };
      a.addEventListener("mouseenter", function () { light(true); });
      a.addEventListener("mouseleave", function () { light(false); });
      a.addEventListener("focus", function () { light(true); });
      a.addEventListener("blur", function () { light(false); });
    });
  }
  wireGraph();
})();
