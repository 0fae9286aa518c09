// Two runs side by side (issue 19): compare= shows the scenario twice, Run B
// with a setting changed, moved by one transport in simulated time, their
// first parting marked and said, the lab's figures tabled for both.
// Run: `make build && node --test --test-reporter=spec tests/e2e/compare.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, axeProblems, openPage, quiet, region, withServerAndBrowser } from './support.mjs';

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
    for (const run of [a, b]) {
      for (const panel of ['Cluster', 'Cache']) assert.equal(await run.getByRole('region', { name: panel, exact: true }).count(), 1, panel);
    }
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
