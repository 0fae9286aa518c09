// Links, sharing and files, as a course author uses them: a link restores its
// exact frame; a change survives a reload; "Share" and "Embed" copy what they
// promise; a scenario file imported (by the picker or by dropping it) runs, and
// its exported trace is byte for byte what `cachescope trace` prints; "About
// this run" shows the trace hash `cachescope run` prints.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  NO_PROBLEMS,
  openStage,
  openPage,
  playToEnd,
  presentObjects,
  quiet,
  readFrame,
  region,
  waitForFrame,
  withServerAndBrowser,
  openMoreSettings,
} from './support.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TMP = mkdtempSync(path.join(tmpdir(), 'cachescope-e2e-'));

const env = withServerAndBrowser();

/** Opens the share bar's Export menu (a disclosure), where the three exports are. */
async function openExportMenu(page) {
  const menu = page.locator('section[aria-label="Share and export"] details.menu');
  if (!(await menu.evaluate((d) => d.open))) await menu.getByText('Export', { exact: true }).click();
}

/** The native runner, built by cargo if it is not yet. */
function runner(...args) {
  return execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh page with clipboard access, as a browser grants it to a page the user is on. */
async function openWithClipboard() {
  const opened = await openPage(env.browser, env.server.origin);
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
  return opened;
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

test('a link with settings and a frame opens that exact frame; a change survives a reload', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url, '?s=over-create&controller.naming=generate&cluster.watch_lag_ms=2000&frame=23');
    assert.equal(await readFrame(page), 23);
    assert.equal(await page.getByRole('radio', { name: 'GenerateName', exact: true }).isChecked(), true);
    // Frame 23 of this run: eight ConfigMaps created, none in the cache yet.
    const cms = (await presentObjects(page, 'Cluster', 'ConfigMap')).map((o) => o.name);
    assert.equal(cms.length, 8, cms.join(', '));
    assert.ok(cms.every((n) => /^beta-voice-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(n)), cms.join(', '));
    assert.equal((await presentObjects(page, 'Cache', 'ConfigMap')).length, 0);

    // Change a setting here, reload: the setting, the change's frame and the position are kept.
    const historyBefore = await page.evaluate(() => history.length);
    // Delete surplus is not over-create's lesson: it waits under More settings, named by its path.
    await openMoreSettings(page);
    await page.getByRole('checkbox', { name: 'controller.delete_surplus', exact: true }).check();
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForFrame(page, 24);
    await page.waitForFunction(() => /[?&]frame=24(&|$)/.test(location.search));
    assert.equal(await page.evaluate(() => history.length), historyBefore, 'the URL is replaced, not pushed: no history spam');
    await page.reload({ waitUntil: 'load' });
    await region(page, 'Cluster').waitFor();
    assert.equal(await readFrame(page), 24, 'the frame is kept');
    await openMoreSettings(page);
    assert.equal(await page.getByRole('checkbox', { name: 'controller.delete_surplus', exact: true }).isChecked(), true, 'the setting is kept');
    assert.equal(await page.getByRole('radio', { name: 'GenerateName', exact: true }).isChecked(), true);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('"Share" copies a link that reopens the same moment; "Embed" copies an iframe snippet of it', async () => {
  const { page, context, problems } = await openWithClipboard();
  try {
    await openStage(page, env.server.url, '?s=empty-cache&frame=30');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
    const link = await clipboard(page);
    assert.ok(link.startsWith(env.server.url), `an absolute link to this page: ${link}`);
    assert.match(link, /[?&]s=empty-cache(&|$)/);
    assert.match(link, /[?&]frame=30(&|$)/);

    await page.getByRole('button', { name: 'Embed', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Embed snippet copied' }).waitFor();
    const snippet = await clipboard(page);
    const m = snippet.match(/^<iframe src="([^"]+)" width="800" height="500" title="cachescope: empty-cache"[^>]*><\/iframe>$/);
    assert.ok(m, `an iframe with a title: ${snippet}`);
    const src = m[1].replaceAll('&amp;', '&');
    assert.match(src, /[?&]embed=1(&|$)/);

    // The snippet's src opens the compact layout at the same frame.
    const other = await openPage(env.browser, env.server.origin, { width: 800, height: 500 });
    try {
      await other.page.goto(src, { waitUntil: 'load' });
      await region(other.page, 'Cluster').waitFor({ timeout: 20_000 });
      assert.equal(await readFrame(other.page), 30);
      // No page header in an embed: one heading, for assistive technology, naming the scenario.
      assert.equal(await other.page.getByRole('button', { name: 'Share', exact: true }).count(), 0, 'no page header in an embed');
      assert.equal(await other.page.getByRole('heading', { level: 1, name: 'cachescope: empty-cache' }).count(), 1);
      assert.equal(await other.page.getByRole('link', { name: 'Open full view ↗' }).count(), 1);
      assert.deepEqual(quiet(other.problems), NO_PROBLEMS);
    } finally {
      await other.context.close();
    }
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

const CUSTOM = {
  name: 'three-seeds',
  description: 'Three seed ConfigMaps, a pruner that does not wait for its cache, and a watch that lags 300 ms.',
  seed: 11,
  cluster: { watch_lag_ms: 300 },
  controller: { kind: 'pruner', wait_for_cache_sync: false },
  objects: [{ kind: 'ConfigMap', name: 'seed-{i}', count: 3 }],
};

test('an imported scenario runs, and its exported trace is byte for byte what `cachescope trace` prints', async () => {
  const file = path.join(TMP, 'three-seeds.json');
  writeFileSync(file, JSON.stringify(CUSTOM, null, 2));
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import scenario', exact: true }).click();
    await (await chooser).setFiles(file);
    await page.getByRole('status').filter({ hasText: 'Imported three-seeds.json' }).waitFor();
    assert.equal(await readFrame(page), 0);
    assert.equal((await presentObjects(page, 'Cluster', 'ConfigMap')).length, 3, 'its three seeds are drawn');
    // The URL carries the scenario: a reload keeps it.
    assert.match(page.url(), /[?&]z=/, 'packed in the URL');

    await playToEnd(page);
    const download = page.waitForEvent('download');
    await openExportMenu(page);
    await page.getByRole('button', { name: 'Export trace', exact: true }).click();
    const saved = path.join(TMP, 'page.trace.jsonl');
    await (await download).saveAs(saved);
    const fromPage = readFileSync(saved, 'utf8');
    const fromRunner = runner('trace', file);
    assert.ok(fromRunner.split('\n').length > 5, 'the run has frames');
    assert.equal(fromPage, fromRunner, 'the same bytes');

    // "Export scenario" writes a file the runner plays to the same trace.
    const dl2 = page.waitForEvent('download');
    await openExportMenu(page);
    await page.getByRole('button', { name: 'Export scenario', exact: true }).click();
    const exported = path.join(TMP, 'exported.json');
    await (await dl2).saveAs(exported);
    assert.equal(runner('trace', exported), fromRunner);

    // A reload reopens the imported scenario at the same frame (the run deleted all three by now).
    const end = await readFrame(page);
    await page.reload({ waitUntil: 'load' });
    await region(page, 'Cluster').waitFor();
    assert.equal(await readFrame(page), end);
    await page.getByText('About this run', { exact: true }).click();
    assert.equal(await page.locator('.about-run dd').first().innerText(), 'three-seeds');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a scenario file dropped on the page is imported; a bad one is refused with the runner\'s error', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url);
    const drop = async (name, text) => {
      const dataTransfer = await page.evaluateHandle(
        ([n, t]) => {
          const dt = new DataTransfer();
          dt.items.add(new File([t], n, { type: 'application/json' }));
          return dt;
        },
        [name, text],
      );
      await page.dispatchEvent('main', 'dragover', { dataTransfer });
      await page.dispatchEvent('main', 'drop', { dataTransfer });
    };
    await drop('three-seeds.json', JSON.stringify(CUSTOM));
    await page.getByRole('status').filter({ hasText: 'Imported three-seeds.json' }).waitFor();
    assert.equal((await presentObjects(page, 'Cluster', 'ConfigMap')).length, 3);

    const bad = '{\n  "name": "bad",\n  "controller": { "kind": "ensemble", "naming": "random" },\n  "objects": []\n}\n';
    await drop('bad.json', bad);
    const notice = page.getByRole('status').filter({ hasText: 'Could not import bad.json' });
    await notice.waitFor();
    const said = await notice.innerText();
    // The runner's message for the same file, less its "cachescope: " prefix and the file name.
    const file = path.join(TMP, 'bad.json');
    writeFileSync(file, bad);
    let stderr = '';
    try {
      runner('run', file);
    } catch (e) {
      assert.equal(e.status, 2, 'the runner exits 2');
      stderr = e.stderr;
    }
    const expected = stderr.trim().replace(/^cachescope: /, '').replace(` (${file})`, '');
    assert.ok(said.includes(expected), `the page says ${JSON.stringify(said)}; the runner ${JSON.stringify(expected)}`);
    assert.equal((await presentObjects(page, 'Cluster', 'ConfigMap')).length, 3, 'the scenario before stays');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('"Export SVG" saves the current frame as an SVG image', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url, '?s=over-create&controller.naming=generate&frame=23');
    const download = page.waitForEvent('download');
    await openExportMenu(page);
    await page.getByRole('button', { name: 'Export SVG', exact: true }).click();
    const dl = await download;
    assert.equal(dl.suggestedFilename(), 'over-create-frame-23.svg');
    const file = path.join(TMP, 'frame.svg');
    await dl.saveAs(file);
    const svg = readFileSync(file, 'utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok(svg.includes('Frame 23 ·'));
    for (const { name } of await presentObjects(page, 'Cluster', 'ConfigMap')) assert.ok(svg.includes(`>${name}<`), name);
    // It renders: decoded as an image in a blank page (the app's own CSP allows no blob: images).
    const blank = await context.newPage();
    const size = await blank.evaluate(async (text) => {
      const img = new Image();
      img.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(text)))}`;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, svg);
    assert.equal(size[0], 1280);
    assert.ok(size[1] > 400, `height ${size[1]}`);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('"Export Go test" saves the run up to the frame on the page as the runner writes it, and says why where it cannot', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url, '?s=over-create-surplus&frame=19');
    const download = page.waitForEvent('download');
    await openExportMenu(page);
    await page.getByRole('button', { name: 'Export Go test', exact: true }).click();
    const dl = await download;
    assert.equal(dl.suggestedFilename(), 'over_create_surplus_cachescope_test.go');
    const file = path.join(TMP, 'export_test.go');
    await dl.saveAs(file);
    assert.equal(readFileSync(file, 'utf8'), runner('export', 'go', 'over-create-surplus', '--frame', '19'), 'the same bytes as cachescope export go');
    await page.getByRole('status').filter({ hasText: "Exported the run's 2 reconciles up to frame 19 as over_create_surplus_cachescope_test.go" }).waitFor();
    // At frame 0 no reconcile has started: said, and nothing saved.
    await page.goto(env.server.url + '?s=over-create-surplus&frame=0');
    await region(page, 'Cluster').waitFor();
    await openExportMenu(page);
    await page.getByRole('button', { name: 'Export Go test', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'No Go test at frame 0: no reconcile has started by then' }).waitFor();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

for (const [query, preset, sets] of [
  ['?s=over-create&controller.naming=generate', 'over-create', ['controller.naming=generate']],
  ['?s=replicaset-pressure&seed=3', 'replicaset-pressure', ['seed=3']],
  ['?s=empty-cache', 'empty-cache', []],
]) {
  test(`"About this run" shows the trace_hash \`cachescope run\` prints (${query})`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.origin);
    try {
      await openStage(page, env.server.url, query);
      await page.getByText('About this run', { exact: true }).click();
      const hash = page.locator('code.trace-hash');
      await hash.waitFor({ timeout: 20_000 });
      const report = JSON.parse(runner('run', preset, ...sets.flatMap((s) => ['--set', s])));
      assert.equal(await hash.innerText(), report.trace_hash);
      const command = `cachescope run ${preset}${sets.map((s) => ` --set ${s}`).join('')}`;
      assert.equal(await page.getByText(command, { exact: true }).count(), 1, `the command line: ${command}`);
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  });
}
