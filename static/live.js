// Live Rangliste: follow Server-Sent Events without reload or flicker (each event carries the
// change: rows rendered on the server with their new places, ranks to rewrite; the page is
// fetched only when an event does not fit), highlight changed rows, page long lists on the
// beamer, and let a phone jump to its own team.
(function () {
  "use strict";
  var body = document.body;
  var id = body.dataset.tournament;
  var version = parseInt(body.dataset.version, 10);
  var params = new URLSearchParams(location.search);
  var seconds = Math.max(3, parseInt(params.get("sekunden") || "10", 10) || 10);
  var page = 0, pagingTimer = null;
  var mineKey = "jassturnier-mein-team-" + id;
  var mine = null;
  try { mine = window.localStorage.getItem(mineKey); } catch (e) { mine = null; }

  function isBeamer() { return window.matchMedia("(min-width: 1000px)").matches; }

  // What a row shows apart from its rank: a change of it marks the row as updated.
  function content(row) {
    return Array.prototype.slice.call(row.cells, 1).map(function (c) { return c.innerHTML; }).join("|");
  }

  function contents(root) {
    var map = {};
    root.querySelectorAll("table.source tr.row").forEach(function (row) { map[row.id] = content(row); });
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
    fetch(location.pathname + location.search, { headers: { "Accept": "text/html" }, cache: "no-cache" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var got = parseInt(doc.body.dataset.version, 10);
        // The server may answer with the previous version while it renders the new one.
        if (got < wanted) setTimeout(refresh, 500);
        var fresh = doc.getElementById("live-root");
        if (!fresh) return;
        var before = contents(document);
        document.getElementById("live-root").replaceWith(fresh);
        version = got;
        body.dataset.version = String(got);
        fresh.querySelectorAll("table.source tr.row").forEach(function (row) {
          var old = before[row.id];
          if (old !== undefined && old !== content(row)) row.classList.add("changed");
        });
        bindJump();
        fade();
        paginate();
        markMine();
      })
      .catch(function () { /* the next event or the fallback poll tries again */ });
  }

  // Changed rows flash once, not again at every turn of the beamer's pages.
  var fading = null;
  function fade() {
    if (fading) clearTimeout(fading);
    fading = setTimeout(function () {
      document.querySelectorAll("tr.row.changed").forEach(function (r) { r.classList.remove("changed"); });
    }, 3000);
  }

  // The steps of model::apply (src/web/live/model.rs) on the page itself; false when the
  // delta does not fit (then the page is fetched).
  function applyDelta(d) {
    if (d.base !== version || document.getElementById("own")) return false;
    var sections = document.querySelectorAll("#board table.source tbody");
    var i, ok = true;
    d.parts.forEach(function (part) {
      var el = document.getElementById(part[0]);
      if (el) el.innerHTML = part[1]; else ok = false;
    });
    if (!ok) return false;
    d.rows.map(function (r) { return r[0]; }).concat(d.gone).forEach(function (nr) {
      var row = document.getElementById("t-" + nr);
      if (row) row.remove();
    });
    for (i = 0; i < d.rows.length; i++) {
      var r = d.rows[i], section = sections[r[1]];
      if (!section) return false;
      var rows = section.querySelectorAll("tr.row");
      if (r[2] > rows.length) return false;
      var row = document.createElement("tr");
      row.id = "t-" + r[0];
      row.dataset.team = String(r[0]);
      row.className = "row changed";
      row.innerHTML = "<td></td>" + r[4];
      row.cells[0].textContent = r[3];
      section.insertBefore(row, rows[r[2]] || null);
    }
    for (i = 0; i < d.ranks.length; i++) {
      var range = d.ranks[i], ranked = sections[range[0]];
      if (!ranked) return false;
      var all = ranked.querySelectorAll("tr.row");
      if (range[2] > all.length) return false;
      for (var p = range[1]; p < range[2]; p++) {
        all[p].cells[0].textContent = range[3].indexOf(p) >= 0
          ? all[p - 1].cells[0].textContent : (p + 1) + ".";
      }
    }
    version = d.v;
    body.dataset.version = String(d.v);
    fade();
    paginate();
    markMine();
    return true;
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

  if (window.EventSource) {
    var source = new EventSource("/tournaments/" + id + "/live/events?v=" + version);
    source.addEventListener("delta", function (e) {
      var d;
      try { d = JSON.parse(e.data); } catch (err) { d = null; }
      if (!d || d.v <= version) return;
      wanted = d.v;
      if (!applyDelta(d)) refresh();
    });
    source.addEventListener("reset", function (e) {
      wanted = parseInt(e.data, 10);
      if (wanted !== version) refresh();
    });
  } else {
    setInterval(refresh, 15000);
  }
  window.addEventListener("resize", paginate);
  bindJump();
  markMine();
  startPaging();
})();
