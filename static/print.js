// "Drucken" links: the browser's print dialog (no inline handlers, so the page's
// Content-Security-Policy can forbid inline scripts).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("[data-print]");
  if (!link) return;
  event.preventDefault();
  window.print();
});

// Destructive actions ask first: a form with data-confirm="Frage" submits only after yes.
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form && form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
