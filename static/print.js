// "Drucken" links: the browser's print dialog (no inline handlers, so the page's
// Content-Security-Policy can forbid inline scripts).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("[data-print]");
  if (!link) return;
  event.preventDefault();
  window.print();
});
