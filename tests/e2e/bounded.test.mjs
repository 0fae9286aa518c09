// Bounded in the page (issue 17): a scenario the budget accepts whose
// controller creates past it as it runs stops at the object limit and says
// why, and no accepted input blocks the main thread: seeking to the end of a
// run computes its frames in slices (with their progress), and the end is
// known where the seek reaches it, trace hash and all. How long the longest
// main-thread task is stays a figure (printed here, and measured by
// `make bench` as seek_*_task_ms), never a timing assertion.
// Run: `make build && node --test --test-reporter=spec tests/e2e/bounded.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, openStage, openPage, pack, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TMP = mkdtempSync(path.join(tmpdir(), 'cachescope-bounded-'));


/** The native runner's report for a scenario document. */
function runNatively(doc) {
  const file = path.join(TMP, `${doc.name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'run', file], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

/** Records every long task of the main thread from the page's start. */
async function watchLongTasksFromStart(page) {
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({
      type: 'longtask',
      buffered: true,
    });
    // What the transport said while a seek was computed (it is gone once the seek lands).
    window.__progress = [];
    new MutationObserver(() => {
      const said = document.querySelector('.transport .computing')?.textContent;
      if (said && window.__progress.at(-1) !== said) window.__progress.push(said);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const longest = (page) => page.evaluate(() => Math.max(0, ...window.__longTasks));

/** The largest ReplicaSet the budget accepts, without expectations, its first Pod event held (OVER_AT_RUN_TIME). */
const HELD = {
  name: 'held',
  until_ms: 86400000,
  controller: { kind: 'replicaset', expectations: false },
  cluster: { watch_lag_ms: 2000, client_qps: 0, resync_ms: 1000 },
  objects: [{ kind: 'ReplicaSet', name: 'web', replicas: 1999 }],
  schedule: [{ kind: 'Pod', nth: 1, hold: true }],
};

test('one held Pod event: seek to the end, and the page says why the run stopped', async () => {
  const native = runNatively(HELD);
  assert.equal(native.stopped_at_object_limit.objects, 2001, 'natively it stops at the object limit');
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await watchLongTasksFromStart(page);
    const t = Date.now();
    await openStage(page, env.server.url, `?z=${pack(HELD)}`);
    // Seek to the end with the scrubber's End key, as far as the run is computed, until the end is reached.
    const transport = region(page, 'Transport');
    const scrubber = page.getByRole('slider', { name: 'Timeline scrubber' });
    for (let i = 0; i < 240 && !(await transport.getByText('End of run').isVisible()); i++) {
      await scrubber.focus();
      await page.keyboard.press('End');
      await page.waitForTimeout(250);
    }
    assert.equal(await transport.getByText('End of run').isVisible(), true, 'the end of the run is reached');
    assert.equal(await readFrame(page), native.frames, 'the last frame, as natively');
    console.log(`# the held scenario: ${native.frames} frames to its end in the page in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const caption = await page.locator('.caption').first().innerText();
    assert.match(caption, /the cluster holds 2,001 objects; the limit is 2,000/, caption);
    assert.match(caption, /the 1st Pod event is held by this run's schedule/, caption);
    // A step forward at the end, and back, stay short too.
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.getByRole('button', { name: 'Step back' }).click();
    assert.equal(await readFrame(page), native.frames - 1);
    // "About this run": why it stopped, and the runner's trace hash.
    await page.locator('details.about-run summary').click();
    const about = page.locator('details.about-run');
    await about.locator('code.trace-hash').waitFor({ timeout: 30_000 });
    const text = await about.innerText();
    assert.match(text, new RegExp(`${native.frames}: the object limit; the run stops here`), text);
    assert.match(text, /Why it stops\s+The run stops here: the cluster holds 2,001 objects/, text);
    assert.equal(await about.locator('code.trace-hash').innerText(), native.trace_hash);
    const max = await longest(page);
    console.log(`# the held scenario: longest main-thread task ${max} ms (${await page.evaluate(() => window.__longTasks.length)} over 50 ms)`);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a seek past the look-ahead computes in slices and knows the end where it reaches it', async () => {
  // 57,656 frames: past the 50,000 the page computes ahead of itself.
  const query = '?s=over-create&until_ms=7200000&cluster.resync_ms=1000';
  const long = JSON.parse(execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'run', 'over-create', '--set', 'until_ms=7200000', '--set', 'cluster.resync_ms=1000'], { cwd: ROOT, encoding: 'utf8' }));
  assert.ok(long.frames > 50_000, `${long.frames} frames`);
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await watchLongTasksFromStart(page);
    await openStage(page, env.server.url, `${query}&frame=${long.frames}`);
    // The seek lands on the last frame, having shown its progress while it computed.
    await page.getByText(new RegExp(`^Frame ${long.frames}$`)).waitFor({ timeout: 120_000 });
    const progress = await page.evaluate(() => window.__progress);
    console.log(`# progress shown: ${progress.length} updates, the last ${JSON.stringify(progress.at(-1))}`);
    assert.ok(progress.every((p) => /^Computing frame [\d,]+ of [\d,]+…$/.test(p)), JSON.stringify(progress));
    // In slices: the page drew the progress at least twice, each further on, the first well short of the target.
    const reached = progress.map((p) => Number(p.match(/^Computing frame ([\d,]+)/)[1].replaceAll(',', '')));
    assert.ok(reached.length >= 2, `${reached.length} progress updates drawn: ${JSON.stringify(progress)}`);
    assert.ok(reached.every((n, i) => i === 0 || n > reached[i - 1]), JSON.stringify(reached));
    assert.ok(reached[0] < long.frames / 2, `the first slice reached frame ${reached[0]} of ${long.frames}`);
    await region(page, 'Transport').getByText('End of run').waitFor({ timeout: 10_000 });
    await page.locator('details.about-run summary').click();
    const about = page.locator('details.about-run');
    await about.locator('code.trace-hash').waitFor({ timeout: 30_000 });
    assert.equal(await about.locator('code.trace-hash').innerText(), long.trace_hash, 'the hash at the end, no step needed');
    assert.doesNotMatch(await about.innerText(), /so far/);
    const max = await longest(page);
    console.log(`# ${long.frames} frames sought to the end in ${reached.length}+ slices: longest main-thread task ${max} ms`);
    assert.equal(await page.locator('.banner[role="alert"]').count(), 0, 'the frame is within the run');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
