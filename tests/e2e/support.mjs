// Shared end-to-end support: a static server for dist/ under a deep sub-path,
// and a headless Chromium (Debian's, driven by playwright-core) whose pages
// record every console message, page error and request, so a test can assert
// the page stayed quiet and stayed on its own origin.

import { after, before } from 'node:test';
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';

/**
 * The release build from `make build` (`trunk build --release`), or the
 * directory in `CACHESCOPE_DIST` (e.g. a private `trunk build --dist /tmp/x`).
 */
export const DIST = process.env.CACHESCOPE_DIST
  ? path.resolve(process.env.CACHESCOPE_DIST)
  : fileURLToPath(new URL('../../dist/', import.meta.url));

/** Where the tests host the page: deep, to prove relative URLs work anywhere. */
export const SUB_PATH = '/courses/k8s/cachescope/';

/** Debian's Chromium; override with CHROMIUM=/path/to/chrome. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Flags for Chromium as root on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The Content-Security-Policy docs/embedding.md promises the page runs under:
 * served with every HTML page, so every end-to-end test runs under it.
 */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";

/**
 * Serves `dist` at `http://127.0.0.1:<ephemeral port><subPath>`, and nothing
 * anywhere else (404), the way a static host would serve a course page,
 * with the strict {@link CSP} on every HTML page.
 * `subPath` without its trailing slash redirects to it, as static hosts do.
 *
 * @returns {Promise<{origin: string, url: string, served: string[], close: () => Promise<void>}>}
 *   `served` lists "STATUS PATH" for every request the server answered.
 */
export async function serveDist({ dist = DIST, subPath = SUB_PATH } = {}) {
  const index = path.join(dist, 'index.html');
  try {
    await stat(index);
  } catch {
    throw new Error(`${index} is missing: run \`make build\` first`);
  }
  const root = path.resolve(dist);
  const served = [];

  const server = http.createServer(async (req, res) => {
    const reply = (status, body, type = 'text/plain; charset=utf-8', headers = {}) => {
      served.push(`${status} ${req.url}`);
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
    const { pathname } = new URL(req.url, 'http://placeholder');
    if (pathname === subPath.replace(/\/$/, '')) return reply(301, '', undefined, { location: subPath });
    if (!pathname.startsWith(subPath)) return reply(404, 'not found\n');

    let rel;
    try {
      rel = decodeURIComponent(pathname.slice(subPath.length)) || 'index.html';
    } catch {
      return reply(400, 'bad path\n');
    }
    const file = path.resolve(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) return reply(403, 'forbidden\n');
    try {
      const body = await readFile(file);
      const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
      const headers = type.startsWith('text/html') ? { 'content-security-policy': CSP } : {};
      reply(200, req.method === 'HEAD' ? '' : body, type, headers);
    } catch {
      reply(404, 'not found\n');
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: origin + subPath,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Launches headless Chromium with the flags above. */
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * Opens a page in a fresh context that records what a test wants to assert
 * is empty:
 * - `console`: console messages of type error or warning ("error: text @ url"),
 * - `pageErrors`: uncaught exceptions,
 * - `offOrigin`: URLs of requests to anywhere but `origin` (data: and blob: excepted),
 * - `failed`: requests that failed or answered with a status ≥ 400.
 * `requests` lists every URL the page asked for.
 */
export async function openPage(browser, origin, { width = 1280, height = 800, colorScheme = 'light', reducedMotion = 'no-preference' } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    colorScheme,
    reducedMotion,
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const problems = { console: [], pageErrors: [], offOrigin: [], failed: [] };
  const requests = [];

  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') {
      const where = msg.location()?.url ?? '';
      problems.console.push(`${msg.type()}: ${msg.text()}${where ? ` @ ${where}` : ''}`);
    }
  });
  page.on('pageerror', (err) => problems.pageErrors.push(String(err?.stack ?? err)));
  page.on('request', (req) => {
    const url = req.url();
    requests.push(url);
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) problems.offOrigin.push(url);
  });
  page.on('requestfailed', (req) => {
    const why = req.failure()?.errorText ?? 'failed';
    // Chromium fetches the favicon lazily, after load; a test that navigates
    // away (a reload, about:blank) while it is pending aborts it. That is the
    // browser's bookkeeping, not a file the app failed to serve: a favicon
    // that is missing or refused still counts (a 404 is a response, below).
    if (why === 'net::ERR_ABORTED' && /\/favicon-[0-9a-f]+\.svg$/.test(req.url())) return;
    problems.failed.push(`${why} ${req.url()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.failed.push(`${res.status()} ${res.url()}`);
  });

  return { page, context, problems, requests };
}

// ---------------------------------------------------------------- driving the explorer
// Every helper below acts through accessible names, the keyboard or what a
// learner sees; none reaches into the app's state.

/**
 * Opens `query` (e.g. `?s=over-create&frame=40`) on `url` and waits for the
 * stage to be drawn (its Cluster region and its Frame counter).
 */
export async function openStage(page, url, query = '') {
  await page.goto(url + query, { waitUntil: 'load' });
  await page.getByRole('region', { name: 'Cluster', exact: true }).waitFor({ timeout: 20_000 });
  await frameCounter(page).waitFor({ timeout: 5_000 });
}

/** A labelled region (`<section aria-label="…">`) by its exact name. */
export function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

/** The "Frame N" counter in the Transport region. */
export function frameCounter(page) {
  return region(page, 'Transport').getByText(/^Frame \d+$/);
}

/** The number the "Frame N" counter shows. */
export async function readFrame(page) {
  const text = await frameCounter(page).innerText();
  return Number(text.replace(/^Frame /, ''));
}

/** Waits until the Frame counter shows `n`. */
export async function waitForFrame(page, n, timeout = 5_000) {
  await region(page, 'Transport').getByText(`Frame ${n}`, { exact: true }).waitFor({ timeout });
}

/** True when the page says the run has ended ("End of run"). */
export async function atEndOfRun(page) {
  return (await region(page, 'Transport').getByText('End of run', { exact: true }).count()) > 0;
}

/**
 * Moves the keyboard focus to the page itself (as a click on empty space
 * does), so the explorer's keys (Space, arrows, R, ?) are not taken by a control.
 */
export async function focusPage(page) {
  await page.getByRole('heading', { level: 1, name: 'cachescope' }).click();
}

/** Presses `key` on the page and waits for the Frame counter to show `expected`. */
export async function pressTo(page, key, expected) {
  await page.keyboard.press(key);
  await waitForFrame(page, expected);
}

/**
 * What the page draws at this moment, read in the page in one go (so a step
 * costs one round trip): `null` while the Frame counter does not show
 * `expected` (when given), else
 * `{ frame, end, clock, caption, rows: { Cluster, Cache }, add, del, text }`
 * where each row (or chip, in the dense form) is `{ kind, name, present }`, `add`/`del` are the first
 * Expectations record's counters (null without one), and `text` holds the
 * innerText of the Cluster, Cache, Watch and Expectations regions (an
 * Expectations panel not drawn, for a recipe that keeps none, reads '').
 * Self-contained: Playwright ships it to the page as source.
 */
export function drawnState(expected) {
  const section = (name) => document.querySelector(`section[aria-label="${name}"]`);
  const transport = section('Transport');
  const counter = [...transport.querySelectorAll('span')].find((e) => /^Frame \d+$/.test(e.textContent));
  const frame = Number(counter.textContent.slice('Frame '.length));
  if (expected != null && frame !== expected) return null;
  const rows = (name) =>
    [...section(name).querySelectorAll('li[data-kind]')].map((li) => ({
      kind: li.dataset.kind,
      name: li.querySelector('.name')?.textContent ?? li.title,
      present: li.dataset.present === 'true',
    }));
  const counterOf = (c) => {
    const b = section('Expectations')?.querySelector(`b[data-counter="${c}"]`);
    return b ? Number(b.textContent) : null;
  };
  const text = {};
  for (const name of ['Cluster', 'Cache', 'Watch', 'Expectations']) text[name] = section(name)?.innerText ?? '';
  return {
    frame,
    end: [...transport.querySelectorAll('span')].some((e) => e.textContent === 'End of run'),
    clock: [...transport.querySelectorAll('span')].find((e) => /^t = /.test(e.textContent))?.textContent,
    caption: section('Caption').querySelector('p')?.textContent,
    rows: { Cluster: rows('Cluster'), Cache: rows('Cache') },
    add: counterOf('add'),
    del: counterOf('del'),
    text,
  };
}

/** The page's drawn state once the Frame counter shows `expected` (any frame if omitted). */
export async function readState(page, expected = null, timeout = 5_000) {
  const handle = await page.waitForFunction(drawnState, expected, { timeout });
  return handle.jsonValue();
}

/**
 * Steps forward one frame at a time with the → key (the focus first moved
 * to the page) and calls `visit(state)` at every frame, the current one
 * included, until `done(state)` holds or the page shows "End of run".
 * Returns the last state (see `drawnState`).
 */
export async function stepUntil(page, { done = () => false, visit = () => {}, maxFrames = 5_000 } = {}) {
  await focusPage(page);
  let state = await readState(page);
  for (let i = 0; i <= maxFrames; i++) {
    visit(state);
    if (done(state) || state.end) return state;
    await page.keyboard.press('ArrowRight');
    state = await readState(page, state.frame + 1);
  }
  throw new Error(`stepUntil: no end within ${maxFrames} frames`);
}

/**
 * Plays the run to its end at the top speed: the "Speed" slider is moved to
 * its maximum with the End key, then "Play" pressed until "End of run" shows.
 */
export async function playToEnd(page, timeout = 20_000) {
  const speed = page.getByRole('slider', { name: 'Speed', exact: true });
  await speed.focus();
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await region(page, 'Transport').getByText('End of run', { exact: true }).waitFor({ timeout });
}

/**
 * The objects the Cluster (or Cache) panel draws as present on its side:
 * `[{kind, name}]`, in the panel's order.
 */
export async function presentObjects(page, panel = 'Cluster', kind = undefined) {
  const sel = kind ? `li[data-kind="${kind}"][data-present="true"]` : 'li[data-present="true"]';
  return region(page, panel)
    .locator(sel)
    // A row shows its name in `.name`; a chip (the dense form, past 60 objects) in its tooltip.
    .evaluateAll((lis) => lis.map((li) => ({ kind: li.dataset.kind, name: li.querySelector('.name')?.textContent ?? li.title })));
}

/** Asserts-friendly summary of what the page recorded as problems. */
export function quiet(problems) {
  return { pageErrors: problems.pageErrors, console: problems.console, offOrigin: problems.offOrigin, failed: problems.failed };
}

/** Waits until the Frame counter shows anything but `from`, and returns the new number. */
export async function waitForFrameChange(page, from, timeout = 5_000) {
  await page.waitForFunction(
    (n) => {
      const spans = document.querySelectorAll('section[aria-label="Transport"] span');
      const counter = [...spans].find((e) => /^Frame \d+$/.test(e.textContent));
      return counter && counter.textContent !== `Frame ${n}`;
    },
    from,
    { timeout },
  );
  return readFrame(page);
}

/** What a page that went well recorded: nothing (compare with `quiet(problems)`). */
export const NO_PROBLEMS = { pageErrors: [], console: [], offOrigin: [], failed: [] };

/**
 * Serves dist/ and launches Chromium before a test file's tests, and closes
 * both after them. Returns the object whose `server` and `browser` the tests use.
 */
export function withServerAndBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await serveDist();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

const AXE = await readFile(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

/** axe-core's serious and critical violations on the page as it is. */
export async function axeProblems(page, { settle = true } = {}) {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  // Rows move in: measure as the reader sees them once they have, unless the
  // test means to catch them mid-way (`settle: false`).
  if (settle) await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
}


/** Opens "More settings" (every setting of the table the lesson does not show), if it is not open. */
export async function openMoreSettings(page) {
  const more = page.locator('details.more-settings');
  if (!(await more.evaluate((d) => d.open))) await more.locator('summary').click();
}

/**
 * Choose `value` in the <select> `menu` with the arrow keys, as a keyboard
 * user does (a form just opened takes the focus to its first control once
 * drawn: that is let happen first).
 */
export async function choose(page, menu, value) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await menu.focus();
  const options = await menu.locator('option').evaluateAll((os) => os.map((o) => o.value));
  const want = options.indexOf(String(value));
  if (want < 0) throw new Error(`${value} is not offered: ${options}`);
  for (let i = 0; i < options.length && (await menu.inputValue()) !== String(value); i++) {
    await page.keyboard.press(options.indexOf(await menu.inputValue()) < want ? 'ArrowDown' : 'ArrowUp');
  }
  if ((await menu.inputValue()) !== String(value)) throw new Error(`the menu shows ${await menu.inputValue()}, not ${value}`);
}

/**
 * Make a lesson step's change of the recipe (`{"controller.recipe.steps[2].label_owner.remove": "on_observed_delete"}`)
 * as a learner does, by keyboard: the lesson's "Open Your controller", the
 * step's form (or "Owner, child and expectations" for the recipe's own fields), the
 * field's menu, Run.
 */
export async function makeRecipeChange(page, set) {
  await page.getByRole('region', { name: 'Lesson', exact: true }).getByRole('button', { name: 'Open Your controller', exact: true }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Your controller' });
  await dialog.waitFor();
  const stepName = (s) => (typeof s === 'string' ? s : Object.keys(s)[0]);
  for (const [path, value] of Object.entries(set)) {
    if (Array.isArray(value)) {
      // A step list: each step it has that the recipe lacks, added with Add a step (it goes where it can act).
      const want = value.map(stepName);
      for (let guard = 0; guard < want.length; guard++) {
        const have = JSON.parse(await dialog.getByLabel('Recipe (JSON)').inputValue()).steps.map(stepName);
        const i = want.findIndex((n, k) => have[k] !== n);
        if (i < 0) break;
        await choose(page, dialog.getByLabel('Add a step'), want[i]);
        await dialog.getByRole('button', { name: 'Add the step', exact: true }).focus();
        await page.keyboard.press('Enter');
      }
      continue;
    }
    const step = path.match(/^controller\.recipe\.steps[.[](\d+)\]?\.\w+\.(\w+)$/);
    const own = path.match(/^controller\.recipe\.(\w+)$/);
    const [opener, id] = step
      ? [`Edit step ${Number(step[1]) + 1}`, `step-${step[1]}-${step[2]}`]
      : [`Owner, child and expectations`, `recipe-${own[1]}`];
    const open = dialog.getByRole('button', { name: opener, exact: true });
    if ((await open.getAttribute('aria-expanded')) !== 'true') {
      await open.focus();
      await page.keyboard.press('Enter');
      // The form takes the focus once drawn: wait for it, or it takes it back from the menu below.
      await page.waitForFunction(() => document.activeElement?.closest('#step-form'));
    }
    await choose(page, dialog.locator(`#${id}`), value);
  }
  await dialog.getByRole('status').filter({ hasText: /^Valid/ }).waitFor();
  await dialog.getByRole('button', { name: 'Run', exact: true }).focus();
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
}

/** A scenario packed as the page's Share packs it (`z=`): raw deflate, base64url. */
export const pack = (doc) => deflateRawSync(Buffer.from(JSON.stringify(doc)), { level: 9 }).toString('base64url');

/**
 * The largest scenario the page accepts (src/scenario/limits.rs's
 * LARGEST_ACCEPTED): two Ensembles of 999 ConfigMaps, 2,000 objects,
 * enqueued twice and resynced every second, for a day. Within the budget as
 * it runs, it stops at its frame limit, 60,000 frames. (With generated names
 * it over-creates past 2,000 objects and stops there: tests/limits.rs.)
 */
export const LARGEST_ACCEPTED = {
  name: 'biggest',
  until_ms: 86400000,
  controller: { kind: 'ensemble', double_enqueue: true, delete_surplus: true, workers: 8 },
  cluster: { watch_lag_ms: 2000, client_qps: 0, resync_ms: 1000 },
  objects: [{ kind: 'Ensemble', name: 'e-{i}', voices: 999, count: 2 }],
};
