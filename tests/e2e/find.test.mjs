// "Can it go wrong?": the schedule search runs in a Web Worker (under the
// page's CSP, from a sub-path), loads the violation it finds as a run whose
// URL reloads to the same frame, stops when told, and never blocks the main
// thread for more than 50 ms.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROBLEMS, axeProblems, openStage, openPage, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();

/** Opens the search panel and picks an invariant (its option's value). */
async function openSearch(page, invariant) {
  await page.getByText('Can it go wrong?', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Invariant' }).selectOption(invariant);
}

/** Records the main thread's long tasks from now on. */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
}

test('Find a bug finds the over-create at watch lag 0 and loads it; its URL reloads to the same frame', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create&controller.naming=generate&cluster.watch_lag_ms=0');
    const invariants = region(page, 'Invariants');
    assert.equal(await invariants.locator('li.invariant.broken').count(), 0, 'at lag 0 the default timing is clean');
    await openSearch(page, 'children_within_desired');
    const t = Date.now();
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    // The panel closes (it would cover the panels); the caption bar says what was found.
    const outcome = region(page, 'Caption').getByRole('status').filter({ hasText: /^Found after/ });
    await outcome.waitFor({ timeout: 5_000 });
    assert.equal(await page.getByRole('button', { name: 'Find a bug', exact: true }).isVisible(), false);
    console.log(`# found in the page in ${Date.now() - t} ms: ${await outcome.innerText()}`);
    const text = await outcome.innerText();
    const frame = Number(text.match(/breaks at frame (\d+)/)[1]);
    assert.match(text, /children_within_desired breaks at frame \d+ when the \d+(st|nd|rd|th) ConfigMap event arrives/);
    // Loaded as a normal run, at the breaking frame, its badge red.
    assert.equal(await readFrame(page), frame);
    await invariants.locator('li.invariant.broken', { hasText: 'children_within_desired' }).waitFor();
    // The held-back event is marked on the timeline; its mark seeks to where it arrives.
    const mark = region(page, 'Transport').getByRole('button', { name: /^Frame \d+: an event held back 1\.0 s arrives$/ });
    assert.equal(await mark.count(), 1);
    const arrives = Number((await mark.getAttribute('aria-label')).match(/^Frame (\d+)/)[1]);
    await mark.click();
    assert.equal(await readFrame(page), arrives);
    assert.match(await page.locator('.caption').first().innerText(), /held back by this run's schedule/);
    await page.getByRole('button', { name: 'Step forward' }).click();
    // The URL carries the counterexample: a friend's reload opens the same run at the same frame.
    await page.waitForFunction(() => new URL(location.href).searchParams.has('z'));
    const link = page.url().replace(/([?&])frame=\d+/, `$1frame=${frame}`);
    const friend = await context.newPage();
    await openStage(friend, link);
    assert.equal(await readFrame(friend), frame);
    await region(friend, 'Invariants').locator('li.invariant.broken', { hasText: 'children_within_desired' }).waitFor();
    // The panel, open over the found bug, passes axe-core like the rest of the page.
    await page.getByText('Can it go wrong?', { exact: true }).click();
    assert.deepEqual(await axeProblems(page), []);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a long search keeps the main thread free, shows its count, and Stop stops it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    // A hundred replicas under a hundred deletions: 1.7 M states with up to 3
    // held-back events (7 s natively), longer than the 5 s this test watches.
    await openStage(page, env.server.url, '?s=replicaset-pressure&actions.0.apply.replicas=100&actions.1.delete_pods.count=100');
    await openSearch(page, 'children_within_desired');
    await page.getByRole('combobox', { name: 'Held-back events, at most' }).selectOption('3');
    await watchLongTasks(page);
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    assert.equal(await stop.isEnabled(), true);
    const count = page.locator('.find-count');
    await count.filter({ hasText: /^Searching: [\d,]+ timings tried/ }).waitFor({ timeout: 5_000 });
    const first = await count.innerText();
    // The page answers while the worker searches: stepping works.
    await page.getByRole('button', { name: 'Step forward' }).click();
    assert.equal(await readFrame(page), 1);
    // That press outside closed the panel; the search goes on, and reopening shows it.
    await page.waitForTimeout(5_000);
    await page.locator('details.find-bug > summary').click();
    const later = await count.innerText();
    assert.notEqual(later, first, 'the count moves');
    const longTasks = await page.evaluate(() => window.__longTasks);
    console.log(`# 5 s of search: ${later}; long tasks on the main thread: ${JSON.stringify(longTasks)}`);
    // Off the main thread: the search runs in the page's worker (its speed is `make bench`'s figure, not this test's).
    assert.ok(env.server.served.some((s) => /^200 .*\/explore-worker\.js$/.test(s)), 'the worker script was fetched');
    await stop.click();
    const outcome = page.getByRole('status').filter({ hasText: /^Stopped after [\d,]+ timings/ });
    await outcome.waitFor({ timeout: 2_000 });
    assert.equal(await stop.isEnabled(), false);
    assert.equal(await page.locator('.find-count').isVisible(), false, 'no count once stopped');
    assert.equal(await page.getByRole('button', { name: 'Find a bug', exact: true }).isEnabled(), true);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('with the consistency store on, nothing late breaks it; a lost event does', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=staleness-mitigation&cluster.watch_lag_ms=0');
    await openSearch(page, 'children_within_desired');
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /^No violation among [\d,]+ timings/ }).waitFor({ timeout: 10_000 });
    await page.getByRole('checkbox', { name: /^Also lose events/ }).check();
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    const found = region(page, 'Caption').getByRole('status').filter({ hasText: /^Found after/ });
    await found.waitFor({ timeout: 10_000 });
    assert.match(await found.innerText(), /ConfigMap event is lost on the wire/);
    await region(page, 'Invariants').locator('li.invariant.broken', { hasText: 'children_within_desired' }).waitFor();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('Find a bug offers a scenario\'s own invariant by name, finds its break and loads it at that frame', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=job-expectations-by-name');
    await openSearch(page, 'job-gets-its-pods');
    // Offered with what it promises, as a built-in invariant is.
    const option = page.getByRole('combobox', { name: 'Invariant' }).locator('option[value="job-gets-its-pods"]');
    assert.match(await option.getAttribute('title'), /every Job has exactly its desired count of active pods \(declared: liveness\)/);
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    // The preset's own timing breaks it already: nothing held back.
    const outcome = region(page, 'Caption').getByRole('status').filter({ hasText: /^Found without holding anything back/ });
    await outcome.waitFor({ timeout: 10_000 });
    const text = await outcome.innerText();
    const frame = Number(text.match(/job-gets-its-pods breaks at frame (\d+) on the default timing/)[1]);
    assert.equal(await readFrame(page), frame);
    await region(page, 'Invariants').locator('li.invariant.broken', { hasText: 'job-gets-its-pods' }).waitFor();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('Find a bug holds back a scenario\'s own kind\'s event: upstream\'s fix for the Job mends its preset\'s timing, not every one', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=job-expectations-by-name&controller.recipe.delete_expectations_on_delete=true');
    assert.equal(await region(page, 'Invariants').locator('li.invariant.broken').count(), 0, 'the preset\'s timing is mended');
    await openSearch(page, 'job-gets-its-pods');
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    const found = region(page, 'Caption').getByRole('status').filter({ hasText: /^Found after/ });
    await found.waitFor({ timeout: 10_000 });
    const said = await found.innerText();
    assert.match(said, /job-gets-its-pods breaks at frame \d+ when the \d+(st|nd|rd|th) Job event arrives/);
    assert.equal(await readFrame(page), Number(said.match(/breaks at frame (\d+)/)[1]));
    await region(page, 'Invariants').locator('li.invariant.broken', { hasText: 'job-gets-its-pods' }).waitFor();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
