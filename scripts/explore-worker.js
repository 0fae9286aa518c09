// The page's "Find a bug" search runs here, off the main thread, in a second
// instance of the page's own wasm (src/ui/find.rs starts this worker; the
// search itself is src/view/find.rs's `serve`).
//
// The page's first message names its wasm-bindgen module and wasm binary
// (content-hashed names Trunk chose, read from the page's preload links, so
// this works from any sub-path). Initialising the module runs the binary's
// `main`, which, finding no window, answers jobs instead of drawing a page
// and says `"ready"`.
self.addEventListener('message', async function boot(event) {
  let urls;
  try {
    urls = JSON.parse(event.data).boot;
  } catch {
    return;
  }
  if (!urls) return;
  self.removeEventListener('message', boot);
  try {
    const glue = await import(urls.glue);
    await glue.default({ module_or_path: urls.wasm });
  } catch (error) {
    self.postMessage(JSON.stringify({ failed: `the search worker could not start: ${error}` }));
  }
});
