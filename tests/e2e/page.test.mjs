// The built page, hosted under a deep sub-path, loads quietly, stays on its
// own origin, draws every panel as a named region, and answers a bad URL with
// a banner that names the parameter and its value, over a page that still opens.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`
// (CACHESCOPE_DIST=/tmp/dist-x tests another build than dist/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CSP,
  DIST,
  NO_PROBLEMS,
  SUB_PATH,
  openStage,
  openPage,
  quiet,
  readFrame,
  region,
  withServerAndBrowser,
} from './support.mjs';

const env = withServerAndBrowser();


/** The regions the issue names, and the ones the page adds around them. */
const REGIONS = ['Cluster', 'Watch', 'Cache', 'Expectations', 'Workqueue', 'Reconcile', 'Observations', 'Timeline'];
const MORE_REGIONS = ['Controls', 'Caption', 'Transport', 'Invariants'];

test('dist/index.html refers to its assets by relative URLs only', async () => {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/\b(?:href|src|module_or_path)\s*[:=]\s*["']([^"']+)["']/g)].map((m) => m[1]);
  const imports = [...html.matchAll(/\bfrom\s+["']([^"']+)["']/g)].map((m) => m[1]);
  // The start-up module (moved out of index.html for the CSP) names the rest.
  const starts = urls.filter((u) => /^\.\/start-[0-9a-f]+\.js$/.test(u));
  assert.equal(starts.length, 1, `one start-up module: ${urls.join(', ')}`);
  const start = await readFile(path.join(DIST, starts[0]), 'utf8');
  const fromStart = [...start.matchAll(/\b(?:from\s+|module_or_path\s*:\s*)["']([^"']+)["']/g)].map((m) => m[1]);
  assert.ok(fromStart.some((u) => u.endsWith('.wasm')) && fromStart.some((u) => u.endsWith('.js')), `it loads the app: ${fromStart.join(', ')}`);
  const all = [...urls, ...imports, ...fromStart];
  assert.ok(all.some((u) => u.endsWith('.wasm')), `the wasm is referenced: ${all.join(', ')}`);
  for (const url of all) {
    assert.match(url, /^\.\//, `asset URL ${url} is relative to the page`);
  }
});

test('the stylesheet ships without its comments, every rule kept, and its link names it by hash and integrity', async () => {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  const links = [...html.matchAll(/<link rel="stylesheet" href="\.\/(main-([0-9a-f]{16})\.css)" integrity="sha384-([^"]+)"\/>/g)];
  assert.equal(links.length, 1, 'one stylesheet link');
  const [, file, hash, sri] = links[0];
  const shipped = await readFile(path.join(DIST, file));
  assert.equal(createHash('sha384').update(shipped).digest('base64'), sri, 'the integrity hash is that of the shipped file');
  assert.equal(createHash('sha256').update(shipped).digest('hex').slice(0, 16), hash, 'the name hashes the shipped content');
  const css = shipped.toString('utf8');
  const source = await readFile(new URL('../../style/main.css', import.meta.url), 'utf8');
  assert.ok(source.includes('/*'), 'style/main.css explains itself in comments');
  assert.ok(!css.includes('/*') && !css.includes('*/'), 'no comment is shipped');
  // Every rule is kept: the same text as the source's once its comments are gone.
  const squash = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').trim();
  assert.equal(squash(css), squash(source), 'the rules are those of the source, comments aside');
  assert.ok(css.length < source.length * 0.8, `${css.length} bytes shipped of ${source.length}`);
});

test('the page loads from a deep sub-path, quietly, and draws every panel as a named region', async () => {
  const { page, context, problems, requests } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url);
    await page.getByRole('heading', { level: 1, name: 'cachescope' }).waitFor();

    for (const name of [...REGIONS, ...MORE_REGIONS]) {
      assert.equal(await region(page, name).count(), 1, `one region named ${name}`);
      assert.ok(await region(page, name).isVisible(), `${name} is visible`);
    }
    // The bare URL opens the default preset at frame 0, with its objects drawn.
    const scenario = page.getByRole('combobox', { name: 'Scenario', exact: true });
    assert.equal(await scenario.inputValue(), 'over-create');
    assert.ok((await scenario.locator('option').count()) >= 3, 'the Scenario select offers the presets');
    assert.equal(await region(page, 'Transport').getByText(/^Frame \d+$/).innerText(), 'Frame 0');
    assert.equal(await page.getByRole('alert').count(), 0, 'no error is shown');

    assert.equal(await page.title(), 'cachescope: see what a Kubernetes controller sees');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');

    await page.waitForLoadState('networkidle');

    // The app really came from the sub-path, not from the server's root.
    const wasm = requests.filter((u) => u.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `one wasm request: ${requests.join(', ')}`);
    assert.ok(new URL(wasm[0]).pathname.startsWith(SUB_PATH), `wasm fetched under ${SUB_PATH}: ${wasm[0]}`);
    for (const url of requests) {
      assert.ok(new URL(url).pathname.startsWith(SUB_PATH), `every request stays under ${SUB_PATH}: ${url}`);
    }

    assert.deepEqual(quiet(problems), NO_PROBLEMS, 'no errors, no warnings, no request off the origin');
  } finally {
    await context.close();
  }
});

test('choosing another preset redraws the panels for it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url);
    const scenario = page.getByRole('combobox', { name: 'Scenario', exact: true });
    await scenario.selectOption('empty-cache');
    // empty-cache starts with fifty seed ConfigMaps in the cluster.
    await region(page, 'Cluster').locator('li[data-kind="ConfigMap"][data-present="true"]').nth(49).waitFor();
    assert.equal(await region(page, 'Cluster').locator('li[data-kind="ConfigMap"][data-present="true"]').count(), 50);
    assert.match(page.url(), /[?&]s=empty-cache(&|$)/, 'the URL follows the choice');
    await scenario.selectOption('replicaset-pressure');
    await page.getByRole('spinbutton', { name: 'Replicas', exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete a pod', exact: true }).count(), 1);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the page runs under the strict Content-Security-Policy: no inline script, no violation, no other origin', async () => {
  const { page, context, problems, requests } = await openPage(env.browser, env.server.origin);
  try {
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(env.server.url + '?s=over-create&controller.naming=generate', { waitUntil: 'load' });
    assert.equal(response.headers()['content-security-policy'], CSP, 'served with the policy');
    await region(page, 'Cluster').waitFor({ timeout: 20_000 });
    // The page's own copy of the policy, for hosts that send none.
    assert.equal(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'), CSP);
    assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script');
    // Play a while: every panel draws, styles move, nothing is refused.
    await page.keyboard.press('Space');
    await page.waitForTimeout(800);
    await page.keyboard.press('Space');
    assert.ok((await readFrame(page)) > 0, 'it played');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'no CSP violation');
    for (const url of requests) assert.equal(new URL(url).origin, env.server.origin, `same origin: ${url}`);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

// Each kind of bad parameter: the banner names it and its value, and the page
// opens with the valid parameters applied (the scenario chosen, the frame).
for (const [kind, query, param, value, scenario, frame] of [
  ['unknown preset', '?s=nope&frame=3', 'URL parameter s', '"nope"', 'over-create', 3],
  ['wrong type', '?s=empty-cache&cluster.watch_lag_ms=abc&frame=5', 'cluster.watch_lag_ms', 'abc', 'empty-cache', 5],
  ['out of range', '?s=empty-cache&cluster.watch_lag_ms=9999999', 'cluster.watch_lag_ms', '9999999', 'empty-cache', 0],
  ['not a number', '?s=read-your-write&frame=ten', 'URL parameter frame', '"ten"', 'read-your-write', 0],
  ['unknown name', '?s=teardown&colour=red&frame=2', 'URL parameter colour', '"red"', 'teardown', 2],
  ['frame past the end', '?s=read-your-write&frame=5000', 'URL parameter frame', '5000', 'read-your-write', 'last'],
  ['broken scenario', '?scenario=%7B%22name%22%3A%22x%22%2C%22controler%22%3A%7B%7D%7D', 'URL parameter scenario', 'controler', 'over-create', 0],
]) {
  test(`a bad URL parameter (${kind}: ${query}) shows a banner naming ${param} and ${value}; the rest still loads`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.origin);
    try {
      await page.goto(env.server.url + query, { waitUntil: 'load' });
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: 20_000 });
      assert.equal(await alert.count(), 1, 'one banner');
      const said = await alert.innerText();
      assert.ok(said.includes(param), `the banner names ${param}: ${said}`);
      assert.ok(said.includes(value), `the banner quotes the value ${value}: ${said}`);
      // The explorer is behind it, with the valid parameters applied.
      await region(page, 'Cluster').waitFor();
      assert.equal(await page.getByRole('combobox', { name: 'Scenario', exact: true }).inputValue(), scenario);
      if (frame === 'last') {
        assert.ok((await readFrame(page)) > 0, 'the last frame is shown');
        assert.ok(said.includes('past the end'), said);
      } else {
        assert.equal(await readFrame(page), frame, 'the frame asked for');
      }
      await page.getByRole('button', { name: 'Dismiss', exact: true }).click();
      assert.equal(await page.getByRole('alert').count(), 0, 'dismissed');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(quiet(problems), NO_PROBLEMS, 'no panic, no console error');
    } finally {
      await context.close();
    }
  });
}
