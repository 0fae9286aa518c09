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
import { NO_PROBLEMS, axeProblems, choose, openPage, openStage, pack, playToEnd, presentObjects, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

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

/**
 * Choose the dialog's tab `name` as a keyboard does: the chosen tab focused,
 * arrows to the one named, which takes the focus and shows its panel.
 */
async function openTab(page, dialog, name) {
  const want = dialog.getByRole('tab', { name, exact: true });
  await dialog.getByRole('tab', { selected: true }).focus();
  for (let i = 0; i < 4 && (await want.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await want.getAttribute('aria-selected'), 'true', name);
  await page.waitForFunction((n) => document.activeElement?.getAttribute('role') === 'tab' && document.activeElement.textContent.trim() === n, name);
  assert.ok(await dialog.getByRole('tabpanel', { name, exact: true }).isVisible(), `the ${name} panel shows`);
}

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
    const add = dialog.getByRole('button', { name: 'Add the step', exact: true });
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
    // The raw JSON behind its tab, checked as it is typed.
    await openTab(page, dialog, 'JSON');
    await dialog.getByLabel('Recipe (JSON)').focus();
    await retype(page, JSON.stringify(recipe('cache'), null, 2));
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    await openTab(page, dialog, 'Steps');
    const written = await lines();
    assert.match(written[2], /lister\.List\(academy\.k3ii\.dev\/ensemble=owner\.Name\)/);
    await openTab(page, dialog, 'JSON');
    await dialog.getByLabel('Recipe (JSON)').focus();

    // An invalid field: named, Run waits, the last valid code stays.
    const bad = recipe('cache');
    bad.steps[1].count.from = 'cahce';
    await retype(page, JSON.stringify(bad, null, 2));
    await status.filter({ hasText: 'controller.recipe.steps[1].count.from' }).waitFor();
    assert.match(await status.innerText(), /cahce/);
    assert.equal(await dialog.getByRole('button', { name: 'Run', exact: true }).isDisabled(), true);
    assert.equal(await dialog.getByLabel('Recipe (JSON)').getAttribute('aria-invalid'), 'true');
    await openTab(page, dialog, 'Steps');
    assert.deepEqual(await lines(), written, 'the last valid recipe stays on screen');
    await openTab(page, dialog, 'JSON');
    await dialog.getByLabel('Recipe (JSON)').focus();

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

    // The Reconcile panel draws this recipe as `cachescope trace` says: at
    // sampled frames, the lit line, its code and the value it read.
    const traced = runner('trace', file).trim().split('\n').map((l) => JSON.parse(l)).filter((f) => f.lit);
    const reads = traced.filter((f) => f.lit.value && /cache has/.test(f.lit.value));
    assert.ok(reads.length >= 2, 'the count reads the cache more than once');
    const samples = [traced[0], reads[0], reads[1], traced[Math.floor(traced.length / 2)], traced[traced.length - 1]];
    const link = page.url();
    for (const f of samples) {
      await openStage(page, link.replace(/([?&])frame=\d+/, '$1').replace(/[?&]$/, '') + `&frame=${f.n}`);
      assert.equal(await readFrame(page), f.n);
      const code = region(page, 'Reconcile').locator('ol.code > li');
      const lit = await code.evaluateAll((lis) => lis.map((li, i) => [i, li.classList.contains('lit')]).filter(([, on]) => on).map(([i]) => i));
      assert.deepEqual(lit, [f.lit.line], `frame ${f.n}: the lit line`);
      const line = code.nth(f.lit.line);
      assert.equal((await line.locator('.text').innerText()).trim(), f.lit.code, `frame ${f.n}: its code`);
      // Every line has its value's element; a line with no value leaves it empty (and hidden).
      const value = line.locator('.value');
      assert.equal((await value.textContent()).trim() || null, f.lit.value ?? null, `frame ${f.n}: the value it read`);
    }

    // One line changed: the owner and the count read live; the run ends with 4.
    await opener.click();
    await dialog.waitFor();
    assert.deepEqual(await lines(), written, "it reopens on this run's recipe");
    await openTab(page, dialog, 'JSON');
    await dialog.getByLabel('Recipe (JSON)').focus();
    await retype(page, JSON.stringify(recipe('live'), null, 2));
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    // Share, from the dialog: it runs the draft and copies the link that carries it.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: /^Link copied/ }).waitFor();
    const shared = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(shared, /[?&]z=/);
    assert.equal(await readFrame(page), 0, 'the shared recipe is the run, from frame 0');
    await playToEnd(page);
    assert.equal((await presentObjects(page, 'Cluster', 'ConfigMap')).length, 4, 'read live, it creates what is missing and no more');
    const live = await traceHash(page);
    assert.notEqual(live, before, 'another recipe, another trace');
    await openStage(page, shared);
    assert.equal(await traceHash(page), live, 'the shared link runs the same recipe, the same trace');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

/** Focus `field`, select what it holds and type `text` over it, key by key. */
async function typeOver(page, field, text) {
  await field.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

/** Focus `control` and press Enter, as Tab would get there. */
async function press(page, control) {
  await control.focus();
  await page.keyboard.press('Enter');
}

/** A ReplicaSet that wants 3 pods, over a watch a second late; the built-in controller without its expectations. */
const REPLICAS_3 = {
  name: 'three-pods',
  until_ms: 20000,
  cluster: { watch_lag_ms: 1000 },
  controller: { kind: 'replicaset', expectations: false },
  objects: [{ kind: 'ReplicaSet', name: 'web', replicas: 3 }],
};

test('Your controller by its forms, keyboard only: a blank reconcile becomes list, create with generateName, return; it over-creates, Find a bug breaks the at-most invariant, reading live keeps 3', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, `?z=${pack(REPLICAS_3)}`);
    const opener = page.getByRole('button', { name: 'Your controller', exact: true });
    await press(page, opener);
    const dialog = page.getByRole('dialog', { name: 'Your controller' });
    await dialog.waitFor();
    const status = dialog.getByRole('status');
    const lines = async () => (await dialog.getByRole('list', { name: 'As code' }).locator('li code').allInnerTexts()).map((t) => t.trim());
    await choose(page, dialog.getByLabel('Start from'), 'blank');
    await status.filter({ hasText: 'Valid: 3 steps' }).waitFor();
    // The blank reconcile's list gives way to a count: list, and plan against the desired 3.
    await press(page, dialog.getByRole('button', { name: 'Remove step 2', exact: true }));
    await status.filter({ hasText: 'Valid: 2 steps' }).waitFor();
    const add = dialog.getByRole('button', { name: 'Add the step', exact: true });
    await choose(page, dialog.getByLabel('Add a step'), 'count');
    await press(page, add);
    await status.filter({ hasText: 'controller.recipe.steps[1].count' }).waitFor();
    // Its form: each field a control, the first focused.
    await press(page, dialog.getByRole('button', { name: 'Edit step 2', exact: true }));
    const form = dialog.getByRole('group', { name: 'Step 2: count' });
    await form.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Edit step 2', exact: true }).getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'step-1-from', 'the form takes the focus');
    assert.equal(await form.getByLabel('from', { exact: true }).inputValue(), 'cache', "a field left out shows what it means: the count's default");
    await choose(page, form.getByLabel('select (required)', { exact: true }), 'active_controlled');
    await choose(page, form.getByLabel('victims', { exact: true }), 'keep');
    // A number that is none: named, in the dialog's live region, and Run waits; the page's run stays behind it.
    const burst = form.getByLabel('burst', { exact: true });
    await burst.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await status.filter({ hasText: 'Valid: 3 steps' }).waitFor();
    await page.keyboard.type('0');
    await status.filter({ hasText: 'controller.recipe.steps[1].count.burst' }).waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Run', exact: true }).isDisabled(), true);
    assert.equal(await status.getAttribute('aria-live'), 'polite');
    await page.keyboard.press('Backspace');
    await status.filter({ hasText: 'Valid: 3 steps' }).waitFor();
    // A create, named by generateName, labelled app.
    await choose(page, dialog.getByLabel('Add a step'), 'create');
    await press(page, add);
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    await press(page, dialog.getByRole('button', { name: 'Edit step 3', exact: true }));
    const create = dialog.getByRole('group', { name: 'Step 3: create' });
    await choose(page, create.getByLabel('naming (required)', { exact: true }), 'generate');
    await typeOver(page, create.getByLabel('naming: its text', { exact: true }), '-');
    await typeOver(page, create.getByLabel('label (required)', { exact: true }), 'app');
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    const written = await lines();
    assert.match(written[2], /lister\.List/, written[2]);
    assert.match(written[3], /GenerateName/, written[3]);
    // The kind's owner wants 3, as the scenario says: its count is a field of the Kinds tab.
    await openTab(page, dialog, 'Kinds');
    assert.equal(await dialog.getByLabel('ReplicaSet web: replicas', { exact: true }).inputValue(), '3');
    // An invariant of its own: at most 3 pods a ReplicaSet.
    await openTab(page, dialog, 'Invariants');
    await press(page, dialog.getByRole('button', { name: 'Add an invariant', exact: true }));
    const invariant = dialog.getByRole('group', { name: /^Invariant 1:/ });
    await typeOver(page, invariant.getByLabel('name', { exact: true }), 'at-most-3-pods');
    await typeOver(page, invariant.getByLabel('count', { exact: true }), '3');
    assert.equal(await invariant.getByLabel('owner', { exact: true }).inputValue(), 'ReplicaSet');
    await dialog.getByRole('group', { name: 'Invariant 1: at-most-3-pods' }).waitFor();
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await press(page, dialog.getByRole('button', { name: 'Run', exact: true }));
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await readFrame(page), 0);
    await playToEnd(page);
    const over = (await presentObjects(page, 'Cluster', 'Pod')).length;
    assert.ok(over > 3, `counted from a lagging cache, it over-creates: ${over} pods for 3 replicas`);
    await region(page, 'Invariants').locator('li.invariant.broken', { hasText: 'at-most-3-pods' }).waitFor();

    // Find a bug, from the editor: the search breaks the at-most invariant.
    await press(page, opener);
    await dialog.waitFor();
    await press(page, dialog.getByRole('button', { name: 'Find a bug', exact: true }));
    await dialog.waitFor({ state: 'detached' });
    // The default timing breaks it already: the search says so before it holds anything back, and loads the break.
    const found = region(page, 'Caption').getByRole('status').filter({ hasText: /^Found/ });
    await found.waitFor({ timeout: 20_000 });
    const said = await found.innerText();
    assert.match(said, /(children_within_desired|at-most-3-pods) breaks at frame \d+/);
    assert.equal(await readFrame(page), Number(said.match(/breaks at frame (\d+)/)[1]), 'loaded at the breaking frame');
    await region(page, 'Invariants').locator('li.invariant.broken', { hasText: 'children_within_desired' }).waitFor();

    // The count reads live (and so, first, does the owner's get). The run ends with 3.
    await press(page, opener);
    await dialog.waitFor();
    await press(page, dialog.getByRole('button', { name: 'Edit step 1', exact: true }));
    await choose(page, dialog.getByRole('group', { name: 'Step 1: get_owner' }).getByLabel('from', { exact: true }), 'live');
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    await press(page, dialog.getByRole('button', { name: 'Edit step 2', exact: true }));
    await choose(page, dialog.getByRole('group', { name: 'Step 2: count' }).getByLabel('from', { exact: true }), 'live');
    await status.filter({ hasText: 'Valid: 4 steps' }).waitFor();
    assert.match((await lines())[2], /Live|live|apiReader|client\.List/, 'the line says it reads live');
    await press(page, dialog.getByRole('button', { name: 'Run', exact: true }));
    await dialog.waitFor({ state: 'detached' });
    await playToEnd(page);
    assert.equal((await presentObjects(page, 'Cluster', 'Pod')).length, 3, 'read live, it creates what is missing and no more');
    await region(page, 'Invariants').locator('li.invariant', { hasText: 'at-most-3-pods' }).waitFor();
    assert.equal(await region(page, 'Invariants').locator('li.invariant.broken').count(), 0, 'neither its own invariant nor a built-in one breaks');
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('Your controller fits at the four sizes, light and dark, and in the 800×500 embed: its forms read whole, axe-clean', async () => {
  const sizes = [
    [1280, 720, ''],
    [1440, 900, ''],
    [390, 844, ''],
    [844, 390, ''],
    [800, 500, '&embed=1'],
  ];
  for (const [width, height, embed] of sizes) {
    for (const colorScheme of ['light', 'dark']) {
      const where = `${width}×${height}${embed ? ' embed' : ''} ${colorScheme}`;
      const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height, colorScheme, reducedMotion: 'reduce' });
      try {
        await openStage(page, env.server.url, `?s=nfd-labels-stripped${embed}`);
        // In an embed the header is gone; its own button opens the same dialog.
        const opener = embed
          ? page.getByRole('button', { name: '✎ Your controller', exact: true })
          : page.getByRole('button', { name: 'Your controller', exact: true });
        await opener.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Your controller' });
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Edit step 3', exact: true }).click();
        const form = dialog.getByRole('group', { name: 'Step 3: label_owner' });
        await form.waitFor();
        assert.equal(await form.getByLabel('remove', { exact: true }).inputValue(), 'when_none_listed', where);
        await dialog.getByRole('button', { name: 'Owner, child and expectations', exact: true }).click();
        await dialog.getByRole('group', { name: 'The recipe: owner, child and expectations' }).waitFor();
        // Nothing to scroll sideways; the dialog within the window; Run reachable.
        const box = await dialog.boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= width + 0.5, `${where}: the dialog within the window: ${JSON.stringify(box)}`);
        assert.ok(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth + 1), `${where}: nothing wider than the dialog`);
        const run = dialog.getByRole('button', { name: 'Run', exact: true });
        await run.scrollIntoViewIfNeeded();
        assert.ok(await run.isVisible(), where);
        const target = await run.boundingBox();
        if (width < 500) assert.ok(target.height >= 44, `${where}: Run is a 44 px touch target (${target.height})`);
        assert.deepEqual(await axeProblems(page), [], where);
        // The Kinds tab: each declared kind a form, read whole too.
        await dialog.getByRole('tab', { name: 'Kinds', exact: true }).click();
        const node = dialog.getByRole('group', { name: 'Kind Node', exact: true });
        assert.equal(await node.getByLabel('children.kind', { exact: true }).inputValue(), 'NodeFeature', where);
        assert.equal(await node.getByLabel('children.label', { exact: true }).inputValue(), 'nfd.node.kubernetes.io/node-name', where);
        assert.ok(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth + 1), `${where}: the Kinds tab no wider than the dialog`);
        assert.deepEqual(await axeProblems(page), [], `${where}: Kinds`);
        // Escape closes it, and the focus goes back to what opened it.
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        assert.equal(await opener.evaluate((el) => el === document.activeElement), true, `${where}: the focus back on the opener`);
        assert.deepEqual(quiet(problems), NO_PROBLEMS, where);
      } finally {
        await context.close();
      }
    }
  }
});

test('a recipe that keeps no expectations has no Expectations panel, its neighbours fill the row; the guard added, the panel appears', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      await openStage(page, env.server.url, '?s=kuberay-random-delete');
      assert.equal(await region(page, 'Expectations').count(), 0, `${width}: KubeRay's reconcile keeps none`);
      // No hole where it was: the Cluster, Watch and Cache panels share the first row (the phone's two columns).
      const grid = await page.locator('.grid').boundingBox();
      const boxes = await Promise.all(['Cluster', 'Watch', 'Cache'].map((n) => region(page, n).boundingBox()));
      const row = width > 700 ? boxes : [boxes[1]];
      const right = Math.max(...row.map((b) => b.x + b.width));
      assert.ok(grid.x + grid.width - right < 2, `${width}: the row reaches the grid's right edge (${right} of ${grid.x + grid.width})`);
      await page.getByRole('button', { name: 'Your controller', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Your controller' });
      await choose(page, dialog.getByLabel('Add a step'), 'check_expectations');
      await dialog.getByRole('button', { name: 'Add the step', exact: true }).click();
      await dialog.getByRole('status').filter({ hasText: 'Valid: 6 steps' }).waitFor();
      await dialog.getByRole('button', { name: 'Run', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await region(page, 'Expectations').waitFor();
      if (width > 700) {
        await playToEnd(page);
        assert.match(await region(page, 'Expectations').innerText(), /add \d+\s+del \d+/, "the guard's record");
      }
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});
