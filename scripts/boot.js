// cachescope's boot watcher: index.html shows "Loading…" until the app mounts
// and removes it. If the app cannot start (its JavaScript or WebAssembly did
// not load, or the browser refused to compile it), this replaces the message
// with what happened, instead of leaving a blank page. A plain script, served
// as a file (the page's Content-Security-Policy forbids inline scripts), that
// runs before the app's module.
(function () {
  'use strict';
  function fail(what) {
    var el = document.getElementById('loading');
    if (!el || el.getAttribute('data-failed')) return;
    el.setAttribute('data-failed', 'true');
    el.setAttribute('role', 'alert');
    el.className = 'loading failed';
    el.textContent = '';
    var title = document.createElement('p');
    title.className = 'loading-title';
    title.textContent = 'cachescope could not start';
    var why = document.createElement('p');
    why.textContent = what;
    var help = document.createElement('p');
    help.textContent =
      'Reload the page to try again. If it keeps failing, the site may not be serving the app\u2019s .wasm file, ' +
      'or not as application/wasm.';
    el.appendChild(title);
    el.appendChild(why);
    el.appendChild(help);
  }
  // Called by the start-up module (scripts/externalize-start.mjs wraps it) when init fails.
  window.cachescopeBootFailed = function (error) {
    fail('The WebAssembly module did not load: ' + (error && error.message ? error.message : String(error)) + '.');
  };
  // A script or stylesheet that did not load (errors on elements do not bubble: capture them).
  window.addEventListener(
    'error',
    function (e) {
      var t = e.target;
      if (t && t !== window && (t.tagName === 'SCRIPT' || t.tagName === 'LINK') && document.getElementById('loading')) {
        fail('A file of the app did not load: ' + (t.src || t.href) + '.');
      }
    },
    true
  );
})();
