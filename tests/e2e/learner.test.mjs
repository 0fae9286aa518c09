// The first five minutes, as a learner who follows the lab literally: change
// one line and run it again, on a phone too; a place to start, the lab's
// figures kept until the end, nothing that matters clipped or covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  atEndOfRun,
  axeProblems,
  focusPage,
  openStage,
  openPage,
  readFrame,
  region,
  waitForFrame,
  waitForFrameChange,
  withServerAndBrowser,
} from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every preset's document, as its author wrote it. */
async function presets() {
  const names = JSON.parse(await readFile(`${ROOT}scenarios/index.json`, 'utf8').catch(() => 'null'));
  const list = names ?? ['empty-cache', 'expectations-timeout', 'over-create', 'over-create-surplus', 'read-your-write', 'replicaset-pressure', 'staleness-mitigation', 'staleness-mitigation-replicaset', 'teardown', 'two-replicas'];
  return Promise.all(list.map(async (name) => JSON.parse(await readFile(`${ROOT}scenarios/${name}.json`, 'utf8'))));
}

/** ConfigMaps the Cluster region names. */
async function clusterConfigMaps(page) {
  return region(page, 'Cluster').locator('[data-kind="ConfigMap"][data-present="true"]').count();
}

/** Waits for the end of a run that is playing, however long its frames take to draw. */
async function playedToEnd(page, timeout = 60_000) {
  await page.waitForFunction(() => /End of run/.test(document.querySelector('section[aria-label="Transport"]')?.innerText ?? ''), null, {
    timeout,
  });
}

test("lab 1, literally: played to its end, then GenerateName: the next run makes 11, Reset keeps it, Back to the preset undoes it", async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create&speed=1000');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await playedToEnd(page);
    assert.equal(await clusterConfigMaps(page), 4, 'deterministic names: four');
    await page.getByRole('radio', { name: 'GenerateName', exact: true }).check();
    // The change is the learner's next run: made from frame 0, and played.
    await page.locator('.notice').getByText('GenerateName chosen from the start: the run is replayed.').waitFor();
    await playedToEnd(page);
    assert.equal(await clusterConfigMaps(page), 11, 'GenerateName from the start: eleven');
    const checks = region(page, 'Observations').locator('li.check');
    assert.ok((await checks.count()) > 0);
    assert.equal(await region(page, 'Observations').locator('li.check.failed').count(), 0, 'the GenerateName checks hold');
    assert.match(await region(page, 'Observations').innerText(), /measured 11/);
    assert.match(page.url(), /controller\.naming=generate/);
    assert.doesNotMatch(page.url(), /edit=/, 'a setting from the start, not a change at a frame');
    // Reset: frame 0, the learner's settings kept.
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await waitForFrame(page, 0);
    assert.ok(await page.getByRole('radio', { name: 'GenerateName', exact: true }).isChecked(), 'Reset keeps GenerateName');
    // Back to the preset: the lab's own.
    await page.getByRole('button', { name: 'Back to the preset', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('input[type=radio]:checked')?.parentElement?.textContent?.includes('Deterministic'));
    assert.doesNotMatch(page.url(), /naming/);
    assert.deepEqual(problems.pageErrors, []);
  } finally {
    await context.close();
  }
});

test('a setting changed mid-run forks there, says so, and offers to apply it from the start', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create&frame=10&speed=1000');
    await page.getByRole('radio', { name: 'GenerateName', exact: true }).check();
    const notice = page.locator('.notice');
    await notice.getByText('GenerateName chosen from frame 10 on').waitFor();
    assert.equal(await readFrame(page), 10, 'the page stays where the change was made');
    // The notice sits beside the caption bar, over no panel.
    const box = await notice.boundingBox();
    for (const name of ['Reconcile', 'Cluster', 'Cache', 'Observations']) {
      const r = await region(page, name).boundingBox();
      const overlaps = box.x < r.x + r.width && r.x < box.x + box.width && box.y < r.y + r.height && r.y < box.y + box.height;
      assert.ok(!overlaps, `the notice covers the ${name} region`);
    }
    await notice.getByRole('button', { name: 'Apply from the start', exact: true }).click();
    await page.getByText('controller.naming from the start: the run is replayed.').waitFor();
    await playedToEnd(page);
    assert.equal(await clusterConfigMaps(page), 11);
  } finally {
    await context.close();
  }
});

const PHONES = [
  { width: 390, height: 844 },
  { width: 844, height: 390 },
];

/** The accessible role and name a declared control is drawn with. */
function controlOf(what) {
  const own = {
    'cluster.watch_lag_ms': ['slider', 'Watch lag'],
    'cluster.initial_list_ms': ['slider', 'First LIST'],
    'controller.naming': ['radio', 'GenerateName'],
    'controller.double_enqueue': ['checkbox', 'Double enqueue'],
    'controller.expectations': ['checkbox', 'Expectations'],
    'controller.consistency_store': ['checkbox', 'Consistency store (KEP-5647)'],
    'controller.update_status': ['checkbox', 'Write status'],
    'controller.wait_for_cache_sync': ['checkbox', 'Wait for cache sync'],
    'controller.delete_surplus': ['checkbox', 'Delete surplus'],
    'controller.owner_references': ['checkbox', 'ownerReferences'],
    delete_pod: ['button', 'Delete a pod'],
    drop_next_event: ['button', 'Drop next watch event'],
    restart_controller: ['button', 'Restart controller'],
    pause_controller: ['button', 'Freeze the leader 30 s'],
    fail_next_create: ['combobox', 'Fail the next create'],
  };
  if (own[what]) return own[what];
  if (what === 'scale') return ['spinbutton', /^(Voices|Replicas)$/];
  if (what === 'delete_owner') return ['button', /^Delete the (Ensemble|ReplicaSet)$/];
  return [null, what];
}

test("on a phone, either way up: Settings shows the lesson's own controls, labelled, closes on Escape and outside, and every button is 44 px", async () => {
  const all = await presets();
  for (const viewport of PHONES) {
    const { page, context } = await openPage(env.browser, env.server.origin, viewport);
    try {
      for (const p of all) {
        await openStage(page, env.server.url, `?s=${p.name}`);
        const summary = page.locator('details.settings > summary');
        await summary.click();
        const controls = region(page, 'Controls');
        await controls.waitFor();
        for (const what of p.controls ?? []) {
          const [role, name] = controlOf(what);
          const el = role ? controls.getByRole(role, { name, exact: typeof name === 'string' }) : controls.getByLabel(name, { exact: true });
          assert.ok(await el.first().isVisible(), `${p.name} at ${viewport.width}×${viewport.height}: ${what} is shown with its name`);
          // Its visible label is there too, not only its accessible name.
          const box = await el.first().boundingBox();
          assert.ok(box.width > 0 && box.height > 0, `${p.name}: ${what} has a size`);
        }
        // The popover is below its button, never over it.
        const s = await summary.boundingBox();
        const c = await controls.boundingBox();
        assert.ok(c.y >= s.y + s.height - 1, `${p.name} at ${viewport.width}: the settings cover their own button`);
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => !document.querySelector('details.settings').open);
        assert.ok(await summary.evaluate((el) => el === document.activeElement), `${p.name}: Escape gives the focus back to Settings`);
        // A tap outside closes it too, and the focus goes back to its button.
        await summary.click();
        await controls.waitFor();
        // Outside: the page's top edge, above every summary, which no popover covers (the settings may cover the rest).
        await page.mouse.click(viewport.width / 2, 1);
        await page.waitForFunction(() => !document.querySelector('details.settings').open);
        assert.ok(await summary.evaluate((el) => el === document.activeElement), `${p.name}: a tap outside gives the focus back to Settings`);
        // Every visible button, at rest, is a touch target.
        const small = await page.evaluate(() =>
          [...document.querySelectorAll('button, summary, [role="button"]')]
            .filter((b) => b.offsetParent !== null && getComputedStyle(b).visibility !== 'hidden')
            .map((b) => ({ name: b.getAttribute('aria-label') ?? b.textContent.trim(), r: b.getBoundingClientRect() }))
            .filter(({ r }) => r.width > 0 && (r.width < 43.5 || r.height < 43.5))
            .map(({ name, r }) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`),
        );
        assert.deepEqual(small, [], `${p.name} at ${viewport.width}×${viewport.height}: buttons under 44 px`);
      }
    } finally {
      await context.close();
    }
  }
});

test('on a phone, either way up, with a preset edited: every control of the header is on the screen, its words on one line, Help on a row with others', async () => {
  for (const viewport of PHONES) {
    const { page, context } = await openPage(env.browser, env.server.origin, viewport);
    try {
      // An edit shows "Back to the preset": the header's most crowded state.
      await openStage(page, env.server.url, '?s=over-create&cluster.watch_lag_ms=900');
      await page.getByRole('button', { name: 'Back to the preset', exact: true }).waitFor();
      const { off, tall, wide, alone } = await page.evaluate(() => {
        const controls = [...document.querySelectorAll('header.app-header :is(button, summary, select)')]
          .filter((c) => c.offsetParent !== null && !c.closest('details:not([open]) > :not(summary)'))
          .map((c) => ({ name: c.getAttribute('aria-label') ?? c.textContent.trim(), r: c.getBoundingClientRect() }));
        return {
          off: controls.filter(({ r }) => r.left < 0 || r.right > innerWidth + 0.5).map(({ name }) => name),
          // One line of words in a 44 px target; two lines are 60 px and more.
          tall: controls.filter(({ r }) => r.height > 52).map(({ name, r }) => `${name} ${Math.round(r.height)} px`),
          wide: document.documentElement.scrollWidth - innerWidth,
          // Help shares a row: on one of its own it took 49 px of a phone's header.
          alone: (() => {
            const help = controls.find(({ name }) => name === 'Help')?.r;
            return !help || !controls.some(({ name, r }) => name !== 'Help' && r.top + r.height / 2 > help.top && r.top + r.height / 2 < help.bottom);
          })(),
        };
      });
      const at = `${viewport.width}×${viewport.height}`;
      assert.deepEqual(off, [], `at ${at}, header controls off the screen`);
      assert.deepEqual(tall, [], `at ${at}, header controls whose words take more than one line`);
      assert.ok(wide <= 0, `at ${at}, the page is ${wide} px wider than the screen`);
      assert.ok(!alone, `at ${at}, Help is on a row of its own (or missing)`);
    } finally {
      await context.close();
    }
  }
});

test('every preset starts with a line that fits, keeps the lab’s figures until asked, and ends on a sentence stating them', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    for (const p of await presets()) {
      await openStage(page, env.server.url, `?s=${p.name}`);
      const caption = region(page, 'Caption').locator('p.caption');
      if (p.start) assert.ok((await caption.innerText()).startsWith(p.start), `${p.name}: frame 0 says its start line`);
      const fits = await caption.evaluate((el) => el.scrollHeight <= el.clientHeight);
      assert.ok(fits, `${p.name}: the start line is clipped`);
      const obs = await region(page, 'Observations').innerText();
      assert.doesNotMatch(obs, /measured/, `${p.name}: a measured figure before the learner asked`);
      await openStage(page, env.server.url, `?s=${p.name}&frame=1000000`);
      await atEndOfRun(page);
      const checks = region(page, 'Observations').locator('li.check');
      const said = await caption.innerText();
      for (let i = 0; i < (await checks.count()); i++) {
        const f = await checks.nth(i).locator('.figures').innerText();
        const text = await checks.nth(i).locator('.text').innerText();
        const measured = f.match(/measured (.+)$/)?.[1];
        assert.ok(measured, `${p.name}: ${f}`);
        // An invariant broken 0 or 1 times is stated by the list it is named in.
        const invariant = text.match(/\b(children_within_desired|all_pods_within_replicas|no_delete_before_sync|no_delete_of_uncached|no_orphans)\b/)?.[1];
        // A count over a window of time is said in the check's own words where it holds, never as seconds.
        const held = (await checks.nth(i).getAttribute('class')).includes('held');
        const stated =
          invariant && (measured === '0' || measured === '1')
            ? new RegExp(`${measured === '0' ? 'Held' : 'Broken'}: [^.]*\\b${invariant}\\b`).test(said)
            : said.includes(measured) || (held && said.includes(text.replace(/\s*: (holds|does not hold|not measured yet)\s*$/, '').trim()));
        assert.ok(stated, `${p.name}: the last caption does not state ${measured} (${text}): ${said}`);
      }
    }
  } finally {
    await context.close();
  }
});

test("at 1280×720 on over-create's frame 18 the Cache's gap shows whole, and Play is a skip link away", async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create&frame=18');
    const lacks = region(page, 'Cache').locator('header .lacks');
    assert.match(await lacks.innerText(), /^lacks \d+$/);
    const clipped = await lacks.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const h = el.closest('header').getBoundingClientRect();
      const counts = el.closest('.counts');
      return r.right > h.right + 0.5 || counts.scrollWidth > counts.clientWidth + 0.5;
    });
    assert.ok(!clipped, 'the Cache header clips "lacks N"');
    // From the page's start: the first Tab reaches the skip link, which lands on Play.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the transport');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'play');
  } finally {
    await context.close();
  }
});

test('axe-core: no serious or critical violation on any preset at its first, middle and last frame, light and dark, nor mid-step', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720, colorScheme });
    try {
      for (const p of await presets()) {
        await openStage(page, env.server.url, `?s=${p.name}&frame=1000000`);
        await atEndOfRun(page);
        const last = await readFrame(page);
        for (const frame of [0, Math.floor(last / 2), last]) {
          await openStage(page, env.server.url, `?s=${p.name}&frame=${frame}`);
          assert.deepEqual(await axeProblems(page), [], `${p.name} at frame ${frame}, ${colorScheme}`);
        }
      }
      // Quick steps: text mid-transition keeps its contrast.
      await openStage(page, env.server.url, '?s=replicaset-pressure');
      await focusPage(page);
      for (let i = 1; i <= 60; i++) {
        await page.getByRole('button', { name: 'Step forward', exact: true }).click();
        if (i % 10 === 0) assert.deepEqual(await axeProblems(page, { settle: false }), [], `replicaset-pressure after ${i} quick steps, ${colorScheme}`);
      }
    } finally {
      await context.close();
    }
  }
});

test('the hands on an event are named, and Drop hands the focus to a neighbour, never to the page', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    const watch = region(page, 'Watch');
    // Step to the first event on its way.
    await focusPage(page);
    for (let i = 0; i < 30 && (await watch.getByRole('button', { name: /^Drop/ }).count()) === 0; i++) {
      const at = await readFrame(page);
      await page.keyboard.press('ArrowRight');
      await waitForFrameChange(page, at);
    }
    assert.match(await watch.innerText(), /deliver now · ‖ hold · ✕ drop/, 'a legend for the three buttons');
    assert.match(await region(page, 'Caption').innerText(), /three buttons in the Watch panel/, 'the first caption with events in flight points to them');
    const drop = watch.getByRole('button', { name: /^Drop/ }).first();
    await drop.focus();
    await page.keyboard.press('Enter');
    await page.locator('.notice').waitFor();
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      inWatch: !!document.activeElement?.closest('section[aria-label="Watch"]'),
    }));
    assert.notEqual(focused.tag, 'BODY', 'the focus fell to the page');
    assert.ok(focused.inWatch, `the focus left the Watch panel: ${JSON.stringify(focused)}`);
  } finally {
    await context.close();
  }
});

test('Voices takes what is typed on Enter, and says so', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create&frame=30');
    await page.locator('details.more-settings > summary').click();
    const voices = page.getByRole('spinbutton', { name: 'Voices', exact: true });
    await voices.fill('6');
    await voices.press('Enter');
    await page.locator('.notice').getByText(/^Scaled to 6 \(kubectl scale\)/).waitFor();
    await page.waitForFunction(() => document.querySelector('input#desired')?.value === '6');
    assert.ok((await readFrame(page)) > 30, 'the scale is the next frame, shown');
  } finally {
    await context.close();
  }
});
