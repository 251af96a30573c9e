// Pages that follow the live updates (the public team page, a phone's table page, the
// office's Tischliste): on a newer version the page fetches itself again and swaps the
// followed part (no reload, no flicker). A form being filled in is never swapped away: the
// next version brings the page up to date. Without JavaScript: reload by hand.
//
// data-follow-every="15" (the public team page) fetches at most every 15 seconds, at a
// random moment, so that a hall of open team pages does not fetch all at once after every
// result; pages without it (a phone waiting for the opponents, the office) follow at once.
(function () {
  "use strict";
  var root = document.querySelector("[data-follow]");
  if (!root || !window.EventSource) return;
  var every = (parseFloat(root.dataset.followEvery) || 0) * 1000;
  var last = 0, pending = null;
  // The hall's event stream: "delta" (JSON with the new version v) and "reset" (the
  // version) events.
  var source = new EventSource("/tournaments/" + root.dataset.tournament + "/live/events?v=" + root.dataset.version);
  function busy() {
    return Array.prototype.some.call(root.querySelectorAll("input[type=text], input:not([type]), textarea"),
      function (field) { return field.value !== field.defaultValue; });
  }
  function refresh() {
    pending = null;
    if (busy()) return;
    last = Date.now();
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html || busy()) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(root.id);
        if (fresh) { root.innerHTML = fresh.innerHTML; root.dataset.version = fresh.dataset.version; }
      });
  }
  function follow(version) {
    if (!(version > parseInt(root.dataset.version, 10)) || pending) return;
    var wait = Math.max(0, last + every - Date.now()) + Math.random() * Math.min(every, 3000);
    pending = setTimeout(refresh, wait);
  }
  source.addEventListener("delta", function (event) {
    try { follow(JSON.parse(event.data).v); } catch (e) { /* a broken event: the next one comes */ }
  });
  source.addEventListener("reset", function (event) { follow(parseInt(event.data, 10)); });
})();
