/* Ludis: a stand-in for localStorage when the browser refuses it to this framed page (see
   dev/images/jupyterlab/setup.sh). It lives as long as the page; nothing else changes. */
(function () {
  try {
    window.localStorage.getItem('ludis');
    return;
  } catch (e) {
    /* refused: use the stand-in below */
  }
  var items = Object.create(null);
  var storage = {
    getItem: function (k) { return k in items ? items[k] : null; },
    setItem: function (k, v) { items[k] = String(v); },
    removeItem: function (k) { delete items[k]; },
    clear: function () { items = Object.create(null); },
    key: function (i) { var keys = Object.keys(items); return i < keys.length ? keys[i] : null; },
    get length() { return Object.keys(items).length; }
  };
  Object.defineProperty(window, 'localStorage', { value: storage, configurable: true });
})();
