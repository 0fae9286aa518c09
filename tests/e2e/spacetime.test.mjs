// The Space-time view: one arrow per watch event delivered so far, a click on
// a mark seeks to its frame, and the lag slider tilts the arrows in flight.
// The page paints it on a canvas; its text alternative, "The drawing in
// words", lists every mark with where it is drawn, so the tests read the
// marks there, point and click at those places on the canvas, and check the
// canvas's pixels.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROBLEMS, openStage, openPage, quiet, readFrame, region, waitForFrame, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();

const words = (page) => region(page, 'Space-time').locator('ol.st-list');
const delivered = (page) => words(page).locator('li.st-arrow:not(.in-flight)');
const inFlight = (page) => words(page).locator('li.st-arrow.in-flight');

/** Opens "The drawing in words". */
async function openWords(page) {
  await region(page, 'Space-time').getByText('The drawing in words', { exact: true }).click();
}

/** Where the drawing's point (x, y), in drawing units, is on the page: the canvas fits the drawing centred, as the SVG's viewBox does. */
async function onPage(page, x, y) {
  return page.locator('canvas.spacetime').evaluate(
    (c, [x, y]) => {
      const r = c.getBoundingClientRect();
      const [w, h] = c.style.aspectRatio.split('/').map(Number);
      const k = Math.min(r.width / w, r.height / h);
      return { x: r.left + (r.width - w * k) / 2 + x * k, y: r.top + (r.height - h * k) / 2 + y * k };
    },
    [x, y],
  );
}

/** A listed mark's place on the page. */
async function placeOf(mark) {
  const [x, y] = await Promise.all([mark.getAttribute('data-x'), mark.getAttribute('data-y')]);
  return onPage(mark.page(), Number(x), Number(y));
}

/** The canvas's colour at a point of the page, and the stylesheet's colour `name` (a custom property), both as [r, g, b]. */
async function colourAt(page, { x, y }, name) {
  return page.locator('canvas.spacetime').evaluate(
    (c, [x, y, name]) => {
      const r = c.getBoundingClientRect();
      const d = c.width / r.width;
      const [pr, pg, pb] = c.getContext('2d').getImageData(Math.round((x - r.left) * d), Math.round((y - r.top) * d), 1, 1).data;
      const probe = document.createElement('canvas').getContext('2d');
      probe.fillStyle = getComputedStyle(c).getPropertyValue(name).trim();
      const hex = probe.fillStyle;
      return { painted: [pr, pg, pb], wanted: [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) };
    },
    [x, y, name],
  );
}

test('Space-time draws one arrow per watch event delivered so far, and a click on one seeks to its frame', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    await openWords(page);
    const caption = page.locator('.caption').first();
    const forward = page.getByRole('button', { name: 'Step forward' });
    // Step through the run (stepping skips the garbage collector's own deliveries,
    // which are not the controller's arrows), counting the deliveries the captions name.
    let seen = 0;
    let frame = 0;
    while (!(await region(page, 'Transport').getByText('End of run', { exact: true }).count())) {
      await forward.click();
      const now = await readFrame(page);
      if (now === frame) break;
      frame = now;
      if (/reaches the controller's cache after/.test(await caption.innerText())) seen += 1;
      assert.equal(await delivered(page).count(), seen, `frame ${frame}: one arrow per delivered event`);
    }
    assert.ok(seen >= 5, `${seen} events delivered`);
    // The region names what it draws, and the stale reads are marked, in words and in red on the canvas.
    assert.match(await page.locator('canvas.spacetime').getAttribute('aria-label'), new RegExp(`${seen} watch events delivered`));
    const stale = words(page).locator('li.st-read.stale');
    assert.ok((await stale.count()) >= 1, 'a stale read is listed as stale');
    await region(page, 'Space-time').locator('canvas').scrollIntoViewIfNeeded();
    const { painted, wanted } = await colourAt(page, await placeOf(stale.first()), '--c-danger');
    assert.deepEqual(painted, wanted, 'the stale read is painted in the danger colour');
    // Its button seeks to the mark's frame.
    const arrow = delivered(page).nth(2).getByRole('button');
    const target = Number(await arrow.getAttribute('data-frame'));
    await arrow.click();
    assert.equal(await readFrame(page), target);
    // So does a click on the canvas where the mark is drawn: the first write, alone at 0.5 s.
    const write = words(page).locator('li.st-write').first();
    const writeFrame = Number(await write.getByRole('button').getAttribute('data-frame'));
    await region(page, 'Space-time').locator('canvas').scrollIntoViewIfNeeded();
    const at = await placeOf(write);
    await page.mouse.click(at.x, at.y);
    assert.equal(await readFrame(page), writeFrame, 'a click on the painted write seeks to its frame');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('dragging the lag slider tilts the arrows in flight', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    // Frame 23 of over-create: the first reconcile's creates are on the wire.
    await openStage(page, env.server.url, '?s=over-create&frame=23');
    await openWords(page);
    const drop = async () => {
      const a = inFlight(page).first();
      return Number(await a.getAttribute('data-y2')) - Number(await a.getAttribute('data-y1'));
    };
    // The list is built when the details open, a turn after the click.
    await inFlight(page).first().waitFor();
    assert.ok((await inFlight(page).count()) > 0);
    const before = await drop();
    const lag = page.getByRole('slider', { name: 'Watch lag' });
    await lag.focus();
    await page.keyboard.press('End');
    await page.waitForFunction(
      (b) => {
        const l = document.querySelector('section[aria-label="Space-time"] li.st-arrow.in-flight');
        return l && Number(l.getAttribute('data-y2')) - Number(l.getAttribute('data-y1')) !== b;
      },
      before,
    );
    const after = await drop();
    console.log(`# an arrow in flight drops ${before.toFixed(1)} units at the preset's lag, ${after.toFixed(1)} at the slider's end`);
    assert.ok(after > before, 'a longer lag, a steeper arrow');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the audit log and the Space-time view point to each other', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create&frame=40');
    await openWords(page);
    const line = region(page, 'Timeline').locator('ol.audit li', { hasText: 'beta-voice-0' }).first();
    await line.hover();
    await words(page).locator('li.st-write[aria-current="true"]').waitFor();
    assert.equal(await words(page).locator('[aria-current="true"]').count(), 1, 'the write of that audit line, and nothing else');
    // The pointer on the canvas, on the fourth write, lights one audit line, and the canvas's tooltip names the write.
    const canvas = region(page, 'Space-time').locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    const at = await placeOf(words(page).locator('li.st-write').nth(3));
    await page.mouse.move(at.x, at.y);
    await region(page, 'Timeline').locator('ol.audit li.pointed').waitFor();
    assert.equal(await region(page, 'Timeline').locator('ol.audit li.pointed').count(), 1);
    assert.match(await canvas.getAttribute('title'), /^frame \d+: create ConfigMap /);
    // Keyboard alone: a mark's button, focused, lights its audit line too.
    await page.mouse.move(0, 0);
    const read = words(page).locator('li.st-read').first().getByRole('button');
    await read.focus();
    const readFrame_ = Number(await read.getAttribute('data-frame'));
    await words(page).locator('li.st-read[aria-current="true"]').waitFor();
    assert.equal(await words(page).locator('[aria-current="true"] button').getAttribute('data-frame'), String(readFrame_));
    const focusedFrame = () => page.evaluate(() => document.activeElement?.getAttribute('data-frame'));
    assert.equal(await focusedFrame(), String(readFrame_), 'lighting it keeps the focus on its button');
    // Enter seeks there; the list is redrawn at that frame and the focus is on the same mark's button.
    await page.keyboard.press('Enter');
    await waitForFrame(page, readFrame_);
    await page.waitForFunction((f) => document.activeElement?.getAttribute('data-frame') === f, String(readFrame_));
    // At its own frame the read is the latest mark: Shift+Tab goes back to the one before it.
    await page.keyboard.press('Shift+Tab');
    assert.notEqual(await focusedFrame(), String(readFrame_), 'Shift+Tab goes back to the mark before');
    assert.match(String(await focusedFrame()), /^\d+$/, 'a mark of the list');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('While playing, Space-time out of view is not repainted; in view, or at a pause, it is', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create&speed=1');
    const canvas = page.locator('canvas.spacetime');
    const pixels = () => canvas.evaluate((c) => c.toDataURL());
    const play = page.getByRole('button', { name: 'Play', exact: true });
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    // Below the first screen: the frames go by and the canvas keeps what it had.
    const below = () => canvas.evaluate((c) => c.getBoundingClientRect().top >= document.querySelector('.stage-scroll').getBoundingClientRect().bottom);
    assert.equal(await below(), true, 'below the stage at 1280×720');
    const before = await pixels();
    const from = await readFrame(page);
    await play.click();
    await page.waitForFunction((f) => Number(document.querySelector('.clock .frame')?.textContent.match(/\d+/)?.[0]) > f + 3, from);
    assert.equal(await pixels(), before, 'not repainted while playing out of view');
    // Paused, it is the paused frame's drawing.
    await pause.click();
    await page.waitForFunction((was) => document.querySelector('canvas.spacetime').toDataURL() !== was, before);
    const paused = await pixels();
    // Scrolled into view while playing, it is painted again as the run goes on.
    await canvas.scrollIntoViewIfNeeded();
    await play.click();
    await page.waitForFunction((was) => document.querySelector('canvas.spacetime').toDataURL() !== was, paused);
    await pause.click();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
