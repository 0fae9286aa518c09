// What a learner's review found (issue 33): the page says only what applies
// to the run's controller, a change at the run's end replays it, the
// notice keeps out of Help's way, and on a phone every button a broken
// invariant brings is a touch target.
// Run: `make build && node --test --test-reporter=spec tests/e2e/applies.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, openPage, openStage, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const runner = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', ...args], { cwd: ROOT, encoding: 'utf8' });

test('the page says only what applies: lines off, invariants and notes of this controller, an unsynced cache', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    // This operator keeps neither expectations nor the consistency store: those lines are off, and say so.
    const code = region(page, 'Reconcile');
    for (const line of ['consistencyStore.EnsureReady', 'expectations.SatisfiedExpectations']) {
      const li = code.locator('li', { hasText: line });
      assert.match(await li.getAttribute('class'), /\boff\b/, line);
      assert.match(await li.innerText(), /off in this run/, line);
    }
    assert.doesNotMatch(await region(page, 'Invariants').innerText(), /pods/, 'no pod invariant for ConfigMaps');
    assert.doesNotMatch(await region(page, 'Cluster').innerText(), /pods are always Running/, 'no pod note either');
    // Before the first LIST lands, an empty wire is not a cache that has every change.
    assert.match(await region(page, 'Watch').innerText(), /Nothing on the wire yet: the reflector watches from its first LIST/);
    await openStage(page, env.server.url, '?s=empty-cache');
    assert.doesNotMatch(await region(page, 'Workqueue').innerText(), /double-enqueue/, 'the pruner has no such flag');
    assert.doesNotMatch(await region(page, 'Invariants').innerText(), /children|orphans|pods/, 'the pruner has no owners');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the panels count as the labs do: over-create with GenerateName ends on 11 ConfigMaps, empty-cache on none left', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const end = (name, sets = '') => JSON.parse(runner('run', name, ...sets.split(' ').filter(Boolean))).frames;
    await openStage(page, env.server.url, `?s=over-create&controller.naming=generate&frame=${end('over-create', '--set controller.naming=generate')}`);
    // No-break spaces keep a kind's count with its noun: the header wraps only between kinds.
    const counts = async () => (await region(page, 'Cluster').locator('.counts').innerText()).replaceAll('\u00a0', ' ');
    assert.equal(await counts(), '1 Ensemble · 11 ConfigMaps');
    // Lab 2: "Run it. Count what is left." Nothing, as the lab says.
    await openStage(page, env.server.url, `?s=empty-cache&frame=${end('empty-cache')}`);
    assert.equal(await counts(), '0 objects');
    assert.match(await region(page, 'Cluster').innerText(), /Empty: all 50 ConfigMaps were deleted/);
    assert.match(await region(page, 'Observations').innerText(), /nothing left to count: 0 ConfigMaps, as the lab expects/);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('Wait for cache sync ticked at the run\'s end is the next run, played; the notice keeps out of Help\'s way', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=empty-cache&speed=1000');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await region(page, 'Transport').getByText('End of run', { exact: true }).waitFor({ timeout: 30_000 });
    const end = await readFrame(page);
    await page.getByRole('checkbox', { name: 'Wait for cache sync' }).check();
    // Made from frame 0, and played on from there without another press.
    const notice = page.locator('.notice');
    await notice.getByText(/recomputed from frame 0 and is replayed/).waitFor();
    await page.waitForFunction(() => /Frame [1-9]/.test(document.querySelector('section[aria-label="Transport"]')?.innerText ?? ''));
    await region(page, 'Transport').getByText('End of run', { exact: true }).waitFor({ timeout: 30_000 });
    assert.notEqual(await readFrame(page), end, 'another run, to its own end');
    assert.equal((await region(page, 'Cluster').locator('[data-kind="ConfigMap"][data-present="true"]').count()), 50, 'none deleted');
    // The notice's dismiss and Help: apart, and Help opens Help, the notice stays.
    const dismiss = (await notice.getByRole('button', { name: 'Dismiss the notice' }).boundingBox());
    const help = await page.getByRole('button', { name: 'Help' }).boundingBox();
    const apart = dismiss.x + dismiss.width <= help.x || help.x + help.width <= dismiss.x || dismiss.y + dismiss.height <= help.y || help.y + help.height <= dismiss.y;
    assert.ok(apart, JSON.stringify({ dismiss, help }));
    await page.getByRole('button', { name: 'Help' }).click();
    await page.getByRole('dialog', { name: 'What you see' }).waitFor();
    assert.equal(await notice.count(), 1, 'Help did not dismiss the notice');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

/** Every preset whose default run breaks an invariant, and the frame it first does. */
const BROKEN = runner('presets')
  .trim()
  .split('\n')
  .map((line) => line.split(/\s+/)[0])
  .flatMap((name) => {
    const report = JSON.parse(runner('run', name));
    const frames = Object.values(report.invariants).map((i) => i.first_broken_frame).filter((f) => f != null);
    return frames.length ? [{ name, frame: Math.min(...frames) }] : [];
  });

for (const [width, height] of [
  [390, 844],
  [844, 390],
]) {
  test(`at ${width}×${height}, every button on screen where an invariant breaks is 44×44 px or more`, async () => {
    assert.ok(BROKEN.length >= 4, JSON.stringify(BROKEN));
    const { page, context } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      for (const { name, frame } of BROKEN) {
        await openStage(page, env.server.url, `?s=${name}&frame=${frame}`);
        await region(page, 'Invariants').locator('li.invariant.broken').first().waitFor();
        const small = await page.evaluate(([w, h]) => {
          const out = [];
          for (const b of document.querySelectorAll('button, summary, [role="button"], input[type="checkbox"], input[type="radio"]')) {
            const r = b.getBoundingClientRect();
            // On screen, and drawn: not inside a closed disclosure (whose content keeps a box).
            const drawn = b.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
            const shown = drawn && r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < h && r.left < w;
            // A box or a radio counts with its label, as a finger meets it.
            const target = b.matches('input') ? b.closest('label') ?? b : b;
            const t = target.getBoundingClientRect();
            if (shown && (t.width < 44 - 0.5 || t.height < 44 - 0.5)) out.push(`${(b.getAttribute('aria-label') || b.innerText || b.tagName).trim().slice(0, 40)}: ${Math.round(t.width)}×${Math.round(t.height)}`);
          }
          return out;
        }, [width, height]);
        assert.deepEqual(small, [], `${name} at frame ${frame}`);
      }
    } finally {
      await context.close();
    }
  });
}
