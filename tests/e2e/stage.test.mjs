// The stage holds still and the lesson is legible (issue 8): the panels that
// tell the story, the caption and the transport fit every screen and do not
// move while the learner steps; the empty cache names nothing; the stale read
// is lit; keys keep the learner's choice; the page is accessible in both
// themes; sharing and loading never fail silently.
// Run: `make build && node --test --test-reporter=spec tests/e2e/stage.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  openMoreSettings,
  axeProblems,
  NO_PROBLEMS,
  atEndOfRun,
  focusPage,
  openStage,
  openPage,
  quiet,
  readFrame,
  region,
  waitForFrame,
  waitForFrameChange,
  withServerAndBrowser,
} from './support.mjs';
import { TELLING, tellingQuery, trace } from './telling.mjs';

const env = withServerAndBrowser();

const PRESETS = [
  'over-create',
  'over-create-surplus',
  'replicaset-pressure',
  'expectations-timeout',
  'empty-cache',
  'read-your-write',
  'teardown',
  'staleness-mitigation',
  'staleness-mitigation-replicaset',
  'two-replicas',
  'lost-bookmark',
];

/** Two laptops, a phone upright and the same phone on its side. */
const VIEWPORTS = [
  [1280, 720],
  [1440, 900],
  [390, 844],
  [844, 390],
];

const byName = (page, role, name) => page.getByRole(role, { name, exact: true });

/** Asserts each locator's box lies inside a `width`×`height` viewport. */
async function assertInside(page, width, height, what) {
  const parts = {
    Cluster: region(page, 'Cluster'),
    Cache: region(page, 'Cache'),
    Caption: region(page, 'Caption'),
    Play: byName(page, 'button', 'Play'),
    'Step forward': byName(page, 'button', 'Step forward'),
  };
  for (const [name, locator] of Object.entries(parts)) {
    const box = await locator.boundingBox();
    assert.ok(box, `${what}: ${name} is drawn`);
    const inside = box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
    assert.ok(inside, `${what}: ${name} at ${JSON.stringify(box)} lies inside ${width}×${height}`);
  }
}

test('every preset, at 1280×720, 1440×900 and a phone either way up: the story on one screen, and Step forward holds still', async () => {
  for (const [width, height] of VIEWPORTS) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      for (const preset of PRESETS) {
        const what = `${preset} at ${width}×${height}`;
        await openStage(page, env.server.url, `?s=${preset}`);
        await assertInside(page, width, height, `${what}, on load`);
        // Forty presses of Step forward, each followed by a task (the app's
        // effects have redrawn by then; reading a box lays the page out),
        // recording where the button is and the frame counter.
        const steps = await page.evaluate(async () => {
          const button = document.querySelector('section[aria-label="Transport"] button[aria-label="Step forward"]');
          const counter = () => [...document.querySelectorAll('section[aria-label="Transport"] span')].find((e) => /^Frame \d+$/.test(e.textContent)).textContent;
          const box = () => JSON.stringify(button.getBoundingClientRect());
          const out = [{ frame: counter(), box: box() }];
          for (let i = 0; i < 40; i++) {
            button.click();
            await new Promise((r) => setTimeout(r, 0));
            out.push({ frame: counter(), box: box() });
          }
          return out;
        });
        assert.ok(steps.at(-1).frame !== steps[0].frame, `${what}: stepping moved the run (${steps.at(-1).frame})`);
        for (const [i, s] of steps.entries()) assert.equal(s.box, steps[0].box, `${what}: Step forward stays put at ${s.frame} (press ${i})`);
        assert.equal(await page.evaluate(() => document.scrollingElement.scrollTop), 0, `${what}: the page itself never scrolled`);
        await assertInside(page, width, height, `${what}, after stepping 40 times`);
      }
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});

test('the 800×500 embed shows its panels, caption and transport with no page scroll, with controls=all too', async () => {
  for (const extra of ['', '&controls=all']) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 800, height: 500 });
    try {
      await openStage(page, env.server.url, `?s=over-create&embed=1&frame=30${extra}`);
      const overflow = await page.evaluate(() => document.scrollingElement.scrollHeight - window.innerHeight);
      assert.ok(overflow <= 0, `embed${extra}: no vertical scroll (${overflow} px over)`);
      await assertInside(page, 800, 500, `embed${extra}`);
      for (const name of ['Watch', 'Expectations']) await assertInside(page, 800, 500, `embed${extra}: ${name}`);
      assert.ok(await byName(page, 'button', 'Play').isVisible());
      if (extra) {
        // The settings are one click away, over the panels.
        await page.getByText('Settings', { exact: true }).click();
        await byName(page, 'slider', 'Watch lag').waitFor();
      }
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});

test('empty-cache: while the store is empty, the Cache region names no object', async () => {
  // A delete halfway through the seeds: the runner's trace has the first LIST
  // reach the controller's store only later, so the store is empty here.
  const frames = trace('empty-cache');
  const { frame, query } = tellingQuery({ preset: 'empty-cache', settings: {}, pick: { at: /deletes ConfigMap seed-20:/ } });
  const filled = frames.find((f) => /^The ConfigMap LIST reaches the controller's cache/.test(f.caption));
  assert.ok(filled.n > frame, `the store fills at frame ${filled.n}, after frame ${frame}`);
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, query);
    await waitForFrame(page, frame);
    const live = await region(page, 'Cluster').locator('li[data-kind="ConfigMap"] .name').allInnerTexts();
    assert.ok(live.length > 0, `the cluster still holds seeds at frame ${frame}`);
    const cache = await region(page, 'Cache').innerText();
    for (const name of live) assert.ok(!cache.includes(name), `frame ${frame}: the empty Cache names ${name}:\n${cache}`);
    assert.match(cache, /Empty\. The first LIST has not reached this store/);
    assert.match(await region(page, 'Cache').innerText(), /HasSynced ✗/);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('over-create: the stale read is lit: the r.List line, aria-current, with what the cache and the cluster hold', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create&controller.naming=generate');
    await focusPage(page);
    const current = region(page, 'Reconcile').locator('li[aria-current="step"]');
    let seen = null;
    for (let i = 0; i < 80 && !seen; i++) {
      const at = await readFrame(page);
      await page.keyboard.press('ArrowRight');
      await waitForFrameChange(page, at);
      if ((await current.count()) === 1 && (await current.innerText()).includes('r.List(ctx, &children')) seen = await current.innerText();
    }
    assert.ok(seen, 'some frame lights the cache read');
    assert.match(seen, /len\(children\) = \d+ · the cache has \d+, the cluster \d+/);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the breaking frame says so: caption and live region name the invariant', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const { frame, query } = tellingQuery({ preset: 'over-create', settings: { 'controller.naming': 'generate' }, pick: { at: /⚠ This breaks/ } });
    await openStage(page, env.server.url, query.replace(`frame=${frame}`, `frame=${frame - 1}`));
    await focusPage(page);
    await page.keyboard.press('ArrowRight');
    await waitForFrame(page, frame);
    const caption = await region(page, 'Caption').locator('p.caption').innerText();
    assert.match(caption, /⚠ This breaks children_within_desired: Ensemble beta wants 4 and now has 5/);
    assert.equal(await page.locator('[aria-live="polite"]').innerText(), caption.trim());
    assert.equal(
      await region(page, 'Invariants').getByRole('button', { name: `children_within_desired broken at frame ${frame}: jump to it`, exact: true }).count(),
      1,
    );
    // Played rather than stepped, the break is announced too.
    await openStage(page, env.server.url, '?s=over-create&controller.naming=generate');
    await focusPage(page);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => /⚠ children_within_desired broken at frame \d+/.test(document.querySelector('[aria-live="polite"]').textContent), null, { timeout: 15_000 });
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('keys keep the learner\'s choice: a clicked setting leaves Space and the arrows to the transport; a tabbed-to one keeps its keys', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create&frame=5');
    const generate = byName(page, 'radio', 'GenerateName');
    await generate.click();
    await region(page, 'Caption').getByRole('status').waitFor();
    await page.keyboard.press('ArrowRight');
    const after = await waitForFrameChange(page, 5);
    assert.ok(after > 5, `→ stepped the run (to frame ${after})`);
    assert.ok(await generate.isChecked(), 'GenerateName is still chosen');
    assert.ok(!decodeURIComponent(page.url()).includes('naming=deterministic'), page.url());
    await page.keyboard.press('ArrowLeft');
    await waitForFrameChange(page, after);
    assert.ok(await generate.isChecked(), '← did not switch it back either');

    // (Double enqueue: a switch over-create's lesson uses, on by default.)
    const doubleEnqueue = byName(page, 'checkbox', 'Double enqueue');
    await doubleEnqueue.click();
    assert.ok(!(await doubleEnqueue.isChecked()));
    await page.keyboard.press(' ');
    await byName(page, 'button', 'Pause').waitFor();
    await page.keyboard.press(' ');
    await byName(page, 'button', 'Play').waitFor();
    assert.ok(!(await doubleEnqueue.isChecked()), 'Space played and paused; Double enqueue is still unticked');

    // A keyboard user who reaches the radio group keeps its native arrows.
    await openStage(page, env.server.url, '?s=over-create&frame=5');
    await byName(page, 'radio', 'Deterministic names').focus();
    await page.keyboard.press('ArrowRight');
    await byName(page, 'radio', 'GenerateName').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('input[type="radio"]')[1].checked);
    assert.equal(await readFrame(page), 5, 'the arrow chose a radio, it did not step');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the help dialog keeps Tab inside it and gives the focus back to "?" when it closes', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    const help = byName(page, 'button', 'Help');
    await help.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), `after ${key} the focus is still in the dialog`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.ok(await help.evaluate((b) => b === document.activeElement), 'the focus is back on "?"');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('garbage collector steps are hidden where they are not the point, and shown where they are', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const captions = async (query) => {
      await openStage(page, env.server.url, query);
      await focusPage(page);
      const seen = [];
      while (!(await atEndOfRun(page)) && seen.length < 400) {
        const at = await readFrame(page);
        await page.keyboard.press('ArrowRight');
        const now = await waitForFrameChange(page, at).catch(() => at);
        if (now === at) break;
        seen.push({ n: now, caption: await region(page, 'Caption').locator('p.caption').innerText() });
      }
      return seen;
    };
    const gc = (c) => c.caption.includes("the garbage collector's cache");
    const hidden = await captions('?s=over-create');
    assert.equal(hidden.filter(gc).length, 0, 'over-create: stepping never stops at the collector\'s own cache');
    assert.ok(hidden.some((c, i) => i > 0 && c.n > hidden[i - 1].n + 1), 'the Frame counter skips the hidden frames');
    await openMoreSettings(page);
    assert.ok(!(await byName(page, 'checkbox', 'GC steps').isChecked()));
    const shown = await captions('?s=over-create&gc=1');
    assert.ok(shown.filter(gc).length > 0, 'with gc=1 they are stepped through');
    await openMoreSettings(page);
    assert.ok(await byName(page, 'checkbox', 'GC steps').isChecked());
    // Teardown is about the collector: shown by default.
    await openStage(page, env.server.url, '?s=teardown');
    await openMoreSettings(page);
    assert.ok(await byName(page, 'checkbox', 'GC steps').isChecked());
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('axe-core finds no serious or critical violation at each telling frame, light and dark, nor in an embed', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720, colorScheme });
    try {
      for (const shot of TELLING) {
        const { frame, query } = tellingQuery(shot);
        await openStage(page, env.server.url, query);
        await waitForFrame(page, frame);
        assert.deepEqual(await axeProblems(page), [], `${shot.file} at frame ${frame}, ${colorScheme}`);
      }
      await openStage(page, env.server.url, '?s=over-create&embed=1&frame=30&controls=all');
      assert.deepEqual(await axeProblems(page), [], `the embed, ${colorScheme}`);
    } finally {
      await context.close();
    }
  }
});

test('without a clipboard, Share shows the link to copy, selected, beside the button', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await page.addInitScript(() => {
      delete Navigator.prototype.clipboard;
    });
    await openStage(page, env.server.url, '?s=over-create&frame=12');
    assert.equal(await page.evaluate(() => 'clipboard' in navigator), false);
    const share = byName(page, 'button', 'Share');
    await share.click();
    const field = page.getByRole('textbox', { name: 'Text to copy' });
    await field.waitFor();
    const link = await field.inputValue();
    assert.match(link, /\?s=over-create&frame=12$/);
    const selected = await field.evaluate((t) => document.activeElement === t && t.selectionStart === 0 && t.selectionEnd === t.value.length);
    assert.ok(selected, 'the link is selected, ready to copy');
    const [button, note] = [await share.boundingBox(), await page.getByRole('status').filter({ has: field }).boundingBox()];
    assert.ok(note.y >= button.y + button.height - 1 && note.y < button.y + button.height + 40, 'the note opens just under the button');
    assert.ok(Math.abs(note.x - button.x) < 200, 'beside the button pressed');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the page says it is loading, and says so clearly when the WebAssembly cannot load', async () => {
  const html = await readFile(fileURLToPath(new URL('../../dist/index.html', import.meta.url)), 'utf8');
  assert.match(html, /id="loading"[^>]*role="status"/, 'index.html itself says it is loading');
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await page.route('**/*.wasm', (route) => route.abort());
    await page.goto(env.server.url, { waitUntil: 'load' });
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 10_000 });
    const text = await alert.innerText();
    assert.match(text, /cachescope could not start/);
    assert.match(text, /did not load/);
    assert.match(text, /\.wasm/, 'it names the file');
  } finally {
    await context.close();
  }
});
