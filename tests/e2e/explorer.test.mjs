// The end-to-end tests: a learner drives the explorer only through
// its accessible names and the keyboard, and the tests assert on what is
// drawn (the Cluster panel's rows, the Frame counter, the Expectations
// counters), never on the app's state.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`
// (CACHESCOPE_DIST=/tmp/dist-x tests another build than dist/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  NO_PROBLEMS,
  focusPage,
  openStage,
  openPage,
  playToEnd,
  presentObjects,
  pressTo,
  quiet,
  readFrame,
  readState,
  region,
  stepUntil,
  waitForFrame,
  waitForFrameChange,
  withServerAndBrowser,
} from './support.mjs';

const env = withServerAndBrowser();


/** Runs `body(page)` in a fresh page and then checks it stayed quiet and on its origin. */
async function withPage(body) {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await body(page);
    assert.deepEqual(quiet(problems), NO_PROBLEMS, 'no errors, no warnings, no request off the origin');
  } finally {
    await context.close();
  }
}

const byName = (page, role, name) => page.getByRole(role, { name, exact: true });

/** The beta-voice- ConfigMaps the Cluster panel shows as present. */
async function voices(page) {
  const cms = await presentObjects(page, 'Cluster', 'ConfigMap');
  return cms.map((o) => o.name).filter((n) => n.startsWith('beta-voice-'));
}

/** Waits until the lag's number field (beside the slider) reads `ms`. */
async function lagReads(page, ms) {
  await page.waitForFunction((v) => document.querySelector('input[aria-label="Watch lag in ms"]')?.value === String(v), ms);
}

/** Sets a range input the way a keyboard user does: Home, then → until the output reads `ms`. */
async function setLagWithKeys(page, ms) {
  const lag = byName(page, 'slider', 'Watch lag');
  await lag.focus();
  await page.keyboard.press('Home');
  await lagReads(page, 0);
  const step = Number(await lag.getAttribute('step'));
  for (let v = 0; v < ms; v += step) await page.keyboard.press('ArrowRight');
  await lagReads(page, ms);
  assert.equal(await lag.getAttribute('aria-valuetext'), `${ms} milliseconds`);
}

test('over-create: deterministic names settle at exactly four ConfigMaps', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url);
    await byName(page, 'combobox', 'Scenario').selectOption('over-create');
    await byName(page, 'radio', 'Deterministic names').check();
    assert.ok(await byName(page, 'radio', 'Deterministic names').isChecked());
    await playToEnd(page);
    const frame = await readFrame(page);
    assert.ok(frame > 10, `the run played to frame ${frame}`);
    assert.deepEqual(await voices(page), ['beta-voice-0', 'beta-voice-1', 'beta-voice-2', 'beta-voice-3']);
    // Settled: the frame counter does not advance any more.
    await page.waitForTimeout(300);
    assert.equal(await readFrame(page), frame);
  });
});

test('over-create: GenerateName at a 2,000 ms lag makes more than four', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=over-create');
    await byName(page, 'radio', 'GenerateName').check();
    assert.ok(!(await byName(page, 'radio', 'Deterministic names').isChecked()));
    await setLagWithKeys(page, 2000);
    await playToEnd(page);
    const names = await voices(page);
    assert.ok(names.length > 4, `more than four beta-voice- ConfigMaps: ${names.join(', ')}`);
    for (const n of names) assert.match(n, /^beta-voice-[a-z0-9]{5}$/, 'a generated name, shown in full');
    assert.equal(new Set(names).size, names.length, 'every name is different');
  });
});

test('over-create: GenerateName without lag creates exactly four', async () => {
  // The lag is the cause: with the cache up to date, generated names do no harm.
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=over-create');
    await byName(page, 'radio', 'GenerateName').check();
    await setLagWithKeys(page, 0);
    await playToEnd(page);
    assert.equal((await voices(page)).length, 4);
  });
});

test('"Step back" returns the Frame counter and the panels to the previous frame exactly', async () => {
  await withPage(async (page) => {
    // gc=1: every frame, the garbage collector's own deliveries too, so each step is one frame.
    await openStage(page, env.server.url, '?s=over-create&gc=1');
    const forward = byName(page, 'button', 'Step forward');
    const back = byName(page, 'button', 'Step back');
    let changed = 0;
    // Frames just before an object is created (7, 12, 15), a 409 (24), the
    // cache catching up (61) and an update (71): the panels change, then change back.
    for (const target of [6, 11, 14, 24, 60, 70]) {
      // Keys to get there; the buttons for the step and the step back.
      const at = await readFrame(page);
      await focusPage(page);
      for (let n = at + 1; n <= target; n++) await page.keyboard.press('ArrowRight');
      const before = await readState(page, target);
      await forward.click();
      const next = await readState(page, target + 1);
      if (next.text.Cluster !== before.text.Cluster || next.text.Cache !== before.text.Cache) changed++;
      await back.click();
      const again = await readState(page, target);
      assert.equal(again.frame, before.frame);
      assert.equal(again.clock, before.clock);
      assert.equal(again.caption, before.caption);
      assert.equal(again.text.Cluster, before.text.Cluster, `Cluster panel at frame ${target}`);
      assert.deepEqual(again.rows, before.rows, `Cluster and Cache rows at frame ${target}`);
      assert.equal(again.text.Watch, before.text.Watch, `Watch panel at frame ${target}`);
      assert.equal(again.text.Cache, before.text.Cache, `Cache panel at frame ${target}`);
    }
    assert.ok(changed >= 4, `stepping forward changed the panels at ${changed} of the frames, and stepping back undid it`);
  });
});

test('empty-cache: without "Wait for cache sync" every seed is deleted; with it all fifty remain', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=empty-cache');
    const seeds = async () => (await presentObjects(page, 'Cluster', 'ConfigMap')).filter((o) => o.name.startsWith('seed-'));
    assert.equal((await seeds()).length, 50, 'fifty seeds at the start');
    const wait = byName(page, 'checkbox', 'Wait for cache sync');
    assert.ok(!(await wait.isChecked()));
    await playToEnd(page);
    assert.deepEqual(await seeds(), [], 'none of the fifty seeds is left');
    // The audit log shows them as ordinary, successful deletions.
    assert.ok((await region(page, 'Timeline').getByText('200 OK').count()) > 0);

    // Ticked at the run's end: the next run, made from frame 0 and played to its end.
    await wait.check();
    await page.locator('.notice').getByText(/recomputed from frame 0 and is replayed/).waitFor();
    await region(page, 'Transport').getByText('End of run', { exact: true }).waitFor({ timeout: 20_000 });
    assert.ok(await wait.isChecked());
    assert.equal((await seeds()).length, 50, 'all fifty seeds remain');
  });
});

test('absent-from-cache: with the cache synced, late-1 still goes: its ADDED was on the wire when the pruner looked', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=absent-from-cache');
    assert.ok(await byName(page, 'checkbox', 'Wait for cache sync').isChecked());
    await playToEnd(page);
    const left = await presentObjects(page, 'Cluster', 'ConfigMap');
    assert.equal(left.filter((o) => o.name.startsWith('seed-')).length, 50, 'all fifty seeds remain');
    assert.deepEqual(left.filter((o) => o.name === 'late-1'), [], 'absent from the cache is not absent from the cluster');
  });
});

test('replicaset-pressure: add is non-zero while creates are in flight, and Pods never exceed 10', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=replicaset-pressure&gc=1');
    assert.equal(await byName(page, 'spinbutton', 'Replicas').inputValue(), '10');
    let frames = 0;
    let maxPods = 0;
    let inFlight = 0;
    let last = null;
    const end = await stepUntil(page, {
      visit: (s) => {
        frames++;
        const pods = s.rows.Cluster.filter((r) => r.kind === 'Pod' && r.present).length;
        const cached = s.rows.Cache.filter((r) => r.kind === 'Pod' && r.present).length;
        assert.ok(pods <= 10, `frame ${s.frame}: ${pods} Pods in the Cluster panel`);
        maxPods = Math.max(maxPods, pods);
        if (s.add > 0) {
          inFlight++;
          // What expectations promise: the cache plus the creates in flight never exceed the replicas.
          assert.ok(cached + s.add <= 10, `frame ${s.frame}: ${cached} cached + add ${s.add}`);
        }
        last = s;
      },
    });
    assert.ok(end.end, 'stepped to the end of the run');
    assert.equal(frames, end.frame + 1, 'every frame visited, one at a time');
    assert.ok(inFlight > 0, 'the Expectations panel showed a non-zero add');
    assert.equal(maxPods, 10, 'the ReplicaSet reached its 10 replicas');
    assert.equal(last.add, 0, 'every create was observed by the end');
  });
});

test('keyboard: Space plays and pauses, arrows step, Shift+→ goes to the next reconcile, R resets, ? opens the help', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=replicaset-pressure&gc=1');
    await focusPage(page);

    await page.keyboard.press('Space');
    await byName(page, 'button', 'Pause').waitFor();
    await page.waitForTimeout(200);
    await page.keyboard.press('Space');
    await byName(page, 'button', 'Play').waitFor();
    const played = await readFrame(page);
    assert.ok(played > 0, `playing moved the run (to frame ${played})`);

    await pressTo(page, 'ArrowRight', played + 1);
    await pressTo(page, 'ArrowRight', played + 2);
    await pressTo(page, 'ArrowLeft', played + 1);

    const lit = () => region(page, 'Reconcile').locator('li[aria-current="step"]').count();
    await page.keyboard.press('Shift+ArrowRight');
    const atReconcile = await waitForFrameChange(page, played + 1);
    assert.ok(atReconcile > played + 1, 'Shift+→ moved forward');
    assert.ok((await lit()) > 0, `frame ${atReconcile}: a reconcile has started, its line lit`);
    // The button does the same.
    await byName(page, 'button', 'Step to next reconcile').click();
    assert.ok((await waitForFrameChange(page, atReconcile)) > atReconcile);
    assert.ok((await lit()) > 0);

    await focusPage(page);
    await pressTo(page, 'r', 0);
    await pressTo(page, 'ArrowRight', 1);
    await pressTo(page, 'Shift+R', 0);
    await byName(page, 'button', 'Reset').click();
    await waitForFrame(page, 0);

    const dialog = page.getByRole('dialog');
    assert.equal(await dialog.count(), 0);
    await page.keyboard.press('?');
    await dialog.waitFor();
    const help = await dialog.innerText();
    for (const key of ['Space', 'Shift', 'R', 'Esc']) assert.ok(help.includes(key), `the help lists ${key}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // And the "Help" button opens it too; its own button closes it.
    await byName(page, 'button', 'Help').click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

test('the URL carries the state: reloading it shows the same frame and the same Cluster panel', async () => {
  await withPage(async (page) => {
    await openStage(page, env.server.url, '?s=over-create&gc=1');
    await focusPage(page);
    for (let n = 1; n <= 10; n++) await page.keyboard.press('ArrowRight');
    await waitForFrame(page, 10);
    await byName(page, 'radio', 'GenerateName').check();
    await region(page, 'Caption').getByRole('status').waitFor();
    await focusPage(page);
    for (let n = 11; n <= 30; n++) await page.keyboard.press('ArrowRight');
    await waitForFrame(page, 30);
    await setLagWithKeys(page, 600);
    await focusPage(page);
    for (let n = 31; n <= 45; n++) await page.keyboard.press('ArrowRight');
    const before = await readState(page, 45);
    await page.waitForLoadState('networkidle');
    const url = page.url();
    assert.match(url, /[?&]frame=45(&|$)/, `the URL names the frame: ${url}`);

    await page.goto('about:blank');
    await openStage(page, url);
    const after = await readState(page, 45);
    assert.equal(after.clock, before.clock);
    assert.equal(after.text.Cluster, before.text.Cluster, 'the same Cluster panel');
    assert.deepEqual(after.rows, before.rows);
    assert.ok(await byName(page, 'radio', 'GenerateName').isChecked(), 'the change came back with the URL');
    assert.equal(await byName(page, 'slider', 'Watch lag').inputValue(), '600');
    assert.ok(before.rows.Cluster.some((r) => /^beta-voice-[a-z0-9]{5}$/.test(r.name)), 'generated names by frame 45');
  });
});
