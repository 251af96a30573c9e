// The tournament form shows the fields of the chosen mode only (the page shows those of the
// mode it was opened with; without the script a change of mode shows them after saving).
(function () {
  var select = document.getElementById("mode");
  if (!select) return;
  function apply() {
    var fields = document.querySelectorAll("[data-modes]");
    for (var i = 0; i < fields.length; i++) {
      var modes = fields[i].getAttribute("data-modes").split(" ");
      fields[i].hidden = modes.indexOf(select.value) < 0;
    }
  }
  select.addEventListener("change", apply);
  apply();
})();
