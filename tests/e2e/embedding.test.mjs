// Embedding in a course page: examples/course-page.html (shipped in dist/)
// embeds the app in iframes and drives them through the host-page API
// (window.postMessage, docs/embedding.md), under the strict CSP.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROBLEMS, openPage, quiet, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();


/** Opens the sample course page and records every message its iframes post, by iframe name. */
async function openCoursePage() {
  const opened = await openPage(env.browser, env.server.origin, { width: 1700, height: 1200 });
  const { page } = opened;
  await page.addInitScript(() => {
    window.__messages = [];
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.addEventListener('message', (e) => {
      const iframe = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
      window.__messages.push({ from: iframe?.dataset.name ?? null, origin: e.origin, data: e.data });
    });
  });
  await page.goto(`${env.server.url}examples/course-page.html`, { waitUntil: 'load' });
  // Every iframe says it is ready.
  await page.waitForFunction(
    () => ['over-create', 'empty-cache', 'replicaset', 'lesson'].every((n) => window.__messages.some((m) => m.from === n && m.data?.cachescope === 'ready')),
    null,
    { timeout: 20_000 },
  );
  return opened;
}

/** Posts `message` to the iframe named `name`, from the course page. */
async function post(page, name, message) {
  await page.evaluate(([n, m]) => document.querySelector(`iframe[data-name="${n}"]`).contentWindow.postMessage(m, '*'), [name, message]);
}

/** Waits for the iframe named `name` to report `frame`, and returns that message. */
async function reported(page, name, frame) {
  const handle = await page.waitForFunction(
    ([n, f]) => window.__messages.find((m) => m.from === n && m.data?.cachescope === 'frame' && m.data.frame === f)?.data,
    [name, frame],
    { timeout: 5_000 },
  );
  return handle.jsonValue();
}

test('the course page embeds the app four times over, under the CSP, drives an iframe through postMessage and keeps a lesson\'s score', async () => {
  const { page, context, problems, requests } = await openCoursePage();
  try {
    assert.equal(await page.locator('iframe').count(), 4, 'the over-create runs side by side, the empty cache, the ReplicaSet, the lesson');
    for (const iframe of await page.locator('iframe').all()) {
      assert.ok((await iframe.getAttribute('title'))?.startsWith('cachescope: '), 'each iframe has a title for screen readers');
    }
    // The ReplicaSet iframe opens where its creates are in flight: frame 16, add 10.
    await reported(page, 'replicaset', 16);
    const rs = page.frameLocator('iframe[data-name="replicaset"]');
    assert.match(await rs.getByRole('region', { name: 'Expectations', exact: true }).innerText(), /add 10\s+del 0/);
    // The empty-cache iframe opens at frame 0. Step three times: it reports
    // frame 3, with the clock and the invariants.
    for (let i = 0; i < 3; i++) await post(page, 'empty-cache', { cachescope: 'step' });
    const three = await reported(page, 'empty-cache', 3);
    assert.equal(typeof three.time_ms, 'number');
    // The invariants that say something of the pruner (it has no owners and no pods).
    assert.deepEqual(Object.keys(three.invariants).sort(), ['no_delete_before_sync', 'no_delete_of_uncached']);
    const app = page.frameLocator('iframe[data-name="empty-cache"]');
    assert.equal(await app.getByText(/^Frame \d+$/).innerText(), 'Frame 3', 'the iframe draws frame 3');
    // Back, seek, reset.
    await post(page, 'empty-cache', { cachescope: 'back' });
    await reported(page, 'empty-cache', 2);
    await post(page, 'empty-cache', { cachescope: 'seek', frame: 20 });
    await reported(page, 'empty-cache', 20);
    assert.equal(await app.getByText(/^Frame \d+$/).innerText(), 'Frame 20');
    await post(page, 'empty-cache', { cachescope: 'reset' });
    await page.waitForFunction(() => window.__messages.filter((m) => m.from === 'empty-cache').at(-1)?.data?.frame === 0);
    // Play, then pause: frames go by (one message per drawn frame, with the latest) and stop.
    await post(page, 'empty-cache', { cachescope: 'play' });
    await page.waitForFunction(() => window.__messages.some((m) => m.from === 'empty-cache' && m.data?.cachescope === 'frame' && m.data.frame >= 10), null, { timeout: 10_000 });
    await post(page, 'empty-cache', { cachescope: 'pause' });
    await app.getByRole('button', { name: 'Play', exact: true }).waitFor();

    // The over-create runs side by side in one iframe, with one transport (no script of the page's own).
    const both = page.frameLocator('iframe[data-name="over-create"]');
    await both.getByRole('region', { name: 'Run B', exact: true }).waitFor();
    assert.match(await both.getByRole('region', { name: 'Run B', exact: true }).innerText(), /controller\.naming = generate/);
    assert.equal(await page.getByRole('button', { name: 'Step both' }).count(), 0, 'no buttons of the page drive two iframes');
    // The lesson iframe: an answer comes back, and the page shows it beside its score.
    const lesson = page.frameLocator('iframe[data-name="lesson"]').getByRole('region', { name: 'Lesson', exact: true });
    await lesson.getByLabel('Your prediction').fill('0');
    await lesson.getByRole('button', { name: 'Check' }).click();
    await page.locator('output[data-score-of="lesson"]', { hasText: 'step 1: you said 0, the run says 0 ✓' }).waitFor({ timeout: 15_000 });

    await page.waitForLoadState('networkidle');
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'no CSP violation on the course page');
    for (const url of requests) assert.equal(new URL(url).origin, env.server.origin, `same origin: ${url}`);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a host can load a whole scenario into an iframe', async () => {
  const { page, context, problems } = await openCoursePage();
  try {
    const scenario = {
      name: 'three-seeds',
      description: 'Three seed ConfigMaps and a pruner that waits for its cache.',
      controller: { kind: 'pruner', wait_for_cache_sync: true },
      objects: [{ kind: 'ConfigMap', name: 'seed-{i}', count: 3 }],
    };
    await post(page, 'empty-cache', { cachescope: 'load', scenario });
    const app = page.frameLocator('iframe[data-name="empty-cache"]');
    await app.locator('section[aria-label="Cluster"] li[data-kind="ConfigMap"]').nth(2).waitFor();
    assert.equal(await app.locator('section[aria-label="Cluster"] li[data-kind="ConfigMap"]').count(), 3, 'the loaded scenario is drawn');
    await reported(page, 'empty-cache', 0);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a malformed message is ignored with a visible notice naming what is wrong, and no console error', async () => {
  const { page, context, problems } = await openCoursePage();
  try {
    const app = page.frameLocator('iframe[data-name="replicaset"]');
    for (const [message, needle] of [
      [{ cachescope: 'jump' }, '"jump"'],
      [{ cachescope: 'seek', frame: 'ten' }, '"ten"'],
      [{ cachescope: 'load', scenario: { name: 'x', controler: {} } }, 'controler'],
    ]) {
      await post(page, 'replicaset', message);
      const notice = app.getByRole('status').filter({ hasText: 'Ignored a message' });
      await notice.filter({ hasText: needle }).waitFor({ timeout: 5_000 });
      assert.equal(await notice.count(), 1, 'one notice, replaced by the next');
    }
    // Messages not meant for cachescope at all are left alone, silently.
    await post(page, 'replicaset', { type: 'something-else' });
    await post(page, 'replicaset', 'hello');
    assert.equal(await app.getByText(/^Frame \d+$/).innerText(), 'Frame 16', 'nothing moved');
    // The next good message takes the stale notice down.
    await post(page, 'replicaset', { cachescope: 'seek', frame: 3 });
    await app.getByText(/^Frame 3$/).waitFor({ timeout: 5_000 });
    assert.equal(await app.getByRole('status').filter({ hasText: 'Ignored a message' }).count(), 0, 'the notice is gone');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('origin= restricts which parent is obeyed', async () => {
  const { page, context, problems } = await openCoursePage();
  try {
    // Re-point one iframe at the app with origin= naming another site.
    await page.evaluate(() => {
      const f = document.querySelector('iframe[data-name="replicaset"]');
      f.src = '../?s=replicaset-pressure&embed=1&origin=https%3A%2F%2Fcourses.example.org';
    });
    // The new document, drawn (not the old one, which has a Cluster panel too).
    await page.waitForFunction(
      () => {
        const w = document.querySelector('iframe[data-name="replicaset"]').contentWindow;
        return w.location.search.includes('origin=') && w.document.querySelector('section[aria-label="Cluster"]') !== null;
      },
      null,
      { timeout: 20_000 },
    );
    await post(page, 'replicaset', { cachescope: 'step' });
    const app = page.frameLocator('iframe[data-name="replicaset"]');
    await app.getByRole('status').filter({ hasText: 'obeys only https://courses.example.org' }).waitFor({ timeout: 5_000 });
    assert.equal(await app.getByText(/^Frame \d+$/).innerText(), 'Frame 0', 'the step was not obeyed');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('autoplay=1 starts an embed playing at the speed= it names', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 800, height: 500 });
  try {
    await page.goto(`${env.server.url}?s=replicaset-pressure&embed=1&autoplay=1&speed=10`, { waitUntil: 'load' });
    const transport = page.getByRole('region', { name: 'Transport', exact: true });
    await transport.waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor({ timeout: 5_000 });
    await page.waitForFunction(() => /^Frame [1-9]/.test([...document.querySelectorAll('section[aria-label="Transport"] span')].map((e) => e.textContent).find((t) => /^Frame \d+$/.test(t)) ?? ''));
    assert.equal(await page.getByRole('slider', { name: 'Speed', exact: true }).getAttribute('aria-valuetext'), '×10');
    assert.equal(await page.getByRole('button', { name: 'Share', exact: true }).count(), 0, 'no page header');
    assert.equal(await page.getByRole('heading', { level: 1, name: 'cachescope: replicaset-pressure' }).count(), 1, 'a heading for assistive technology');
    assert.equal(await page.getByRole('region', { name: 'Controls', exact: true }).count(), 0, 'transport only');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a WebAssembly trap is never silent: the page says what happened, offers a reload at frame 0, and tells the host page', async () => {
  const { page, context } = await openCoursePage();
  try {
    const iframe = page.frames().find((f) => f.url().includes('replicaset-pressure'));
    assert.ok(iframe, 'the ReplicaSet iframe');
    // A trap surfaces in the page as an uncaught WebAssembly.RuntimeError (what
    // Chromium raised for the over-budget link): the same event here.
    await iframe.evaluate(() => {
      const error = new WebAssembly.RuntimeError('unreachable');
      window.dispatchEvent(new ErrorEvent('error', { error, message: String(error) }));
    });
    const app = page.frameLocator('iframe[data-name="replicaset"]');
    const alert = app.getByRole('alert').filter({ hasText: 'cachescope stopped' });
    await alert.waitFor({ timeout: 5_000 });
    assert.match(await alert.innerText(), /RuntimeError: unreachable/, 'it names what happened');
    const reload = alert.getByRole('link', { name: 'Reload at frame 0' });
    const href = new URL(await reload.getAttribute('href'));
    assert.equal(href.searchParams.get('frame'), '0');
    assert.equal(href.searchParams.get('s'), 'replicaset-pressure', 'the same scenario');
    const told = await page.waitForFunction(
      () => window.__messages.find((m) => m.from === 'replicaset' && m.data?.cachescope === 'error')?.data,
      null,
      { timeout: 5_000 },
    );
    assert.match((await told.jsonValue()).message, /RuntimeError: unreachable/);
  } finally {
    await context.close();
  }
});
