// Course authors (issue 33): a lesson the run contradicts is named before a
// learner meets it, "Check this lesson" checks one in the page, a link the
// page cannot use starts no other lesson and stays as given.
// Run: `make build && node --test --test-reporter=spec tests/e2e/authors.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, openPage, openStage, pack, quiet, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const OVER_CREATE = JSON.parse(await readFile(fileURLToPath(new URL('../../scenarios/over-create.json', import.meta.url)), 'utf8'));

test('a scenario whose reveal the run contradicts, opened by link, names the step in the banner', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const doc = structuredClone(OVER_CREATE);
    doc.name = 'mine';
    doc.lesson[1].reveal = 'It keeps 13 of them.';
    await openStage(page, env.server.url, `?z=${pack(doc)}`);
    const banner = page.getByRole('alert').filter({ hasText: 'Part of this link' });
    await banner.getByText(/This scenario's lesson does not hold against its run: lesson\[1\]: the reveal states 13, which the run does not give/).waitFor({ timeout: 20_000 });
    // The author's "Check this lesson" says the same, where they look.
    const about = page.locator('details.about');
    await about.getByRole('button', { name: 'Check this lesson' }).click();
    await about.getByRole('status').getByText(/lesson\[1\]: the reveal states 13/).waitFor({ timeout: 20_000 });
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('"Check this lesson" on a preset: every step holds', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    const about = page.locator('details.about');
    await about.getByRole('button', { name: 'Check this lesson' }).click();
    await about.getByRole('status').getByText('All 4 steps hold against the run', { exact: false }).waitFor({ timeout: 20_000 });
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a link whose scenario is refused starts no lesson of the fallback, and stays in the address bar as given', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const doc = structuredClone(OVER_CREATE);
    doc.cluster.watch_lag_ms = -5;
    const query = `?z=${pack(doc)}&lesson=1&step=2`;
    await openStage(page, env.server.url, query);
    const banner = page.getByRole('alert').filter({ hasText: 'Part of this link' });
    await banner.getByText(/URL parameter z: cluster\.watch_lag_ms/).waitFor();
    await banner.getByText(/URL parameter lesson: .*not started/).waitFor();
    assert.equal(await region(page, 'Lesson').getByRole('button', { name: 'Start the lesson' }).count(), 1, 'no lesson in progress');
    // Stepping the fallback is not a change of the run: the link stays as given, for a reload or a report.
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.waitForTimeout(1_500);
    assert.equal(new URL(page.url()).search, query);
    await page.reload();
    await banner.getByText(/URL parameter z: cluster\.watch_lag_ms/).waitFor();
    // A change the learner makes is theirs: the address follows the page from then on.
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('radio', { name: 'GenerateName', exact: true }).check();
    await page.waitForFunction(() => /naming(=|%3D)generate/.test(location.search));
    assert.doesNotMatch(new URL(page.url()).search, /[?&]z=/, "the refused document is gone once the page is the learner's");
  } finally {
    await context.close();
  }
});

test('a host message addressed to the page that cannot be read as JSON is named, not dropped in silence', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin, { width: 900, height: 600 });
  try {
    await page.setContent(`<iframe src="${env.server.url}?s=over-create&embed=1" width="800" height="500" title="cachescope"></iframe>`);
    const frame = page.frameLocator('iframe');
    await frame.getByRole('region', { name: 'Cluster', exact: true }).waitFor({ timeout: 20_000 });
    // Someone else's message, cyclic or not, is left alone.
    await page.evaluate(() => {
      const other = { kind: 'analytics' };
      other.self = other;
      document.querySelector('iframe').contentWindow.postMessage(other, '*');
    });
    await page.waitForTimeout(500);
    assert.equal(await frame.locator('.notice').count(), 0, 'not addressed to it: no notice');
    // Structured clone carries a cycle across postMessage; JSON cannot.
    await page.evaluate(() => {
      const message = { cachescope: 'play' };
      message.self = message;
      document.querySelector('iframe').contentWindow.postMessage(message, '*');
    });
    await frame.locator('.notice').getByText(/Ignored a message from .*: it cannot be read as JSON/).waitFor();
  } finally {
    await context.close();
  }
});
