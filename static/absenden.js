// Absenden: Space (or →, Enter on the page) shows the next name, ← or Backspace the one
// before. Without JavaScript the buttons do the same.
document.addEventListener('keydown', (event) => {
  if (event.target.closest('input, textarea, select')) return;
  const submit = (id) => {
    const form = document.getElementById(id);
    if (form) { event.preventDefault(); form.submit(); }
  };
  if (event.key === ' ' || event.key === 'ArrowRight' || event.key === 'PageDown') submit('next-form');
  else if (event.key === 'ArrowLeft' || event.key === 'Backspace' || event.key === 'PageUp') submit('back-form');
});
