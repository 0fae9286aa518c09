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

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openStage, openPage, serveDist, waitForFrame } from '../tests/e2e/support.mjs';
import { TELLING, pickFrame, tellingQuery, trace } from '../tests/e2e/telling.mjs';

const OUT = 'docs/screenshots';
// Each picture at the two laptop sizes the stage is designed for: the whole
// stage is the window, so the picture is the window.
const SIZES = [
  [1440, 900],
  [1280, 720],
];
// The two lab presets on a phone, either way up, and one in the dark.
const PHONES = [
  [390, 844],
  [844, 390],
];
const ON_PHONES = new Set(['over-create-generate', 'empty-cache']);

mkdirSync(OUT, { recursive: true });
const server = await serveDist();
const browser = await launchBrowser();
let status = 0;
try {
  const index = [
    '# Screenshots',
    '',
    'Redrawn by `make screenshots` (`scripts/screenshots.mjs`): each preset at its telling frame, found by its',
    "caption in the runner's trace, at 1440×900 and 1280×720 (the two lab presets also at 390×844, 844×390 and",
    "1440×900 dark: `-390`, `-844`, `-1440-dark`). The frame numbers below are this run's.",
    '',
    '| picture | frame | query |',
    '| --- | --- | --- |',
  ];
  for (const shot of TELLING) {
    const { frame, query } = tellingQuery(shot);
    index.push(`| [${shot.alt}](${shot.file}-1440.png) ([1280×720](${shot.file}-1280.png)) | ${frame} | \`${query}\` |`);
    const sizes = SIZES.map(([w, h]) => [w, h, 'light']);
    if (ON_PHONES.has(shot.file)) sizes.push(...PHONES.map(([w, h]) => [w, h, 'light']), [1440, 900, 'dark']);
    for (const [width, height, colorScheme] of sizes) {
      const { page, context, problems } = await openPage(browser, server.origin, { width, height, colorScheme });
      await openStage(page, server.url, query);
      await waitForFrame(page, frame);
      await page.waitForLoadState('networkidle');
      const file = join(OUT, `${shot.file}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`);
      await page.screenshot({ path: file });
      console.log(`${file}\tframe ${frame}\t${query}\t${shot.alt}`);
      for (const [kind, list] of Object.entries(problems)) {
        for (const item of list) {
          console.error(`screenshots: ${file}: ${kind}: ${item}`);
          status = 1;
        }
      }
      await context.close();
    }
  }
  writeFileSync(join(OUT, 'README.md'), `${index.join('\n')}\n`);
  // The sample course page, with its over-create runs stepped to where they part ways.
  {
    const { page, context, problems } = await openPage(browser, server.origin, { width: 1700, height: 1000 });
    await page.goto(`${server.url}examples/course-page.html`, { waitUntil: 'load' });
    const both = page.frameLocator('iframe[data-name="over-create"]');
    const runB = both.getByRole('region', { name: 'Run B', exact: true });
    await runB.waitFor({ timeout: 20_000 });
    const frame = pickFrame(trace('over-create', { 'controller.naming': 'generate', seed: '7' }), { at: /^Reconcile 3 reads the cache/ });
    // The one transport steps both runs, as a learner does: press it until Run B is there.
    const shown = async () => Number((await runB.locator('.run-clock').innerText()).match(/frame (\d+)$/)[1]);
    for (let i = 0; i < 2 * frame && (await shown()) < frame; i++) {
      await both.getByRole('button', { name: 'Step forward' }).click();
    }
    await page.waitForLoadState('networkidle');
    const file = join(OUT, 'course-page.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`${file}\tframe ${await shown()}\texamples/course-page.html\tthe sample course page, its over-create runs side by side`);
    for (const [kind, list] of Object.entries(problems)) {
      for (const item of list) {
        console.error(`screenshots: course-page.png: ${kind}: ${item}`);
        status = 1;
      }
    }
    await context.close();
  }
  // A lesson, its first step answered (wrongly: the run says so), and two runs side by side at their end.
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [390, 844, 'dark']]) {
    const { page, context, problems } = await openPage(browser, server.origin, { width, height, colorScheme, reducedMotion: 'reduce' });
    await openStage(page, server.url, '?s=over-create&lesson=1');
    await page.getByLabel('Your prediction').fill('4');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByRole('button', { name: 'Next step' }).waitFor({ timeout: 20_000 });
    const lessonFile = join(OUT, `lesson-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`);
    await page.screenshot({ path: lessonFile });
    console.log(`${lessonFile}\t${await page.getByText(/^Frame \d+$/).innerText()}\tthe over-create lesson\tstep 1 answered 4; the run says 0`);
    await page.goto(`${server.url}?s=over-create&compare=controller.naming%3Dgenerate`);
    await page.getByRole('region', { name: 'Run B', exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('region', { name: 'Transport', exact: true }).getByRole('button', { name: 'Play' }).click();
    await page.getByRole('region', { name: 'Transport', exact: true }).getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    const compareFile = join(OUT, `compare-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`);
    await page.screenshot({ path: compareFile });
    console.log(`${compareFile}\tthe end\tover-create, deterministic names against GenerateName\t4 against 11`);
    for (const [kind, list] of Object.entries(problems)) {
      for (const item of list) {
        console.error(`screenshots: ${lessonFile}: ${kind}: ${item}`);
        status = 1;
      }
    }
    await context.close();
  }
  // A bug found by "Can it go wrong?": over-create with GenerateName at watch lag 0,
  // clean on the default timing, broken by one held-back event; the page at the
  // breaking frame, and its Space-time view.
  {
    const { page, context, problems } = await openPage(browser, server.origin, { width: 1440, height: 900 });
    await openStage(page, server.url, '?s=over-create&controller.naming=generate&cluster.watch_lag_ms=0');
    await page.getByText('Can it go wrong?', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Invariant' }).selectOption('children_within_desired');
    await page.getByRole('button', { name: 'Find a bug', exact: true }).click();
    const found = page.locator('section[aria-label="Caption"] [role="status"]').filter({ hasText: /^Found after/ });
    await found.waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    const file = join(OUT, 'found-bug-1440.png');
    await page.screenshot({ path: file });
    console.log(`${file}\t${await page.getByText(/^Frame \d+$/).innerText()}\tFind a bug\t${await found.locator("span").first().innerText()}`);
    await page.getByRole('button', { name: 'Dismiss the notice' }).click();
    const spacetime = page.getByRole('region', { name: 'Space-time', exact: true });
    await spacetime.scrollIntoViewIfNeeded();
    await spacetime.screenshot({ path: join(OUT, 'found-bug-spacetime.png') });
    for (const [kind, list] of Object.entries(problems)) {
      for (const item of list) {
        console.error(`screenshots: found-bug-1440.png: ${kind}: ${item}`);
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
