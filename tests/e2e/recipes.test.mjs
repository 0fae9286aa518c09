// A reconcile of the user's own (`controller.recipe`), opened by link: the
// Reconcile panel draws its code line for line as `cachescope recipe` prints
// it, lights its wait while it waits, offers none of the switches the recipe
// says, passes axe at every size; a broken recipe is a banner naming the
// step and field. A guard of its own (`return_if`) is lit with what it read.
// Run: `make build && node --test --test-reporter=spec tests/e2e/recipes.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, axeProblems, openMoreSettings, openPage, openStage, pack, quiet, region, stepUntil, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TMP = mkdtempSync(path.join(tmpdir(), 'cachescope-recipes-'));
const runner = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', ...args], { cwd: ROOT, encoding: 'utf8' });

/** A scenario whose Ensemble operator runs `steps` as its recipe, over one Ensemble `owner` asking for `voices`. */
function ensembleRecipe({ name, start, watchLagMs, owner, voices, steps }) {
  return {
    name,
    ...(start ? { start } : {}),
    cluster: { watch_lag_ms: watchLagMs },
    objects: [{ kind: 'Ensemble', name: owner, voices }],
    controller: { kind: 'ensemble', recipe: { owner: 'Ensemble', child: 'ConfigMap', steps } },
  };
}

/** Cluster API #13649, one level down: create with generateName, wait 1 s for a cache 2 s behind, retry. */
const WAITS = ensembleRecipe({
  name: 'waits-then-retries',
  start: 'Press ▶: the wait for the cache times out, and the retry creates a second child',
  watchLagMs: 2000,
  owner: 'md',
  voices: 1,
  steps: [
    { get_owner: {} },
    { count: { select: 'active_controlled' } },
    { create: { naming: { generate: '-' }, label: 'academy.k3ii.dev/ensemble' } },
    { wait_for_cache: { timeout_ms: 1000 } },
    'return',
  ],
});

test('a recipe by link: its code as the runner prints it, its wait lit, no switch it says, axe-clean at every size', async () => {
  const file = path.join(TMP, 'waits.json');
  writeFileSync(file, JSON.stringify(WAITS));
  // `cachescope recipe` numbers the lines: the page draws the same text.
  const printed = runner('recipe', file)
    .trimEnd()
    .split('\n')
    .map((l) => l.replace(/^\s*\d+\s{2}/, ''));
  for (const [width, height] of [[1280, 720], [1440, 900], [390, 844], [844, 390]]) {
    for (const colorScheme of ['light', 'dark']) {
      const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height, colorScheme });
      try {
        await openStage(page, env.server.url, `?z=${pack(WAITS)}`);
        const code = region(page, 'Reconcile');
        const drawn = (await code.locator('li .text').allInnerTexts()).map((t) => t.trim());
        assert.deepEqual(drawn, printed, `${width}×${height}: the page draws the runner's code`);
        if (width === 1280 && colorScheme === 'light') {
          // None of the built-in reconcile's switches: the recipe says them.
          for (const name of ['GenerateName', 'Deterministic names']) {
            assert.equal(await page.getByRole('radio', { name, exact: true }).count(), 0, name);
          }
          for (const name of ['Expectations', 'Delete surplus', 'ownerReferences']) {
            assert.equal(await page.getByRole('checkbox', { name, exact: true }).count(), 0, name);
          }
          await openMoreSettings(page);
          const more = await page.locator('details.more-settings').innerText();
          for (const path of ['naming', 'delete_surplus', 'owner_references', 'live_reads', 'update_status']) {
            assert.doesNotMatch(more, new RegExp(`\\b${path}\\b`), `More settings offers controller.${path}`);
          }
          // Step to the wait: its line is the lit one, and the caption says what it waits for.
          const state = await stepUntil(page, { done: (s) => /waits for its cache to show the 1 ConfigMap/.test(s.caption ?? '') });
          assert.match(state.caption, /waits for its cache/, 'the run reaches the wait');
          const lit = code.locator('li[aria-current="step"]');
          assert.match(await lit.innerText(), /wait\.PollUntilContextTimeout/);
        }
        assert.deepEqual(await axeProblems(page), [], `${width}×${height} ${colorScheme}`);
        assert.deepEqual(quiet(problems), NO_PROBLEMS);
      } finally {
        await context.close();
      }
    }
  }
});

/** A guard of the recipe's own: some children seen, not all, it returns an error rather than count the rest missing. */
const GUARDED = ensembleRecipe({
  name: 'guarded-count',
  watchLagMs: 1500,
  owner: 'beta',
  voices: 3,
  steps: [
    { get_owner: {} },
    { count: { select: { label: 'academy.k3ii.dev/ensemble' } } },
    { return_if: { when: { all: [{ lt: ['found', 'desired'] }, { gt: ['found', 0] }] }, error: true } },
    { create: { naming: { generate: '-voice-' }, label: 'academy.k3ii.dev/ensemble' } },
    'return',
  ],
});

test('a guard of the recipe\'s own: the count says its plan waits on it, and the guard that holds is lit with what it read', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      // gc=1: every frame a step, the garbage collector's too (stepUntil counts frames one by one).
      await openStage(page, env.server.url, `?z=${pack(GUARDED)}&gc=1`);
      const counted = await stepUntil(page, { done: (s) => /Reconcile 2 reads the cache: 1 of 3 ConfigMaps/.test(s.caption ?? '') });
      assert.match(counted.caption, /Unless its guard returns first, it creates 2: the cluster would hold 5/, `${width}×${height}`);
      const held = await stepUntil(page, { done: (s) => /its guard holds/.test(s.caption ?? '') });
      assert.match(held.caption, /Reconcile 2 of academy-lab\/beta: its guard holds over what it read \(found 1, desired 3\)/);
      const lit = region(page, 'Reconcile').locator('li[aria-current="step"]');
      assert.match(await lit.innerText(), /if len\(children\) < owner\.Spec\.voices && len\(children\) > 0 \{ return fmt\.Errorf/);
      assert.match(await lit.innerText(), /found 1, desired 3 · true · return err/, 'the line says what the guard read');
      const finished = await stepUntil(page, { done: (s) => /returns the error \(its guard held/.test(s.caption ?? '') });
      assert.match(finished.caption, /\(its guard held: found 1, desired 3\), so the key is requeued with backoff/, 'the error is requeued rate-limited');
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});

/** Cluster API #13649, two levels: the MachineSet controller beside the MachineDeployment controller's recipe. */
const TWO_LEVELS = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'e2e', 'two-levels.json'), 'utf8'));

test('controllers beside the recipe: the Reconcile and Workqueue panels follow the frame\'s controller and name it, as the caption does', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      await openStage(page, env.server.url, `?z=${pack(TWO_LEVELS)}&gc=1`);
      const md = await stepUntil(page, { done: (s) => /^machinedeployment-controller: Reconcile 1 reads the cache: 0 of 1 MachineSets/.test(s.caption ?? '') });
      assert.match(md.caption, /It creates 1/);
      const reconcile = region(page, 'Reconcile');
      assert.match(await reconcile.locator('header').innerText(), /machinedeployment-controller's code/);
      assert.match(await reconcile.locator('li[aria-current="step"]').innerText(), /diff := 1 - len\(children\)/);
      const ms = await stepUntil(page, { done: (s) => /^machineset-controller: Reconcile 1 reads the cache: 0 of 2 Machines/.test(s.caption ?? '') });
      assert.match(ms.caption, /It creates 2/);
      assert.match(await reconcile.locator('header').innerText(), /machineset-controller's code/, `${width}×${height}`);
      assert.match(await reconcile.locator('li[aria-current="step"]').innerText(), /diff := owner\.Spec\.replicas - len\(children\)/);
      assert.match(await region(page, 'Workqueue').locator('header').innerText(), /machineset-controller's/);
      assert.deepEqual(await axeProblems(page), [], `${width}×${height}`);
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});

test('a broken recipe by link is a banner naming its step and field', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    const doc = structuredClone(WAITS);
    doc.controller.recipe.steps[0] = { get_owner: { from: 'cahce' } };
    await openStage(page, env.server.url, `?z=${pack(doc)}`);
    await page
      .getByRole('alert')
      .getByText(/controller\.recipe\.steps\[0\]\.get_owner\.from: unknown variant `cahce`, expected one of `cache`, `live`, `read_your_writes`/)
      .waitFor({ timeout: 20_000 });
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a kind of the scenario\'s own: its rows by name, the stale count lit, the operator named; a broken declaration is a banner naming its field', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    // gc=1: every frame a step, the garbage collector's too (stepUntil counts frames one by one).
    await openStage(page, env.server.url, '?s=kuberay-random-delete&gc=1');
    // The moment: reconcile 2 counts a cache that holds 1 of the 3 worker pods.
    const state = await stepUntil(page, { done: (s) => /Reconcile 2 reads the cache: 1 of 3 Pods/.test(s.caption ?? '') });
    assert.match(state.caption, /while the cluster holds 3/);
    const lit = region(page, 'Reconcile').locator('li[aria-current="step"]');
    assert.match(await lit.innerText(), /lister\.List\(ray\.io\/cluster=owner\.Name\).*owner\.Spec\.workers/);
    assert.match(await region(page, 'Cluster').innerText(), /3\s+pods\s+·\s+1\s+RayCluster/);
    assert.match(await region(page, 'Cache').innerText(), /1\s+pod\s+·\s+1\s+RayCluster/);
    const after = await stepUntil(page, { done: (s) => /creates Pod/.test(s.caption ?? '') });
    assert.match(after.caption, /^kuberay-operator creates Pod raycluster-worker-/, 'the operator by its own name');
    assert.deepEqual(await axeProblems(page), []);
    const doc = JSON.parse(runner('recipe', 'kuberay-random-delete', '--json'));
    assert.equal(doc.kinds[0].name, 'RayCluster', '`recipe --json` carries the kinds it reconciles');
    const broken = JSON.parse(readFileSync(path.join(ROOT, 'scenarios', 'kuberay-random-delete.json'), 'utf8'));
    broken.kinds[0].children.kind = 'Pods';
    await openStage(page, env.server.url, `?z=${pack(broken)}`);
    await page.getByRole('alert').getByText(/kinds\[0\]\.children\.kind/).waitFor({ timeout: 20_000 });
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('an invariant of the scenario\'s own: its badge first, in view, broken at its frame and named; the inherited expectations said', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height });
    try {
      await openStage(page, env.server.url, '?s=job-expectations-by-name&gc=1');
      // The moment: the new Job waits on the record its predecessor under the same name set.
      const state = await stepUntil(page, { done: (s) => /Reconcile 2: expectations for academy-lab\/pi/.test(s.caption ?? '') });
      assert.match(state.caption, /a sync of the earlier object under this name, another UID, set them/);
      const lit = region(page, 'Reconcile').locator('li[aria-current="step"]');
      assert.match(await lit.innerText(), /set by an earlier object of this name/);
      // The liveness check is the last frame: the end's summary says what it found.
      const end = await stepUntil(page);
      assert.ok(end.end);
      assert.match(end.caption, /Broken: job-gets-its-pods at frame \d+, the last \(Job pi has 0 of the 4 pods it wants/);
      const badges = region(page, 'Invariants').locator('li.invariant');
      const first = badges.first();
      assert.match(await first.innerText(), /job-gets-its-pods/, 'the scenario\'s own invariant comes first');
      assert.match(await first.getAttribute('title'), /every Job has exactly its desired count of active pods \(declared: liveness\)/);
      const jump = first.getByRole('button', { name: /job-gets-its-pods broken at frame \d+: jump to it/ });
      await jump.waitFor();
      const box = await jump.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= height, `the jump is in view at ${width}×${height}`);
      // A Job's pods are not a ReplicaSet's: that invariant says nothing of this run, and is not listed.
      assert.equal(await region(page, 'Invariants').getByText('all pods ≤ replicas').count(), 0);
      assert.deepEqual(await axeProblems(page), []);
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
    } finally {
      await context.close();
    }
  }
});

/** The finalizer pattern with lab 1's re-add: the second sync reads the owner before its own Update came back. */
const FINALIZES = {
  name: 'finalizes',
  start: 'Press ▶: the second sync adds the finalizer again from a stale owner, and gets 409 Conflict',
  until_ms: 30000,
  objects: [{ kind: 'Ensemble', name: 'beta', voices: 3 }],
  actions: [{ at_ms: 10000, delete: { kind: 'Ensemble', name: 'beta' } }],
  controller: {
    kind: 'ensemble',
    double_enqueue: true,
    recipe: {
      owner: 'Ensemble',
      child: 'ConfigMap',
      steps: [
        { get_owner: { from: 'cache', stop_if_terminating: false } },
        { finalizer: { name: 'academy.k3ii.dev/cleanup' } },
        { count: { select: { label: 'academy.k3ii.dev/ensemble' }, victims: 'past_desired' } },
        { create: { naming: { indexed: '-voice-' }, label: 'academy.k3ii.dev/ensemble' } },
        { delete: {} },
        'return',
      ],
    },
  },
};

test('the finalizer step by link: the stale owner it read lit and said, then its 409 Conflict', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, `?z=${pack(FINALIZES)}&gc=1`);
    const stale = await stepUntil(page, { done: (s) => /Reconcile 2: academy-lab\/beta, as read at resourceVersion 1, lacks the finalizer/.test(s.caption ?? '') });
    assert.match(stale.caption, /academy\.k3ii\.dev\/cleanup: it adds it with an Update at that resourceVersion/);
    const lit = region(page, 'Reconcile').locator('li[aria-current="step"]');
    assert.match(await lit.innerText(), /AddFinalizer\(owner, "academy\.k3ii\.dev\/cleanup"\)/);
    // The note itself names the 409 it risks: step to the request's own frame.
    const conflict = await stepUntil(page, { done: (s) => /updates Ensemble beta: 409/.test(s.caption ?? '') });
    assert.match(conflict.caption, /^ensemble-controller updates Ensemble beta: 409 Conflict/);
    assert.deepEqual(await axeProblems(page), []);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});
