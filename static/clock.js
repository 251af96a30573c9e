// Jassmarathon: every clock on the page ([data-ends-at], the live page's and the office's)
// counts down to the gong from the moment the server named; the page works without it.
(function () {
  setInterval(function () {
    var clocks = document.querySelectorAll("[data-ends-at]");
    for (var i = 0; i < clocks.length; i++) {
      var shown = clocks[i].querySelector("[data-remaining]");
      if (!shown) continue;
      var left = Math.round((parseInt(clocks[i].dataset.endsAt, 10) - Date.now()) / 1000);
      if (left <= 0) { shown.textContent = "Gong"; continue; }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      var mm = h > 0 ? (m < 10 ? "0" + m : m) : m;
      shown.textContent = (h > 0 ? h + ":" : "") + mm + ":" + (s < 10 ? "0" + s : s);
    }
  }, 1000);
})();
