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
  // The app stopped after it started: a Rust panic (the app's panic hook calls
  // this with its message) or a WebAssembly trap (an uncaught RuntimeError:
  // "unreachable", out of memory). The page says what happened over what it
  // drew, offers to reload at frame 0, and tells an embedding page. The
  // console keeps the panic message (console_error_panic_hook writes it).
  function crashed(what) {
    if (document.getElementById('crashed')) return;
    var url = new URL(window.location.href);
    url.searchParams.set('frame', '0');
    url.searchParams.delete('autoplay');
    var box = document.createElement('div');
    box.id = 'crashed';
    box.className = 'crashed';
    box.setAttribute('role', 'alert');
    var title = document.createElement('p');
    title.className = 'loading-title';
    title.textContent = 'cachescope stopped';
    var why = document.createElement('p');
    why.textContent = 'The simulation hit an error it cannot recover from: ' + what;
    var help = document.createElement('p');
    var reload = document.createElement('a');
    reload.href = url.toString();
    reload.textContent = 'Reload at frame 0';
    help.appendChild(reload);
    help.appendChild(document.createTextNode(' (the same scenario and settings, from the start).'));
    var card = document.createElement('div');
    card.className = 'loading failed';
    card.appendChild(title);
    card.appendChild(why);
    card.appendChild(help);
    box.appendChild(card);
    document.body.appendChild(box);
    reload.focus();
    if (window.parent && window.parent !== window) {
      var only = url.searchParams.get('origin');
      try {
        window.parent.postMessage({ cachescope: 'error', message: String(what) }, only || '*');
      } catch (e) {
        // A malformed origin= cannot be posted to; the page has said what happened.
      }
    }
  }
  window.cachescopeCrashed = function (message) {
    crashed(String(message));
  };
  function isTrap(error) {
    return typeof WebAssembly !== 'undefined' && WebAssembly.RuntimeError && error instanceof WebAssembly.RuntimeError;
  }
  window.addEventListener('error', function (e) {
    if (isTrap(e.error)) crashed(String(e.error) + '.');
  });
  window.addEventListener('unhandledrejection', function (e) {
    if (isTrap(e.reason)) crashed(String(e.reason) + '.');
  });
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
