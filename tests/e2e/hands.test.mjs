// Hands-on delivery: each event in flight in the Watch panel has Deliver now,
// Hold (then Release) and Drop, named after the event; each changes what the
// Cache panel comes to hold, Step back undoes it on screen, and the link
// carries it (as the run's schedule).
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROBLEMS, axeProblems, openStage, openPage, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();

/** The names of the ConfigMaps the Cache panel holds. */
async function cached(page) {
  const text = await region(page, 'Cache').innerText();
  return ['beta-voice-0', 'beta-voice-1', 'beta-voice-2', 'beta-voice-3'].filter((n) => text.includes(n));
}

async function stepForward(page, times) {
  for (let i = 0; i < times; i += 1) await page.getByRole('button', { name: 'Step forward' }).click();
}

/** Frame 23 of over-create: the first reconcile's four creates are on the wire, 2 s from the cache. */
async function atFrame23(page) {
  await openStage(page, env.server.url, '?s=over-create&frame=23');
  assert.deepEqual(await cached(page), []);
}

test('Deliver now brings the event (and those ahead of it) to the cache at the next frame; Step back undoes it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await atFrame23(page);
    // By keyboard: the control is a button reached with Tab like any other.
    const deliver = page.getByRole('button', { name: 'Deliver now: ADDED ConfigMap beta-voice-1', exact: true });
    await deliver.focus();
    await page.keyboard.press('Enter');
    await region(page, 'Caption').getByRole('status').filter({ hasText: /^Delivered ADDED ConfigMap beta-voice-1 now/ }).waitFor();
    assert.equal(await readFrame(page), 23, 'the page stays at the frame of the choice');
    await stepForward(page, 2);
    assert.deepEqual(await cached(page), ['beta-voice-0', 'beta-voice-1'], 'it, and the one ahead of it on the stream');
    await page.getByRole('button', { name: 'Step back' }).click();
    await page.getByRole('button', { name: 'Step back' }).click();
    assert.equal(await readFrame(page), 23);
    assert.deepEqual(await cached(page), [], 'stepping back undoes it on screen');
    // The link carries the choice: a reload replays it.
    await page.waitForFunction(() => new URL(location.href).searchParams.has('z'));
    const friend = await context.newPage();
    await openStage(friend, page.url().replace(/([?&])frame=\d+/, '$1frame=25'));
    assert.deepEqual(await cached(friend), ['beta-voice-0', 'beta-voice-1']);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('Hold keeps an event and those behind it out of the cache until Release; Drop loses it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await atFrame23(page);
    await page.getByRole('button', { name: 'Hold: ADDED ConfigMap beta-voice-1', exact: true }).click();
    await page.getByRole('button', { name: 'Drop: ADDED ConfigMap beta-voice-3', exact: true }).click();
    // Well past where the lag would have landed them all.
    await stepForward(page, 40);
    assert.deepEqual(await cached(page), ['beta-voice-0'], 'held: 1, and 2 and 3 behind it on the stream');
    const release = page.getByRole('button', { name: 'Release: ADDED ConfigMap beta-voice-1', exact: true });
    assert.equal(await release.count(), 1, 'a held event offers Release');
    assert.deepEqual(await axeProblems(page), [], 'the hands and the held marks pass axe-core');
    await release.click();
    await stepForward(page, 4);
    assert.deepEqual(await cached(page), ['beta-voice-0', 'beta-voice-1', 'beta-voice-2'], 'released; 3 was dropped');
    assert.match(await region(page, 'Watch').innerText(), /^(?![\s\S]*beta-voice-3)/, 'the dropped one is off the wire');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('on a phone held upright, the first event in flight shows its three hands whole in the Watch list, each 44 px tall', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 390, height: 844 });
  try {
    await atFrame23(page);
    const list = region(page, 'Watch').getByRole('list', { name: 'Events in flight' });
    const shown = await list.boundingBox();
    for (const hand of ['Deliver now', 'Hold', 'Drop']) {
      const box = await page.getByRole('button', { name: `${hand}: ADDED ConfigMap beta-voice-0`, exact: true }).boundingBox();
      assert.ok(box.height >= 44, `${hand}: ${box.height} px tall`);
      assert.ok(box.y >= shown.y && box.y + box.height <= shown.y + shown.height, `${hand} at ${box.y}–${box.y + box.height}, the list shows ${shown.y}–${shown.y + shown.height}`);
    }
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('with several workers idle, the learner chooses which one takes the next key', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    // A ReplicaSet has five workers; step until its key is about to be taken.
    await openStage(page, env.server.url, '?s=replicaset-pressure');
    const workqueue = region(page, 'Workqueue');
    const take = workqueue.getByRole('button', { name: /^Take with worker 3: / });
    for (let i = 0; i < 100 && (await take.count()) === 0; i += 1) {
      await page.getByRole('button', { name: 'Step forward' }).click();
    }
    assert.match(await workqueue.innerText(), /next: worker 0 takes \S+/, 'the lowest idle worker, by default');
    const key = (await take.getAttribute('aria-label')).replace(/^Take with worker 3: /, '');
    await take.click();
    assert.match(await workqueue.innerText(), new RegExp(`next: worker 3 takes ${key}`));
    await page.getByRole('button', { name: 'Step forward' }).click();
    assert.match(await workqueue.innerText(), new RegExp(`worker 3: ${key} \\(reconcile 1\\)`));
    assert.match(await workqueue.innerText(), /worker 0: idle/);
    // Step back undoes it on screen; the link carries it.
    await page.getByRole('button', { name: 'Step back' }).click();
    assert.match(await workqueue.innerText(), /worker 3: idle/);
    await page.waitForFunction(() => new URL(location.href).searchParams.has('z'));
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
