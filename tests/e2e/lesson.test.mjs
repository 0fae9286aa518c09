// Lessons (issue 19): a learner who follows a preset's lesson literally, by
// keyboard alone, is asked before being told, gets the run's figures, and
// changes the lab's one line with the page's own control; the lesson
// resumes from its URL; a course platform hears each answer and the score.
// Run: `make build && node --test --test-reporter=spec tests/e2e/lesson.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, axeProblems, openPage, openStage, quiet, readFrame, region, waitForFrame, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The runner's report of a preset: its lesson, step by step, as the learner will be told it. */
function lessonOf(preset) {
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'run', preset], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out).lesson;
}

/** Presses Tab (or `key`) until the focused element matches `test` (by the focused element's role and name), at most `max` times. */
async function tabTo(page, describe, max = 80, key = 'Tab') {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName, type: el?.getAttribute('type'), text: (el?.getAttribute('aria-label') || el?.labels?.[0]?.innerText || el?.innerText || '').trim() };
    });
    if (describe(focused)) return focused;
  }
  throw new Error('Tab never reached the control');
}

const lessonRegion = (page) => region(page, 'Lesson');

/** The focused element's accessible text. */
const focusedText = (page) => page.evaluate(() => (document.activeElement?.innerText || document.activeElement?.getAttribute('aria-label') || '').trim());

test('the over-create lesson, by keyboard alone: asked before it is shown, wrong and right said plainly, GenerateName waited for, 11', async () => {
  const told = lessonOf('over-create');
  assert.equal(told.length, 4);
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 1280, height: 720 });
  try {
    await openStage(page, env.server.url, '?s=over-create');
    const lesson = lessonRegion(page);
    await lesson.getByRole('button', { name: 'Start the lesson' }).waitFor();
    await tabTo(page, (f) => f.text === 'Start the lesson');
    await page.keyboard.press('Enter');
    // Step 1 is asked at frame 0, before the run shows anything; the field has the focus.
    await lesson.getByText('Step 1 of 4', { exact: true }).waitFor();
    assert.equal(await readFrame(page), 0, 'asked before the run shows it');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'prediction');
    assert.equal(await page.getByLabel('Your prediction').count(), 1);
    assert.match(page.url(), /[?&]lesson=1(&|$)/);
    // A wrong prediction: the run's value, plainly, and why; the panel it is about lit.
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    const verdict = lesson.locator('.verdict');
    await verdict.waitFor({ timeout: 15_000 });
    assert.equal(await verdict.innerText(), `You said 4; the run says ${told[0].answer}. Not this time; here is why.`);
    assert.match(await verdict.getAttribute('class'), /\bwrong\b/, 'marked ✗ (a shape, not only a colour)');
    assert.equal(await lesson.locator('.reveal').innerText(), told[0].reveal);
    assert.equal(await readFrame(page), told[0].frame, 'paused at the step frame');
    assert.equal(await page.locator('.app').getAttribute('data-lit'), 'cache', 'the Cache, which the answer counts');
    const cache = await region(page, 'Cache').innerText();
    assert.match(cache, /lacks 4/, cache);
    assert.doesNotMatch(cache, /beta-voice/, 'no ConfigMap in the Cache yet');
    assert.equal(await focusedText(page), 'Next step', 'the focus goes to Next step');
    await page.keyboard.press('Enter');
    // Step 2, right: said so.
    await lesson.getByText('Step 2 of 4', { exact: true }).waitFor();
    assert.equal(await readFrame(page), told[0].frame, 'asked where step 1 paused');
    await page.keyboard.type(String(told[1].answer));
    await page.keyboard.press('Enter');
    await verdict.filter({ hasText: 'Right.' }).waitFor({ timeout: 20_000 });
    assert.equal(await verdict.innerText(), `You said ${told[1].answer}; the run says ${told[1].answer}. Right.`);
    assert.match(await verdict.getAttribute('class'), /\bright\b/);
    await page.keyboard.press('Enter');
    // Step 3 waits for GenerateName, made with the page's own control.
    await lesson.getByText('Step 3 of 4', { exact: true }).waitFor();
    await lesson.locator('.waiting', { hasText: 'Waiting for your change (controller.naming = generate)' }).waitFor();
    assert.equal(await page.getByLabel('Your prediction').isVisible(), false, 'no answer before the change');
    await tabTo(page, (f) => f.type === 'radio' && /Deterministic names/.test(f.text), 120);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByLabel('GenerateName', { exact: true }).isChecked(), true);
    // The run starts again from frame 0, and waits there for the prediction.
    await page.getByLabel('Your prediction').waitFor({ state: 'visible' });
    assert.equal(await readFrame(page), 0, 'rerun from frame 0, not played on');
    assert.match(page.url(), /controller\.naming=generate/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'prediction');
    await page.keyboard.type('8');
    await page.keyboard.press('Enter');
    await verdict.waitFor({ timeout: 20_000 });
    assert.equal(told[2].answer, 11);
    assert.equal(await verdict.innerText(), 'You said 8; the run says 11. Not this time; here is why.');
    const cluster = await region(page, 'Cluster').innerText();
    assert.equal(cluster.match(/\bbeta-voice-\w+/g)?.length, 11, cluster);
    await page.keyboard.press('Enter');
    // Step 4: back to reconcile 3's start, before it reads or creates: nothing
    // on screen says what it will do (the run's end said "3 of its creates").
    await lesson.getByText('Step 4 of 4', { exact: true }).waitFor();
    await waitForFrame(page, told[3].ask_frame);
    assert.ok(told[3].ask_frame < told[3].frame && told[3].frame < told[2].frame, JSON.stringify(told[3]));
    const caption = await region(page, 'Caption').innerText();
    assert.match(caption, /reconcile 3, queued by ADDED ConfigMap/, caption);
    assert.doesNotMatch(caption, /creates answered|reads the cache|creates 3/, caption);
    assert.equal(await region(page, 'Observations').locator('li.check').count(), 0, "the lab's checks wait for the answer");
    const radios = lesson.getByRole('radio');
    assert.equal(await radios.count(), 3);
    await page.keyboard.press('ArrowDown');
    assert.equal(await radios.nth(1).isChecked(), true);
    await tabTo(page, (f) => f.text === 'Check', 5);
    await page.keyboard.press('Enter');
    await verdict.filter({ hasText: 'Right.' }).waitFor({ timeout: 10_000 });
    assert.equal(await readFrame(page), told[3].frame, "paused at reconcile 3's return, where the reveal speaks");
    assert.equal(await focusedText(page), 'Finish');
    await page.keyboard.press('Enter');
    await lesson.locator('.verdict', { hasText: 'Lesson complete: 2 of your 4 answers matched the run.' }).waitFor();
    assert.equal(await lesson.locator('[aria-live]').innerText(), 'Lesson complete: 2 of your 4 answers matched the run.', 'announced');
    // The notes, in a dialog of their own: each write row, the prediction beside the run's figure.
    await tabTo(page, (f) => /^Your notes \(4\)$/.test(f.text), 5, 'Shift+Tab');
    await page.keyboard.press('Enter');
    const notes = page.getByRole('dialog', { name: 'Your notes' });
    await notes.waitFor();
    const rows = await notes.locator('table.notes-rows tbody tr').allInnerTexts();
    assert.deepEqual(rows.map((r) => r.split('\t').map((c) => c.trim())), [
      ['What reconcile 2 counts in its cache', '4', String(told[0].answer)],
      ['ConfigMaps with deterministic names', String(told[1].answer), String(told[1].answer)],
      ['ConfigMaps with GenerateName', '8', '11'],
    ]);
    // And the lab's comparison, with this run's figures in it.
    const compared = await notes.locator('.lesson-table tbody tr').first().innerText();
    assert.match(compared, new RegExp(`^makes creates\\s+idempotent: in this run ${told[1].figures.conflicts} repeated creates came back 409 AlreadyExists, and beta kept ${told[1].answer} ConfigMaps`));
    // The learner's own sentence (the lab's "your operator's row"), in their words, copied with the rest.
    const sentence = notes.getByRole('textbox', { name: /^Your operator's row, in one sentence/ });
    await sentence.fill('Ours names its children, so a repeated create is a 409, not a duplicate.');
    // Copy as Markdown is in the dialog, whole; Escape closes it and gives the focus back.
    const copy = notes.getByRole('button', { name: 'Copy as Markdown' });
    const box = await copy.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 720, JSON.stringify(box));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    await copy.click();
    await notes.getByText('Copied.').waitFor();
    const md = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(md, /\*\*Your operator's row, in one sentence: .*\*\*\n\nOurs names its children, so a repeated create is a 409, not a duplicate\.\n$/, md);
    assert.deepEqual(await axeProblems(page), []);
    await page.keyboard.press('Escape');
    await notes.waitFor({ state: 'detached' });
    assert.match(await focusedText(page), /^Your notes/);
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('lesson=1&step=3 resumes at step 3, and reloads there; a bad step is named', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin, { width: 390, height: 844, colorScheme: 'dark' });
  try {
    await openStage(page, env.server.url, '?s=over-create&lesson=1&step=3');
    const lesson = lessonRegion(page);
    await lesson.getByText('Step 3 of 4', { exact: true }).waitFor();
    await lesson.locator('.waiting').waitFor();
    await page.reload();
    await lesson.getByText('Step 3 of 4', { exact: true }).waitFor();
    // The region fits the phone's stage: the question and the Cluster in view, no page scroll.
    const box = await lesson.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 844, JSON.stringify(box));
    assert.equal(await page.evaluate(() => document.scrollingElement.scrollHeight <= window.innerHeight), true);
    for (const b of await lesson.getByRole('button').all()) {
      const r = await b.boundingBox();
      assert.ok(r.width >= 44 && r.height >= 44, `${await b.innerText()}: ${r.width}×${r.height}`);
    }
    assert.deepEqual(await axeProblems(page), []);
    // The settings are folded into a popover here: the step offers to open it, and the change is the learner's.
    assert.equal(await lesson.getByRole('button', { name: 'Make the change' }).count(), 0);
    const generate = page.getByRole('radio', { name: 'GenerateName' });
    assert.equal(await generate.isVisible(), false, 'folded away until asked for');
    await lesson.getByRole('button', { name: 'Open Settings' }).click();
    await generate.waitFor({ state: 'visible' });
    await generate.check();
    await lesson.getByLabel('Your prediction').waitFor({ state: 'visible' });
    assert.equal(await lesson.locator('.waiting').count(), 0, 'the change is made: the step asks');
    await openStage(page, env.server.url, '?s=over-create&lesson=1&step=9');
    await page.getByRole('alert').getByText('URL parameter step: the lesson has 4 steps; it starts at the first (got "9")').waitFor();
    await lesson.getByText('Step 1 of 4', { exact: true }).waitFor();
    assert.deepEqual(quiet(problems), NO_PROBLEMS);
  } finally {
    await context.close();
  }
});

test('a cross-origin course page hears each answer and the score', async () => {
  // The host page, on an origin of its own (another port), embedding the app.
  const app = `${env.server.url}?s=read-your-write&embed=1&lesson=1&controls=all`;
  const host = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>host</title><iframe src="${app}" width="800" height="500" title="cachescope"></iframe>
      <script>window.__messages = []; addEventListener('message', (e) => window.__messages.push({ origin: e.origin, data: e.data }));</script>`);
  });
  await new Promise((r) => host.listen(0, '127.0.0.1', r));
  const hostOrigin = `http://127.0.0.1:${host.address().port}`;
  const { page, context } = await openPage(env.browser, hostOrigin, { width: 900, height: 600 });
  try {
    const told = lessonOf('read-your-write');
    await page.goto(`${hostOrigin}/`);
    const frame = page.frameLocator('iframe');
    const lesson = frame.getByRole('region', { name: 'Lesson', exact: true });
    await lesson.getByText(`Step 1 of ${told.length}`, { exact: true }).waitFor({ timeout: 20_000 });
    const scenario = JSON.parse(execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'run', 'read-your-write'], { cwd: ROOT, encoding: 'utf8' }));
    assert.equal(scenario.lesson.length, told.length);
    for (let i = 0; i < told.length; i++) {
      await lesson.getByText(`Step ${i + 1} of ${told.length}`, { exact: true }).waitFor({ timeout: 20_000 });
      // The question's field, its choices, or what it waits for, once drawn.
      await lesson.locator('#prediction:visible, input[type=radio]:visible, .waiting').first().waitFor();
      const waiting = lesson.locator('.waiting');
      if (await waiting.isVisible()) {
        // This embed shows the settings: the learner makes the change there.
        await frame.locator('details.settings > summary').click();
        await frame.getByLabel('GenerateName', { exact: true }).check();
        await frame.locator('details.settings > summary').click();
      }
      const radios = lesson.getByRole('radio');
      if ((await radios.count()) > 0) {
        await radios.first().check();
      } else {
        await lesson.getByLabel('Your prediction').fill(String(told[i].answer));
      }
      await lesson.getByRole('button', { name: 'Check' }).click();
      await lesson.getByRole('button', { name: i + 1 === told.length ? 'Finish' : 'Next step' }).click({ timeout: 30_000 });
    }
    const lessonMessages = await page.evaluate(() => window.__messages.filter((m) => m.data?.cachescope === 'lesson'));
    const answered = lessonMessages.filter((m) => m.data.event === 'answered');
    assert.equal(answered.length, told.length, JSON.stringify(lessonMessages));
    for (const [i, m] of answered.entries()) {
      assert.equal(m.origin, env.server.origin, 'from the app, cross-origin');
      assert.equal(m.data.step, i + 1);
      assert.equal(typeof m.data.correct, 'boolean');
      if (typeof m.data.response === 'number') {
        assert.equal(m.data.expected, told[i].answer);
        assert.equal(m.data.correct, true);
      }
    }
    const completed = lessonMessages.find((m) => m.data.event === 'completed');
    const raw = answered.filter((m) => m.data.correct).length;
    assert.deepEqual(completed?.data.score, { raw, max: told.length, scaled: Math.round((raw / told.length) * 1000) / 1000 });
    // The height the content needs, for a host that sizes the iframe to it: at the end, the iframe's 500 px.
    const resized = await page.evaluate(() => window.__messages.filter((m) => m.data?.cachescope === 'resize').map((m) => m.data.height));
    assert.ok(resized.length >= 1 && resized.at(-1) === 500, JSON.stringify(resized));
    const frames = await page.evaluate(() => window.__messages.filter((m) => m.data?.cachescope === 'frame').map((m) => m.data));
    // The frame message says where the run ends, once the page knows, and whether it is there.
    assert.ok(frames.some((f) => f.last_frame === scenario.frames), JSON.stringify(frames.at(-1)));
    assert.ok(frames.every((f) => f.at_end === (f.last_frame !== null && f.frame === f.last_frame)), JSON.stringify(frames));
  } finally {
    await context.close();
    await new Promise((r) => host.close(r));
  }
});

test('a host hears a larger height when a reveal opens, and fits its iframe to show it whole', async () => {
  const app = `${env.server.url}?s=over-create&embed=1&lesson=1&controls=transport`;
  const host = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    // The host sizes its iframe to what the page says it needs.
    res.end(`<!doctype html><title>host</title><iframe src="${app}" width="800" height="500" title="cachescope"></iframe>
      <script>window.__heights = []; addEventListener('message', (e) => { if (e.data?.cachescope === 'resize') { window.__heights.push(e.data.height); document.querySelector('iframe').height = e.data.height; } });</script>`);
  });
  await new Promise((r) => host.listen(0, '127.0.0.1', r));
  const { page, context } = await openPage(env.browser, `http://127.0.0.1:${host.address().port}`, { width: 900, height: 1400, reducedMotion: 'reduce' });
  try {
    const told = lessonOf('over-create');
    await page.goto(`http://127.0.0.1:${host.address().port}/`);
    const frame = page.frameLocator('iframe');
    const lesson = frame.getByRole('region', { name: 'Lesson', exact: true });
    for (const i of [0, 1]) {
      await lesson.getByText(`Step ${i + 1} of ${told.length}`, { exact: true }).waitFor({ timeout: 20_000 });
      await lesson.getByLabel('Your prediction').fill(String(told[i].answer));
      await lesson.getByRole('button', { name: 'Check' }).click();
      await lesson.locator('.verdict').waitFor();
      if (i === 0) await lesson.getByRole('button', { name: 'Next step' }).click();
    }
    // Step 2's reveal carries the lab's table: more than the 500 px iframe holds.
    await page.waitForFunction(() => window.__heights.some((h) => h > 500), null, { timeout: 10_000 });
    // Fitted to what it says, the page settles (it needs what it has), and the step shows whole.
    await page.waitForTimeout(500);
    const settled = await page.evaluate(() => window.__heights.at(-1));
    assert.ok(settled > 500, JSON.stringify(await page.evaluate(() => window.__heights)));
    assert.equal(Number(await page.locator('iframe').getAttribute('height')), settled);
    const body = frame.locator('.lesson-body');
    assert.ok(await body.evaluate((el) => el.scrollHeight - el.clientHeight <= 1), `the reveal whole at ${settled} px`);
  } finally {
    await context.close();
    await new Promise((r) => host.close(r));
  }
});
