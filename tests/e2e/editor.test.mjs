// "Your controller": the recipe editor. It starts from the run on the page
// (its operator written out as a recipe); keyboard alone writes a
// reconcile, an invalid field is named in the dialog's live status while the
// last valid code stays on screen and Run waits; Run plays the recipe from
// frame 0, its bug shows (more ConfigMaps than asked), and the link restores
// the same recipe and trace hash after a reload; one line changed (the
// count read live) and the run ends with what was asked. axe-clean.
// Run: `make build && node --test --test-reporter=spec tests/e2e/editor.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, axeProblems, openPage, openStage, playToEnd, presentObjects, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TMP = mkdtempSync(path.join(tmpdir(), 'cachescope-editor-'));
const runner = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', ...args], { cwd: ROOT, encoding: 'utf8' });

/** Read the Ensemble, count its ConfigMaps `from`, create the missing with generateName, return. */
const recipe = (from, count = from) => ({
  owner: 'Ensemble',
  child: 'ConfigMap',
  steps: [
    { get_owner: { from } },
    { count: { from: count, select: { label: 'academy.k3ii.dev/ensemble' } } },
    { create: { naming: { generate: '-voice-' }, label: 'academy.k3ii.dev/ensemble' } },
    'return',
  ],
});

/** Select all of the focused field and type `text` in its place. */
async function retype(page, text) {
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

async function traceHash(page) {
  await page.getByText('About this run', { exact: true }).click();
  const hash = page.locator('code.trace-hash');
  await hash.waitFor({ timeout: 20_000 });
  return hash.innerText();
}

test('Your controller: written by keyboard, an invalid field named, run, shared, and fixed by one line', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    const opener = page.getByRole('button', { name: 'Your controller', exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Your controller' });
    await dialog.waitFor();
    const asCode = dialog.getByRole('list', { name: 'As code' });
    const lines = async () => (await asCode.locator('li code').allInnerTexts()).map((t) => t.trim());
    // The built-in operator's reconcile written out as a recipe: a line a step, after the dequeue's.
    const first = await lines();
    assert.equal(first[0], 'key := queue.Get()');
    assert.match(first[1], /lister\.Get\(key\)/);
    assert.deepEqual(await axeProblems(page), []);

    // A blank reconcile, then the recipe typed over it.
    await dialog.getByLabel('Start from').selectOption('blank');
    const status = dialog.getByRole('status');
    await status.filter({ hasText: 'Valid: 3 steps' }).waitFor();
    // Its steps as a list: remove the list step, add a count before the return, by keyboard.
    await dialog.getByRole('button', { name: 'Remove step 2', exact: true }).focus();
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Valid: 2 steps' }).waitFor();
    await dialog.getByLabel('Add a step').selectOption('count');
    const add = dialog.getByRole('button', { name: 'Add before the return', exact: true });
    await add.focus();
    await page.keyboard.press('Enter');
    // Its worked example picks victims, and nothing deletes them yet: named, and a delete added mends it.
    await status.filter({ hasText: 'controller.recipe.steps[1].count.victims' }).waitFor();
    await dialog.getByLabel('Add a step').selectOption('delete');
    await add.focus();
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    assert.match((await lines())[2], /^children := lister\.List\(academy\.k3ii\.dev\/ensemble=owner\.Name\)/);
    assert.equal(await dialog.getByRole('button', { name: 'Move step 1 up', exact: true }).isDisabled(), true);
    await dialog.getByLabel('Recipe (JSON)').focus();
    await retype(page, JSON.stringify(recipe('cache'), null, 2));
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    const written = await lines();
    assert.match(written[2], /lister\.List\(academy\.k3ii\.dev\/ensemble=owner\.Name\)/);

    // An invalid field: named, Run waits, the last valid code stays.
    const bad = recipe('cache');
    bad.steps[1].count.from = 'cahce';
    await retype(page, JSON.stringify(bad, null, 2));
    await status.filter({ hasText: 'controller.recipe.steps[1].count.from' }).waitFor();
    assert.match(await status.innerText(), /cahce/);
    assert.equal(await dialog.getByRole('button', { name: 'Run', exact: true }).isDisabled(), true);
    assert.deepEqual(await lines(), written, 'the last valid recipe stays on screen');
    assert.equal(await dialog.getByLabel('Recipe (JSON)').getAttribute('aria-invalid'), 'true');

    // Valid again. Export: the file the runner plays (its trace hash is the page's, below).
    await retype(page, JSON.stringify(recipe('cache'), null, 2));
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const file = path.join(TMP, (await download).suggestedFilename());
    await (await download).saveAs(file);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).controller.recipe.steps.length, 4);
    // The runner prints its code as the dialog draws it, line for line.
    const printed = runner('recipe', file).trimEnd().split('\n').map((l) => l.replace(/^\s*\d+\s{2}/, ''));
    assert.deepEqual(printed, written, 'cachescope recipe prints what the dialog drew');
    const exported = JSON.parse(runner('run', file)).trace_hash;
    // Tab to Run, Enter: the run starts over at frame 0 with it.
    await dialog.getByLabel('Recipe (JSON)').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await readFrame(page), 0);
    assert.deepEqual((await region(page, 'Reconcile').locator('li .text').allInnerTexts()).map((t) => t.trim()), written);
    await playToEnd(page);
    const over = (await presentObjects(page, 'Cluster', 'ConfigMap')).length;
    assert.ok(over > 4, `a count read from a lagging cache, run twice, over-creates: ${over} ConfigMaps for 4 voices`);

    // The link carries the recipe: a reload runs the same trace.
    const before = await traceHash(page);
    assert.equal(before, exported, 'the exported file runs the trace the page ran');
    assert.match(page.url(), /[?&]z=/);
    await page.reload({ waitUntil: 'load' });
    await region(page, 'Cluster').waitFor({ timeout: 20_000 });
    assert.equal(await traceHash(page), before, 'the same recipe, the same trace, after a reload');

    // One line changed: the owner and the count read live; the run ends with 4.
    await opener.click();
    await dialog.waitFor();
    assert.deepEqual(await lines(), written, "it reopens on this run's recipe");
    await dialog.getByLabel('Recipe (JSON)').focus();
    await retype(page, JSON.stringify(recipe('live'), null, 2));
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await playToEnd(page);
    assert.equal((await presentObjects(page, 'Cluster', 'ConfigMap')).length, 4, 'read live, it creates what is missing and no more');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
