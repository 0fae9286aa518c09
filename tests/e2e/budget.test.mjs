// The work budget in the page: a link over it opens to a banner naming the
// field (no trap, no blank tab), and the largest scenario it accepts plays to
// its last frame.
// Run: `make build && node --test --test-reporter=spec tests/e2e/`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LARGEST_ACCEPTED, NO_PROBLEMS, openPage, pack, quiet, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();


test('the over-budget link opens to a banner naming what is over the limit', async () => {
  // The 165-character link: 20,000 Ensembles × 1,000 voices, at frame 200,000.
  const huge = { name: 'x', until_ms: 86400000, controller: { kind: 'ensemble' }, objects: [{ kind: 'Ensemble', name: 'e-{i}', voices: 1000, count: 20000 }] };
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await page.goto(`${env.server.url}?z=${pack(huge)}&frame=200000`, { waitUntil: 'load' });
    const banner = page.locator('.banner[role="alert"]');
    await banner.waitFor({ timeout: 10_000 });
    const text = await banner.innerText();
    assert.match(text, /URL parameter z: objects\[0\]\.count/, 'it names the parameter and the field');
    assert.match(text, /20000/, 'and the value');
    // The page plays what it fell back to: the stage is drawn, nothing trapped.
    await page.locator('section[aria-label="Cluster"]').waitFor();
    assert.equal(await page.locator('#crashed').count(), 0);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('the largest scenario the budget accepts plays to its last frame', async () => {
  // LARGEST_ACCEPTED: within the budget as it runs, it stops at its frame limit, 60,000 frames.
  const biggest = LARGEST_ACCEPTED;
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const t = Date.now();
    await page.goto(`${env.server.url}?z=${pack(biggest)}&frame=60000`, { waitUntil: 'load' });
    await page.getByText(/^Frame 60000$/).waitFor({ timeout: 120_000 });
    console.log(`# the largest accepted scenario: 60,000 frames computed and drawn in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    assert.equal(await page.locator('.banner[role="alert"]').count(), 0, 'no banner: a frame within the run');
    await page.locator('details.about-run summary').click();
    assert.match(await page.locator('details.about-run').innerText(), /60000: the frame limit/);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
