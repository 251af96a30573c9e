// Registration by keyboard: typing a player's name suggests persons of the register
// (↓/↑ choose, Enter takes, Esc closes). Taking one fills the player (an Einzelschieber
// player: Name and Vorname) and, where still empty, Verein and Ort. Without JavaScript the
// form is the same, without suggestions.
(function () {
  var form = document.querySelector('form[data-suggest-url]');
  if (!form) return;
  var url = form.getAttribute('data-suggest-url');
  var single = form.getAttribute('data-suggest') === 'player';
  var fields = single ? ['player1'] : ['player1', 'player2'];
  var fill = function (id, value, always) {
    var el = document.getElementById(id);
    if (el && (always || !el.value.trim())) el.value = value;
  };
  fields.forEach(function (id) {
    var input = document.getElementById(id);
    if (!input) return;
    input.setAttribute('autocomplete', 'off');
    input.setAttribute('aria-autocomplete', 'list');
    var list = document.createElement('ul');
    list.className = 'suggestions';
    list.id = id + '-suggestions';
    list.setAttribute('role', 'listbox');
    list.hidden = true;
    input.setAttribute('aria-controls', list.id);
    input.parentNode.appendChild(list);
    var items = [], active = -1, asked = 0;
    var close = function () { list.hidden = true; items = []; active = -1; list.innerHTML = ''; };
    var show = function () {
      Array.prototype.forEach.call(list.children, function (li, i) {
        li.setAttribute('aria-selected', i === active ? 'true' : 'false');
      });
    };
    var take = function (p) {
      if (single) { fill('player1', p.name, true); fill('player2', p.vorname, true); }
      else { input.value = p.text; }
      fill('club', p.verein, false);
      fill('place', p.ort, false);
      close();
    };
    input.addEventListener('input', function () {
      var q = input.value.trim();
      var mine = ++asked;
      if (q.length < 2) { close(); return; }
      fetch(url + '?q=' + encodeURIComponent(q), { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.json() : []; })
        .then(function (found) {
          if (mine !== asked) return;
          close();
          items = found;
          found.forEach(function (p, i) {
            var li = document.createElement('li');
            li.setAttribute('role', 'option');
            li.id = id + '-option-' + i;
            li.textContent = p.label;
            li.addEventListener('mousedown', function (e) { e.preventDefault(); take(p); });
            list.appendChild(li);
          });
          list.hidden = found.length === 0;
        })
        .catch(close);
    });
    input.addEventListener('keydown', function (e) {
      if (list.hidden) return;
      if (e.key === 'ArrowDown') { e.preventDefault(); active = Math.min(active + 1, items.length - 1); show(); }
      else if (e.key === 'ArrowUp') { e.preventDefault(); active = Math.max(active - 1, 0); show(); }
      else if (e.key === 'Enter' && active >= 0) { e.preventDefault(); take(items[active]); }
      else if (e.key === 'Escape') { close(); }
    });
    input.addEventListener('blur', function () { setTimeout(close, 150); });
  });
})();
