// Pages that follow the live updates (the public team page, a phone's table page, the
// office's Tischliste): on every new version the page fetches itself again and swaps the
// followed part (no reload, no flicker). A form being filled in is never swapped away: the
// next version brings the page up to date. Without JavaScript: reload by hand.
(function () {
  "use strict";
  var root = document.querySelector("[data-follow]");
  if (!root || !window.EventSource) return;
  var source = new EventSource("/tournaments/" + root.dataset.tournament + "/live/events");
  function busy() {
    var active = document.activeElement;
    if (active && root.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    return Array.prototype.some.call(root.querySelectorAll("input[type=text], input:not([type]), textarea"),
      function (field) { return field.value !== field.defaultValue; });
  }
  source.addEventListener("version", function (event) {
    if (String(event.data) === root.dataset.version || busy()) return;
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html || busy()) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(root.id);
        if (fresh) { root.innerHTML = fresh.innerHTML; root.dataset.version = fresh.dataset.version; }
      });
  });
})();
