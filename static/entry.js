// Entry comfort; every form works without it.
// After a refused entry: the cursor is in the first field with an error, its content
// selected, so the next keystrokes replace it. A conflict or a contradiction is no wrong
// field: the next keystrokes are the next table, so the Tisch field is selected (with the
// cursor in front of the old number, "1" after table 2 made table 12).
(function () {
  var bad = document.querySelector('form [aria-invalid="true"]');
  var resolving = document.querySelector("#entry-form[data-resolving]");
  if (!bad && !resolving && document.querySelector("#conflict, #contradiction")) {
    bad = document.querySelector('form input[name="table"]:not([type="hidden"])');
  }
  // The correction form opens with the stored value selected: typing 962 over 926 gave
  // 962926.
  if (!bad) bad = document.querySelector("#correction-form [autofocus]");
  if (bad) { bad.focus(); if (bad.select) bad.select(); }
})();

// Correction: changing team A's points recomputes team B's as the rest, unless B was typed.
(function () {
  var form = document.getElementById("correction-form");
  if (!form || !form.elements["points_a"] || !form.elements["points_b"]) return;
  var total = parseInt(form.dataset.total, 10);
  if (!(total > 0)) return;
  var a = form.elements["points_a"], b = form.elements["points_b"];
  var typedB = false;
  b.addEventListener("input", function () { typedB = true; });
  a.addEventListener("input", function () {
    if (typedB) return;
    var x = parseInt(a.value.replace(/'/g, ""), 10);
    if (!isNaN(x) && x >= 0 && x <= total) b.value = String(total - x);
  });
})();

// Fast result entry: shows the two teams of the typed table and the other team's points.
(function () {
  var form = document.getElementById("entry-form");
  var data = document.getElementById("tables-data");
  if (!form || !data) return;
  var tables = JSON.parse(data.textContent);
  var total = parseInt(form.dataset.total, 10);
  var table = form.elements["table"], a = form.elements["points_a"], b = form.elements["points_b"];
  var teams = document.getElementById("teams");
  function showTeams() {
    var t = tables[table.value.trim()];
    if (!table.value.trim()) { teams.textContent = ""; return; }
    if (!t) { teams.textContent = "Tisch " + table.value + " gibt es nicht."; return; }
    var note = t.pauschale ? " (Pauschale)" : t.done ? " (bereits erfasst)" : "";
    teams.innerHTML = "";
    var la = document.createElement("div"); la.textContent = "A: " + t.a;
    var lb = document.createElement("div"); lb.textContent = "B: " + t.b + note;
    teams.appendChild(la); teams.appendChild(lb);
  }
  function showRest() {
    var x = parseInt(a.value.replace(/'/g, ""), 10);
    b.placeholder = (!isNaN(x) && x >= 0 && x <= total) ? String(total - x) : "";
  }
  table.addEventListener("input", showTeams);
  a.addEventListener("input", showRest);
  // A Tisch the server refused has its message at the field already: one message, not two.
  if (table.getAttribute("aria-invalid") !== "true") showTeams();
  showRest();
})();
