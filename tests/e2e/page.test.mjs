// The built page, hosted under a deep sub-path, loads quietly, stays on its
// own origin, and shows the scenario picker and a run summary.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DIST, SUB_PATH, launchBrowser, openPage, serveDist } from './support.mjs';

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('dist/index.html refers to its assets by relative URLs only', async () => {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/\b(?:href|src|module_or_path)\s*[:=]\s*["']([^"']+)["']/g)].map((m) => m[1]);
  const imports = [...html.matchAll(/\bfrom\s+["']([^"']+)["']/g)].map((m) => m[1]);
  const all = [...urls, ...imports];
  assert.ok(all.some((u) => u.endsWith('.wasm')), `the wasm is referenced: ${all.join(', ')}`);
  for (const url of all) {
    assert.match(url, /^\.\//, `asset URL ${url} is relative to the page`);
  }
});

test('the page loads from a deep sub-path, quietly, and shows a run summary', async () => {
  const { page, context, problems, requests } = await openPage(browser, server.origin);
  try {
    await page.goto(server.url, { waitUntil: 'load' });

    // The app has mounted once its heading is there (the <noscript> one is inert).
    await page.getByRole('heading', { level: 1, name: 'cachescope' }).waitFor({ timeout: 20_000 });

    const scenario = page.getByRole('combobox', { name: 'Scenario', exact: true });
    await scenario.waitFor({ state: 'visible', timeout: 5_000 });
    assert.ok((await scenario.locator('option').count()) >= 1, 'the Scenario select offers a preset');

    const summary = page.getByRole('region', { name: 'Run summary', exact: true });
    await summary.waitFor({ state: 'visible', timeout: 5_000 });
    const table = summary.getByRole('table');
    assert.equal(await table.count(), 1, 'one live-objects table');
    assert.ok((await table.locator('caption').innerText()).trim().length > 0, 'the table has a caption');
    assert.ok((await table.locator('tbody tr').count()) >= 1, 'the table has a body row');
    assert.equal(await page.getByRole('alert').count(), 0, 'no error is shown');

    // Choosing another preset reruns the summary for it.
    const values = await scenario.locator('option').evaluateAll((os) => os.map((o) => o.value));
    const other = values.at(-1);
    await scenario.selectOption(other);
    await summary.getByText(other, { exact: true }).waitFor({ timeout: 5_000 });
    assert.equal(await page.getByRole('alert').count(), 0, `no error is shown for ${other}`);

    assert.equal(await page.title(), 'cachescope: see what a Kubernetes controller sees');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');

    await page.waitForLoadState('networkidle');

    // The app really came from the sub-path, not from the server's root.
    const wasm = requests.filter((u) => u.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `one wasm request: ${requests.join(', ')}`);
    assert.ok(new URL(wasm[0]).pathname.startsWith(SUB_PATH), `wasm fetched under ${SUB_PATH}: ${wasm[0]}`);

    assert.deepEqual(problems.pageErrors, [], 'no uncaught page errors');
    assert.deepEqual(problems.console, [], 'no console errors or warnings');
    assert.deepEqual(problems.offOrigin, [], 'every request stayed on the page origin');
    assert.deepEqual(problems.failed, [], 'every request succeeded');
  } finally {
    await context.close();
  }
});
