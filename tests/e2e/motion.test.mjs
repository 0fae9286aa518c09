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
  test(`rows appear ${reducedMotion === 'reduce' ? 'instantly with' : 'with a short fade without'} prefers-reduced-motion`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { reducedMotion });
    try {
      await openStage(page, env.server.url, '?s=over-create&frame=12');
      const row = page.getByRole('region', { name: 'Cluster', exact: true }).locator('li[data-kind=ConfigMap]').first();
      await row.waitFor();
      const seconds = Number((await row.evaluate((el) => getComputedStyle(el).animationDuration)).replace(/s$/, ''));
      if (reducedMotion === 'reduce') {
        assert.ok(seconds <= 0.001, `instant: ${seconds} s`);
      } else {
        assert.ok(seconds >= 0.1, `animated: ${seconds} s`);
      }
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  });
}
