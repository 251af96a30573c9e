// Live Rangliste: refresh on Server-Sent Events without reload or flicker, highlight changed
// rows, page long lists on the beamer, and let a phone jump to its own team.
(function () {
  "use strict";
  var body = document.body;
  var id = body.dataset.tournament;
  var version = body.dataset.version;
  var params = new URLSearchParams(location.search);
  var seconds = Math.max(3, parseInt(params.get("sekunden") || "10", 10) || 10);
  var page = 0, pagingTimer = null, mine = null;

  function isBeamer() { return window.matchMedia("(min-width: 1000px)").matches; }

  function signatures(root) {
    var map = {};
    root.querySelectorAll("[data-team][data-sig]").forEach(function (el) { map[el.tagName + el.dataset.team] = el.dataset.sig; });
    return map;
  }

  function paginate() {
    var rows = Array.prototype.slice.call(document.querySelectorAll("#board tr.row"));
    rows.forEach(function (r) { r.classList.remove("hidden"); });
    document.querySelectorAll("#board tr.section-row").forEach(function (r) { r.classList.remove("hidden"); });
    var indicator = document.getElementById("page-indicator");
    if (!isBeamer() || rows.length === 0) { if (indicator) indicator.textContent = ""; return; }
    var board = document.getElementById("board");
    var foot = document.querySelector(".live-foot");
    var available = window.innerHeight - board.getBoundingClientRect().top - (foot ? foot.offsetHeight : 0) - rows[0].offsetHeight * 1.5;
    var sectionRows = document.querySelectorAll("#board tr.section-row").length;
    var perPage = Math.max(1, Math.floor(available / rows[0].offsetHeight) - sectionRows);
    var pages = Math.ceil(rows.length / perPage);
    if (page >= pages) page = 0;
    rows.forEach(function (r, i) { if (Math.floor(i / perPage) !== page) r.classList.add("hidden"); });
    // A section heading shows only with rows of its section on this page.
    document.querySelectorAll("#board tbody").forEach(function (section) {
      var heading = section.querySelector("tr.section-row");
      if (!heading) return;
      var visible = section.querySelectorAll("tr.row:not(.hidden)").length > 0;
      heading.classList.toggle("hidden", !visible);
    });
    if (indicator) indicator.textContent = pages > 1 ? "Seite " + (page + 1) + " / " + pages : "";
  }

  function startPaging() {
    if (pagingTimer) clearInterval(pagingTimer);
    pagingTimer = setInterval(function () { page += 1; paginate(); }, seconds * 1000);
    paginate();
  }

  function markMine() {
    document.querySelectorAll(".row.mine").forEach(function (r) { r.classList.remove("mine"); });
    if (!mine) return;
    var row = document.getElementById("t-" + mine);
    if (row) { row.classList.add("mine"); if (!isBeamer()) row.scrollIntoView({ block: "center" }); }
  }

  var wanted = 0;
  function refresh() {
    fetch(location.pathname, { headers: { "Accept": "text/html" }, cache: "no-cache" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        // The server may answer with the previous version while it renders the new one.
        if (parseInt(doc.body.dataset.version, 10) < wanted) setTimeout(refresh, 500);
        var fresh = doc.getElementById("live-root");
        if (!fresh) return;
        var before = signatures(document);
        document.getElementById("live-root").replaceWith(fresh);
        version = doc.body.dataset.version;
        fresh.querySelectorAll("[data-team][data-sig]").forEach(function (el) {
          var old = before[el.tagName + el.dataset.team];
          if (old !== undefined && old !== el.dataset.sig) el.classList.add("changed");
        });
        bindJump();
        paginate();
        markMine();
      })
      .catch(function () { /* the next event or the fallback poll tries again */ });
  }

  function bindJump() {
    var form = document.getElementById("jump");
    if (!form) return;
    form.addEventListener("submit", function (e) {
      var nr = (form.elements.nr.value || "").trim();
      if (!nr || !document.getElementById("t-" + nr)) return;
      e.preventDefault();
      mine = nr;
      markMine();
    });
  }

  // Jassmarathon: count down to the gong from the moment the server named.
  setInterval(function () {
    var clock = document.getElementById("live-clock");
    var shown = document.getElementById("live-remaining");
    if (!clock || !shown || !clock.dataset.endsAt) return;
    var left = Math.round((parseInt(clock.dataset.endsAt, 10) - Date.now()) / 1000);
    if (left <= 0) { shown.textContent = "Gong"; return; }
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    var mm = h > 0 ? (m < 10 ? "0" + m : m) : m;
    shown.textContent = (h > 0 ? h + ":" : "") + mm + ":" + (s < 10 ? "0" + s : s);
  }, 1000);

  if (window.EventSource) {
    var source = new EventSource("/tournaments/" + id + "/live/events");
    source.addEventListener("version", function (e) {
      wanted = parseInt(e.data, 10);
      if (e.data !== version) refresh();
    });
  } else {
    setInterval(refresh, 15000);
  }
  window.addEventListener("resize", paginate);
  bindJump();
  startPaging();
})();
