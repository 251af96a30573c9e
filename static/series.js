// The series standings follow new results without a reload: every few seconds the table is
// asked for with the version shown; the server answers 204 while nothing changed.
(function () {
  "use strict";
  function poll() {
    var box = document.getElementById("series-standings");
    if (!box) return;
    var url = "/serien/" + box.dataset.series + "/tabelle?v=" + encodeURIComponent(box.dataset.version) +
      (box.dataset.official ? "&offiziell=1" : "");
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.status === 200 ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#series-standings");
        if (fresh) box.replaceWith(fresh);
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .finally(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 3000);
})();
