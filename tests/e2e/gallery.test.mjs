// "Real incidents": a dialog listing every preset that reproduces a real
// project's incident — its project, its story in a line, its link — which
// keyboard alone opens, walks and closes, and whose Open loads the preset
// at frame 0 with its lesson offered. axe-clean at every size and scheme.
// Run: `make build && node --test --test-reporter=spec tests/e2e/gallery.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, axeProblems, openPage, openStage, playToEnd, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const SCENARIOS = fileURLToPath(new URL('../../scenarios/', import.meta.url));
// Every shipped preset with an incident, read from the files the binary embeds.
const INCIDENTS = readdirSync(SCENARIOS)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(SCENARIOS + f, 'utf8')))
  .filter((s) => s.incident);

test('the gallery lists every incident preset, and keyboard alone opens one at frame 0 with its lesson offered', async () => {
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [1440, 900, 'dark'], [390, 844, 'dark'], [844, 390, 'light']]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height, colorScheme });
    try {
      await openStage(page, env.server.url, '?s=over-create');
      const opener = page.getByRole('button', { name: 'Real incidents', exact: true });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Real incidents' });
      await dialog.waitFor();
      const cards = dialog.getByRole('listitem');
      assert.equal(await cards.count(), INCIDENTS.length, `${width}×${height}: one card an incident`);
      for (const s of INCIDENTS) {
        // Its card: its Open, and its incident's link (three presets tell kubernetes #129795).
        const card = cards.filter({ has: page.getByRole('button', { name: `Open ${s.name}`, exact: true }) });
        assert.equal(await card.count(), 1, s.name);
        const link = card.getByRole('link');
        assert.equal(await link.innerText(), s.incident.title, s.name);
        assert.equal(await link.getAttribute('href'), s.incident.url, s.name);
      }
      assert.deepEqual(await axeProblems(page), [], `${width}×${height} ${colorScheme}`);
      // Escape closes it and gives the focus back to its button.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await opener.evaluate((b) => b === document.activeElement), true, 'the focus is back on Real incidents');
      if (width !== 1280) continue;
      // Open again: the first Open has the focus; Tab walks to OpenSearch's, Enter opens it.
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      const target = dialog.getByRole('button', { name: 'Open opensearch-quorum', exact: true });
      for (let i = 0; i < 60 && !(await target.evaluate((b) => b === document.activeElement)); i++) {
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await page.locator('#scenario-select').inputValue(), 'opensearch-quorum');
      assert.equal(await readFrame(page), 0, 'opened at its start');
      await region(page, 'Lesson').getByRole('button', { name: 'Start the lesson' }).waitFor();
      const story = INCIDENTS.find((s) => s.name === 'opensearch-quorum').incident.title;
      assert.match(await page.locator('.caption-bar .incident').innerText(), new RegExp(story.slice(0, 30).replace(/[.*+?^${}()|[\]\\#]/g, '\\$&')));
    } finally {
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
      await context.close();
    }
  }
});

test("an incident whose controller is a recipe over kinds of its own is told in its own words: played to its end, nothing on the page names the Ensemble operator's kinds", async () => {
  const own = INCIDENTS.filter((s) => s.controller.recipe && !['Ensemble', 'ReplicaSet'].includes(s.controller.recipe.owner));
  assert.ok(own.length >= 6, `the incidents written as recipes: ${own.map((s) => s.name)}`);
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1440, height: 900 });
  try {
    for (const s of own) {
      await openStage(page, env.server.url, `?s=${s.name}`);
      await playToEnd(page);
      // Every panel, the caption, the end's summary, Space-time, the logs and About this run.
      await page.getByText('About this run', { exact: true }).click();
      const text = await page.locator('main').innerText();
      assert.match(text, new RegExp(`\\b${s.controller.recipe.owner}\\b`), `${s.name}: names its owner kind`);
      const said = [...text.matchAll(/[^\n]*\b(Ensembles?|ConfigMaps?|voices?)\b[^\n]*/g)].map((m) => m[0]);
      assert.deepEqual(said, [], `${s.name}: no line speaks of the Ensemble operator's kinds`);
    }
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
