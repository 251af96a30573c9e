// Live Rangliste: refresh on Server-Sent Events without reload or flicker, highlight changed
// rows, page long lists on the beamer, and let a phone jump to its own team.
(function () {
  "use strict";
  var body = document.body;
  var id = body.dataset.tournament;
  var version = body.dataset.version;
  var params = new URLSearchParams(location.search);
  var seconds = Math.max(3, parseInt(params.get("sekunden") || "10", 10) || 10);
  var page = 0, pagingTimer = null;
  var mineKey = "jassturnier-mein-team-" + id;
  var mine = null;
  try { mine = window.localStorage.getItem(mineKey); } catch (e) { mine = null; }

  function isBeamer() { return window.matchMedia("(min-width: 1000px)").matches; }

  function signatures(root) {
    var map = {};
    root.querySelectorAll("[data-team][data-sig]").forEach(function (el) { map[el.tagName + el.dataset.team] = el.dataset.sig; });
    return map;
  }

  // Beamer: the rows of one page in as many columns as the screen's width allows (each
  // column as wide as the Passen shown plus room for a name), so a big field needs few
  // pages. Phones: the plain list.
  function paginate() {
    var board = document.getElementById("board");
    var source = board && board.querySelector("table.source");
    var indicator = document.getElementById("page-indicator");
    var old = document.getElementById("board-columns");
    if (old) old.remove();
    if (!source) return;
    var rows = Array.prototype.slice.call(source.querySelectorAll("tr.row"));
    if (!isBeamer() || rows.length === 0) {
      board.classList.remove("paged");
      if (indicator) indicator.textContent = "";
      return;
    }
    board.classList.remove("paged");
    var rowHeight = rows[0].getBoundingClientRect().height || 1;
    var fontPx = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    var passen = source.querySelectorAll("thead th.passe").length;
    // The fixed columns as in live.css (rank, Passen, total, status) and room for a name.
    var columnEm = 3 + passen * 3.7 + 4.6 + 1.6 + 13;
    var width = board.getBoundingClientRect().width;
    var columns = Math.max(1, Math.min(4, Math.floor((width + fontPx) / ((columnEm + 1.2) * fontPx))));
    var foot = document.querySelector(".live-foot");
    var legend = document.getElementById("legend");
    var available = window.innerHeight - board.getBoundingClientRect().top
      - (foot ? foot.offsetHeight : 0) - (legend ? legend.offsetHeight : 0) - rowHeight * 1.6;
    var perColumn = Math.max(1, Math.floor(available / rowHeight) - 1);
    var perPage = perColumn * columns;
    var pages = Math.ceil(rows.length / perPage);
    if (page >= pages) page = 0;
    var container = document.createElement("div");
    container.id = "board-columns";
    container.className = "columns";
    var head = source.querySelector("thead");
    var span = head.querySelectorAll("th").length;
    for (var c = 0; c < columns; c++) {
      var start = page * perPage + c * perColumn;
      var slice = rows.slice(start, start + perColumn);
      if (slice.length === 0) break;
      var table = document.createElement("table");
      table.className = "live-table column";
      table.appendChild(head.cloneNode(true));
      var body = document.createElement("tbody");
      var section = null;
      slice.forEach(function (row, i) {
        var heading = row.parentNode.querySelector("tr.section-row");
        if (heading && row.parentNode !== section) {
          var h = heading.cloneNode(true);
          h.querySelector("th").colSpan = span;
          body.appendChild(h);
        }
        section = row.parentNode;
        var copy = row.cloneNode(true);
        copy.removeAttribute("id");
        body.appendChild(copy);
      });
      table.appendChild(body);
      container.appendChild(table);
    }
    board.appendChild(container);
    board.classList.add("paged");
    board.dataset.columns = String(columns);
    board.dataset.pages = String(pages);
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
    if (mine && !form.elements.nr.value) form.elements.nr.value = mine;
    form.addEventListener("submit", function (e) {
      var nr = (form.elements.nr.value || "").trim();
      if (!nr || !document.getElementById("t-" + nr)) return;
      e.preventDefault();
      mine = nr;
      try { window.localStorage.setItem(mineKey, nr); } catch (err) { /* private mode */ }
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
  markMine();
  startPaging();
})();
