#!/usr/bin/env node
// Regenerates docs/screenshots/: one picture of each preset at its telling
// frame, taken from the built page (dist/) in headless Chromium.
//
//   make screenshots        (builds the page and the runner first)
//
// A telling frame is not a hard-coded number: it is found in the native
// runner's trace (`cachescope trace`) by the caption that makes the point, so
// the pictures follow the simulation when it changes. Each shot names the
// frame it picked and the link that reopens it.

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openExplorer, openPage, serveDist, waitForFrame } from '../tests/e2e/support.mjs';

const RUNNER = process.env.CACHESCOPE_BIN ?? 'target/debug/cachescope';
const OUT = 'docs/screenshots';

// `pick` finds the frame in the trace: `at` the first line matching, or the
// line `before` the first match.
const SHOTS = [
  {
    file: 'over-create-generate.png',
    preset: 'over-create',
    settings: { 'controller.naming': 'generate' },
    pick: { before: /^ADDED ConfigMap/ },
    alt: 'over-create with GenerateName: two reconciles have read a cache without their own creates; eight ConfigMaps exist, none is cached yet',
  },
  {
    file: 'over-create-deterministic.png',
    preset: 'over-create',
    settings: {},
    pick: { at: /409 AlreadyExists/ },
    alt: 'over-create with deterministic names: the second reconcile’s create gets 409 AlreadyExists, and four ConfigMaps stay four',
  },
  {
    file: 'over-create-surplus.png',
    preset: 'over-create-surplus',
    settings: {},
    pick: { at: /404 NotFound/ },
    alt: 'over-create-surplus: the reconcile deletes surplus children it counted twice and meets 404 NotFound',
  },
  {
    file: 'empty-cache.png',
    preset: 'empty-cache',
    settings: {},
    pick: { at: /deletes ConfigMap seed-34:/ },
    alt: 'empty-cache without WaitForCacheSync: the pruner has deleted all fifty seed ConfigMaps and exits 0',
  },
  {
    file: 'read-your-write.png',
    preset: 'read-your-write',
    settings: {},
    pick: { at: /409 AlreadyExists/ },
    alt: 'read-your-write: seed-99 was created, the cache does not have it yet, and the second create gets 409 AlreadyExists',
  },
  {
    file: 'replicaset-pressure.png',
    preset: 'replicaset-pressure',
    settings: {},
    pick: { at: /expectations for .* are not satisfied/ },
    alt: 'replicaset-pressure: the ReplicaSet controller skips a sync while its expectations still wait for pod ADDED events',
  },
  {
    file: 'expectations-timeout.png',
    preset: 'expectations-timeout',
    settings: {},
    pick: { at: /past the timeout/ },
    alt: 'expectations-timeout: a lost ADDED event left the expectations unsatisfied until the five-minute timeout',
  },
  {
    file: 'teardown.png',
    preset: 'teardown',
    settings: {},
    pick: { at: /^garbage-collector deletes/ },
    alt: 'teardown: the Ensemble is gone and the garbage collector deletes its children by their ownerReferences',
  },
];

function trace(preset, settings) {
  const args = ['trace', preset, ...Object.entries(settings).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
  const out = execFileSync(RUNNER, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

function pickFrame(frames, { at, before }) {
  const re = at ?? before;
  const hit = frames.find((f) => re.test(f.caption));
  if (!hit) throw new Error(`no frame's caption matches ${re}`);
  return at ? hit.n : hit.n - 1;
}

mkdirSync(OUT, { recursive: true });
const server = await serveDist();
const browser = await launchBrowser();
let status = 0;
try {
  for (const shot of SHOTS) {
    const frame = pickFrame(trace(shot.preset, shot.settings), shot.pick);
    const query = new URLSearchParams({ s: shot.preset, ...shot.settings, frame: String(frame) });
    const { page, context, problems } = await openPage(browser, server.origin, { width: 1440, height: 1000 });
    await openExplorer(page, server.url, `?${query}`);
    await waitForFrame(page, frame);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(OUT, shot.file), fullPage: true });
    console.log(`${join(OUT, shot.file)}\tframe ${frame}\t?${query}\t${shot.alt}`);
    for (const [kind, list] of Object.entries(problems)) {
      for (const item of list) {
        console.error(`screenshots: ${shot.file}: ${kind}: ${item}`);
        status = 1;
      }
    }
    await context.close();
  }
  // The sample course page, with its over-create pair stepped to where they part ways.
  {
    const { page, context, problems } = await openPage(browser, server.origin, { width: 1700, height: 1000 });
    await page.goto(`${server.url}examples/course-page.html`, { waitUntil: 'load' });
    await page.locator('output[data-frame-of="generate"]', { hasText: /^frame 0,/ }).waitFor({ timeout: 20_000 });
    const frame = pickFrame(trace('over-create', { 'controller.naming': 'generate' }), { before: /^ADDED ConfigMap/ });
    for (let i = 0; i < frame; i++) await page.getByRole('button', { name: 'Step both' }).click();
    await page.locator('output[data-frame-of="generate"]', { hasText: new RegExp(`^frame ${frame},`) }).waitFor();
    await page.waitForLoadState('networkidle');
    const file = join(OUT, 'course-page.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`${file}\tframe ${frame}\texamples/course-page.html\tthe sample course page, its over-create pair stepped together`);
    for (const [kind, list] of Object.entries(problems)) {
      for (const item of list) {
        console.error(`screenshots: course-page.png: ${kind}: ${item}`);
        status = 1;
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(status);
