// The public team page follows the live updates: on every new version it fetches itself
// again and swaps its content (no reload, no flicker). Without JavaScript: reload by hand.
(function () {
  "use strict";
  var root = document.getElementById("team-page");
  if (!root || !window.EventSource) return;
  var source = new EventSource("/tournaments/" + root.dataset.tournament + "/live/events");
  source.addEventListener("version", function (event) {
    if (String(event.data) === root.dataset.version) return;
    fetch(location.href, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("team-page");
        if (fresh) { root.innerHTML = fresh.innerHTML; root.dataset.version = fresh.dataset.version; }
      });
  });
})();
