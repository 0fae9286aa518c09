// Playback pauses itself when the tab is hidden, and prefers-reduced-motion
// makes every move instant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROBLEMS, openStage, openPage, quiet, readFrame, withServerAndBrowser } from './support.mjs';


const env = withServerAndBrowser();

test('playback pauses itself when the tab is hidden', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  try {
    await openStage(page, env.server.url, '?s=replicaset-pressure');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    await pause.waitFor();
    // What the browser does when the learner switches tabs.
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 2_000 });
    const frame = await readFrame(page);
    await page.waitForTimeout(300);
    assert.equal(await readFrame(page), frame, 'nothing moves while hidden');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

for (const reducedMotion of ['reduce', 'no-preference']) {
  test(`the touched row arrives ${reducedMotion === 'reduce' ? 'instantly with' : 'by moving without'} prefers-reduced-motion, and no other row moves`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { reducedMotion });
    try {
      // Frame 13 creates beta-voice-1; beta-voice-0, created at frame 12, is drawn again untouched.
      await openStage(page, env.server.url, '?s=over-create&frame=13');
      const cluster = page.getByRole('region', { name: 'Cluster', exact: true });
      const touched = cluster.locator('li.touched[data-kind=ConfigMap]');
      await touched.waitFor();
      assert.match(await touched.getAttribute('title'), /beta-voice-1$/);
      const motion = (row) => row.evaluate((el) => [getComputedStyle(el).animationName, Number(getComputedStyle(el).animationDuration.replace(/s$/, ''))]);
      const [name, seconds] = await motion(touched);
      assert.equal(name, 'appear');
      if (reducedMotion === 'reduce') {
        assert.ok(seconds <= 0.001, `instant: ${seconds} s`);
      } else {
        assert.ok(seconds >= 0.1, `animated: ${seconds} s`);
      }
      const before = cluster.locator('li[data-kind=ConfigMap][title$="beta-voice-0"]');
      assert.equal((await motion(before))[0], 'none', 'a row the frame does not act on does not move');
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  });
}
