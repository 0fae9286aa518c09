// Shared end-to-end support: a static server for dist/ under a deep sub-path,
// and a headless Chromium (Debian's, driven by playwright-core) whose pages
// record every console message, page error and request, so a test can assert
// the page stayed quiet and stayed on its own origin.

import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * Serves `dist` at `http://127.0.0.1:<ephemeral port><subPath>`, and nothing
 * anywhere else (404), the way a static host would serve a course page.
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
      reply(200, req.method === 'HEAD' ? '' : body, type);
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
  page.on('requestfailed', (req) => problems.failed.push(`${req.failure()?.errorText ?? 'failed'} ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.failed.push(`${res.status()} ${res.url()}`);
  });

  return { page, context, problems, requests };
}
