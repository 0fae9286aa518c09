// The Space-time view: one arrow per watch event delivered so far, a click on
// a mark seeks to its frame, and the lag slider tilts the arrows in flight.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROBLEMS, openStage, openPage, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();

const delivered = (page) => region(page, 'Space-time').locator('line.st-arrow:not(.in-flight)');
const inFlight = (page) => region(page, 'Space-time').locator('line.st-arrow.in-flight');

test('Space-time draws one arrow per watch event delivered so far, and a click on one seeks to its frame', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
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
    // The region names what it draws, and the stale reads are marked.
    assert.match(await region(page, 'Space-time').locator('svg').getAttribute('aria-label'), new RegExp(`${seen} watch events delivered`));
    assert.ok((await region(page, 'Space-time').locator('g.st-read.stale').count()) >= 1, 'a stale read is drawn red');
    const arrow = delivered(page).nth(2);
    const target = Number(await arrow.getAttribute('data-frame'));
    await arrow.dispatchEvent('click');
    assert.equal(await readFrame(page), target);
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
    const drop = async () => {
      const a = inFlight(page).first();
      return Number(await a.getAttribute('y2')) - Number(await a.getAttribute('y1'));
    };
    assert.ok((await inFlight(page).count()) > 0);
    const before = await drop();
    const lag = page.getByRole('slider', { name: 'Watch lag' });
    await lag.focus();
    await page.keyboard.press('End');
    await page.waitForFunction(
      (b) => {
        const l = document.querySelector('section[aria-label="Space-time"] line.st-arrow.in-flight');
        return l && Number(l.getAttribute('y2')) - Number(l.getAttribute('y1')) !== b;
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
    const spacetime = region(page, 'Space-time');
    const line = region(page, 'Timeline').locator('ol.audit li', { hasText: 'beta-voice-0' }).first();
    await line.hover();
    await spacetime.locator('circle.st-write.lit').waitFor();
    assert.equal(await spacetime.locator('.lit').count(), 1, 'the write of that audit line, and nothing else');
    const write = spacetime.locator('circle.st-write').nth(3);
    await write.dispatchEvent('mouseover', { bubbles: true });
    await region(page, 'Timeline').locator('ol.audit li.pointed').waitFor();
    assert.equal(await region(page, 'Timeline').locator('ol.audit li.pointed').count(), 1);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
