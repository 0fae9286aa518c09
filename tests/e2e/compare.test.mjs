// Two runs side by side (issue 19): compare= shows the scenario twice, Run B
// with a setting changed, moved by one transport in simulated time, their
// first parting marked and said, the lab's figures tabled for both.
// Run: `make build && node --test --test-reporter=spec tests/e2e/compare.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LARGEST_ACCEPTED, NO_PROBLEMS, axeProblems, openPage, pack, quiet, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const QUERY = '?s=over-create&compare=controller.naming%3Dgenerate';

/** The runner's comparison of the same two runs. */
const native = JSON.parse(
  execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'compare', 'over-create', '--vs', 'controller.naming=generate'], { cwd: ROOT, encoding: 'utf8' }),
);

/** Each run's clock: "t = 2.7 s · frame 19" → { t, frame }. */
async function clocks(page) {
  const read = async (name) => {
    const text = await region(page, name).locator('.run-clock').innerText();
    const m = text.match(/^t = (.+) · frame (\d+)$/);
    assert.ok(m, text);
    return { t: m[1], frame: Number(m[2]) };
  };
  return { a: await read('Run A'), b: await read('Run B') };
}

/** The Side by side table's row for a run: { live, peak, created, conflicts, deleted, broken }. */
async function figures(page, run) {
  const cells = await region(page, 'Side by side').getByRole('row', { name: new RegExp(`^${run}`) }).getByRole('cell').allInnerTexts();
  const [live, peak, created, conflicts, deleted, broken] = cells;
  return { live: Number(live), peak: Number(peak), created: Number(created), conflicts: Number(conflicts), deleted: Number(deleted), broken };
}

test('compare= shows Run A and Run B, stepped together in time, their parting marked and said, 4 against 11 at the end', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await page.goto(env.server.url + QUERY);
    const a = region(page, 'Run A');
    const b = region(page, 'Run B');
    await b.waitFor({ timeout: 20_000 });
    assert.match(await a.locator(':scope > header').innerText(), /Run A\s+as the lab wrote it/);
    assert.match(await b.locator(':scope > header').innerText(), /Run B\s+controller\.naming = generate/);
    for (const [name, run] of [['Run A', a], ['Run B', b]]) {
      // Each panel named with its run: no two regions of the page share a name.
      for (const panel of ['Cluster', 'Cache']) assert.equal(await run.getByRole('region', { name: `${name}: ${panel}`, exact: true }).count(), 1, panel);
      // Frame 0 is not the preset's first line, which asks for the change Run B already has, with settings this view hides.
      const caption = await run.locator('.run-caption').innerText();
      assert.doesNotMatch(caption, /GenerateName|not the lab's/, caption);
    }
    // The parting is marked, not said, before the runs reach it.
    await page.getByRole('button', { name: 'Play' }).waitFor();
    const before = await region(page, 'Caption').innerText();
    assert.doesNotMatch(before, /part at/, before);
    assert.match(before, /⚑ on each time line marks where their audit logs part/, before);
    // One transport: each step moves both to the next time either has an event at, and both show that time.
    let last = await clocks(page);
    assert.deepEqual([last.a.frame, last.b.frame], [0, 0]);
    const step = region(page, 'Transport').getByRole('button', { name: 'Step forward' });
    for (let i = 0; i < 25; i++) {
      await step.click();
      const now = await clocks(page);
      assert.equal(now.a.t, now.b.t, `step ${i + 1}: equal simulated times`);
      assert.ok(now.a.frame >= last.a.frame && now.b.frame >= last.b.frame && now.a.frame + now.b.frame > last.a.frame + last.b.frame, JSON.stringify([last, now]));
      last = now;
    }
    // The parting, as the runner finds it: marked on both time lines, said in the caption.
    const d = native.first_divergence;
    assert.equal(d.a.status.code, 409);
    assert.equal(d.b.status.code, 201);
    for (const run of [a, b]) {
      assert.equal(await run.locator('.run-parting').count(), 1);
      assert.match(await run.locator('.run-line').getAttribute('aria-label'), /the runs part at 2\.7 s$/);
    }
    const caption = await region(page, 'Caption').innerText();
    assert.ok(caption.includes(`(frame ${d.frame_a} in both): in Run A the create of ConfigMap ${d.a.name} is answered 409 AlreadyExists; in Run B, 201 Created.`), caption);
    // Played to the end: the lab's figures for both, as the runner measures them.
    await region(page, 'Transport').getByRole('button', { name: 'Play' }).click();
    await region(page, 'Transport').getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    const fa = await figures(page, 'Run A');
    const fb = await figures(page, 'Run B');
    assert.deepEqual([fa.live, fb.live], [4, 11]);
    assert.deepEqual([fa.live, fb.live], [native.a.live.ConfigMap, native.b.live.ConfigMap]);
    assert.equal(fa.conflicts, native.a.api.create['409']);
    // The controller's own creates (kubectl's create of the Ensemble aside): every one a ConfigMap, none deleted.
    assert.equal(fb.created, native.b.live.ConfigMap);
    assert.equal(fa.broken, 'none');
    assert.equal(fb.broken, 'children_within_desired');
    assert.deepEqual(await axeProblems(page), []);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

for (const colorScheme of ['light', 'dark']) {
  test(`the compare embed fits 800×500 with no page scroll (${colorScheme}), axe-clean`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 800, height: 500, colorScheme });
    try {
      await page.goto(`${env.server.url}${QUERY}&embed=1`);
      await region(page, 'Run B').waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate(() => document.scrollingElement.scrollHeight <= window.innerHeight), true, 'no page scroll');
      for (const name of ['Run A', 'Run B', 'Side by side', 'Caption', 'Transport']) {
        const box = await region(page, name).boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= 500 && box.x >= 0 && box.x + box.width <= 800, `${name}: ${JSON.stringify(box)}`);
      }
      assert.deepEqual(await axeProblems(page), []);
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  });
}

test('compare at a phone either way up: each run keeps its caption upright, the table fits the width, the panels keep room on its side', async () => {
  for (const [width, height] of [
    [390, 844],
    [844, 390],
  ]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      await page.goto(`${env.server.url}${QUERY}&frame=0`);
      await region(page, 'Transport').getByRole('button', { name: 'Play' }).waitFor();
      const table = region(page, 'Side by side');
      const fits = await table.evaluate((el) => el.scrollWidth <= el.clientWidth);
      assert.ok(fits, `${width}×${height}: every column of the table in view`);
      assert.equal(await table.getByRole('columnheader', { name: 'creates 409' }).count(), 1, 'the heading read whole');
      for (const name of ['Run A', 'Run B']) {
        const cluster = await region(page, `${name}: Cluster`).boundingBox();
        assert.ok(cluster.height >= 80, `${width}×${height}: ${name}'s Cluster is ${cluster.height} px tall`);
        if (width < height) assert.ok(await region(page, name).locator('.run-caption').isVisible(), `${name}'s caption`);
      }
      assert.deepEqual(await axeProblems(page), []);
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});

test('a compare= link at the limits keeps every task under 500 ms while both runs are computed, with progress and Stop', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    // Long tasks, recorded from the page's first script on.
    await page.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: true });
    });
    const url = `${env.server.url}?z=${pack(LARGEST_ACCEPTED)}&compare=cluster.watch_lag_ms%3D0`;
    await page.goto(url);
    const transport = region(page, 'Transport');
    const progress = transport.getByRole('status').filter({ hasText: /^Computing: A \d+ · B \d+ frames/ });
    await progress.waitFor({ timeout: 20_000 });
    assert.ok(await transport.getByRole('button', { name: 'Play' }).isDisabled(), 'nothing to play until both are known');
    // It breathes: its progress moves on, a click is answered while it
    // computes, and Stop compares what is known. Stop is pressed at the
    // progress's first move, not after a set time: this machine computes
    // both runs to their 60,000-frame limit in about 2.5 s.
    const said = await progress.innerText();
    for (const deadline = Date.now() + 10_000; (await progress.innerText()) === said; ) {
      assert.ok(Date.now() < deadline, `the progress stood at "${said}" for 10 s`);
      await page.waitForTimeout(20);
    }
    await transport.getByRole('button', { name: 'Stop' }).click();
    await transport.getByRole('button', { name: 'Play' }).waitFor({ state: 'visible' });
    assert.ok(await transport.getByRole('button', { name: 'Play' }).isEnabled());
    assert.match(await region(page, 'Caption').innerText(), /^Stopped after [\d,]+ frames of Run A and [\d,]+ frames of Run B/);
    const long = await page.evaluate(() => window.__long);
    assert.ok(long.every((d) => d < 500), `long tasks: ${JSON.stringify(long.map(Math.round))}`);
    // Left to the end, both runs computed whole: no task of it 500 ms or more either.
    await page.goto(url);
    await progress.waitFor({ timeout: 20_000 });
    await progress.waitFor({ state: 'detached', timeout: 120_000 });
    assert.ok(await transport.getByRole('button', { name: 'Play' }).isEnabled(), 'both runs known, Play is offered');
    const whole = await page.evaluate(() => window.__long);
    assert.ok(whole.every((d) => d < 500), `long tasks, both runs computed whole: ${JSON.stringify(whole.map(Math.round))}`);
  } finally {
    await context.close();
  }
});

test('a compare embed tells its host where both runs are, and obeys it for both', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 900, height: 600 });
  try {
    const app = `${env.server.url}${QUERY}&embed=1`;
    await page.setContent(`<iframe src="${app}" width="800" height="500" title="cachescope"></iframe>`);
    await page.evaluate(() => {
      window.__messages = [];
      addEventListener('message', (e) => window.__messages.push(e.data));
    });
    const frame = page.frameLocator('iframe');
    // Both runs computed: the transport is enabled, and commands are obeyed.
    await frame.locator('button.play:not([disabled])').waitFor({ timeout: 20_000 });
    const post = (m) => page.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), m);
    const last = () => page.evaluate(() => window.__messages.filter((m) => m?.cachescope === 'frame').at(-1));
    for (let i = 0; i < 3; i++) await post({ cachescope: 'step' });
    await page.waitForFunction(() => window.__messages.filter((m) => m?.cachescope === 'frame').at(-1)?.frame >= 1);
    let m = await last();
    assert.ok(m.b && m.b.frame >= 1, `Run B moved too: ${JSON.stringify(m)}`);
    assert.equal(typeof m.b.time_ms, 'number');
    assert.ok(m.b.invariants.children_within_desired, JSON.stringify(m.b));
    await post({ cachescope: 'reset' });
    await page.waitForFunction(() => {
      const f = window.__messages.filter((m) => m?.cachescope === 'frame').at(-1);
      return f.frame === 0 && f.b.frame === 0;
    });
    await post({ cachescope: 'seek', frame: 30 });
    await page.waitForFunction(() => window.__messages.filter((m) => m?.cachescope === 'frame').at(-1)?.frame === 30);
    m = await last();
    assert.ok(m.b.time_ms <= m.time_ms && m.b.frame > 0, `both at the same simulated time: ${JSON.stringify([m.time_ms, m.b.time_ms])}`);
  } finally {
    await context.close();
  }
});
