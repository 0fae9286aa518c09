// Every preset's lesson at the four sizes people use (issue 33): predict,
// then look. While a question is open nothing on the page says its answer;
// after Check the verdict and Next step (or Finish) are in view, uncovered;
// every step is answered by keyboard alone, "Make the change" included.
// Run: `make build && node --test --test-reporter=spec tests/e2e/lessons.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { axeProblems, makeRecipeChange, openPage, openStage, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VIEWPORTS = [
  [1280, 720],
  [1440, 900],
  [390, 844],
  [844, 390],
];

const runner = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
/** Every preset with a lesson, and the lesson as the runner plays it. */
const LESSONS = runner('presets')
  .trim()
  .split('\n')
  .map((line) => line.split(/\s+/)[0])
  .map((name) => ({ name, told: JSON.parse(runner('run', name)).lesson ?? [] }))
  .filter((p) => p.told.length > 0);

/**
 * The figures a sentence states in digits, as `cachescope check` reads them
 * (src/scenario/lesson.rs, `stated_figures`): not names, versions or issue
 * numbers, not citations ("reconcile 3", "frame 12") nor status codes.
 */
function statedFigures(text) {
  const out = [];
  for (const m of text.matchAll(/\d[\d,]*\d|\d/g)) {
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    if (/[\w\-#_.{]$/.test(before) || /^[A-Za-z]|^\.\d/.test(after)) continue;
    if (/\b(lab|step|steps|reconcile|frame|line)\s*$/i.test(before)) continue;
    if (/^ (NotFound|AlreadyExists|Created|OK|Conflict)/.test(after)) continue;
    out.push(Number(m[0].replaceAll(',', '')));
  }
  return out;
}

/** The element is inside the viewport, and what is drawn at its middle is it. */
async function seenWhole(locator, [width, height]) {
  const box = await locator.boundingBox();
  assert.ok(box, 'drawn');
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
  assert.ok(inside, `inside the ${width}×${height} viewport: ${JSON.stringify(box)}`);
  const uncovered = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
  assert.ok(uncovered, `${await locator.innerText()}: not covered`);
}

/** Tab until the focused element's text matches, at most `max` times. */
async function tabTo(page, re, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => (document.activeElement?.innerText || document.activeElement?.getAttribute('aria-label') || '').trim());
    if (re.test(text)) return;
  }
  throw new Error(`Tab never reached ${re}`);
}

for (const viewport of VIEWPORTS) {
  test(`every preset's lesson at ${viewport.join('×')}: asked before the screen answers, the verdict and what follows in view, by keyboard`, async () => {
    const [width, height] = viewport;
    const { page, context } = await openPage(env.browser, env.server.origin, { width, height, reducedMotion: 'reduce' });
    try {
      for (const { name, told } of LESSONS) {
        // controls=transport: a step that waits for a change offers "Make the change", reached by Tab.
        await openStage(page, env.server.url, `?s=${name}&lesson=1&controls=transport`);
        const lesson = region(page, 'Lesson');
        for (const [i, step] of told.entries()) {
          const where = `${name} step ${i + 1}`;
          await lesson.getByText(`Step ${i + 1} of ${told.length}`, { exact: true }).waitFor();
          const change = lesson.getByRole('button', { name: 'Make the change' });
          if (await change.count()) {
            await change.focus();
            await page.keyboard.press('Enter');
          }
          // A change of the recipe's own is made in Your controller, in the embed too.
          if (await lesson.getByRole('button', { name: 'Open Your controller' }).count()) {
            const doc = JSON.parse(readFileSync(`${ROOT}scenarios/${name}.json`, 'utf8'));
            await makeRecipeChange(page, doc.lesson[i].set);
          }
          await lesson.locator('#prediction:visible, input[type=radio]:visible').first().waitFor();
          assert.equal(await readFrame(page), step.ask_frame, `${where}: asked at its frame`);
          // Nothing on screen says the answer: the lab's checks wait, and the
          // caption states no figure equal to it but the counts the screen shows now.
          assert.equal(await page.locator('.observations li.check').count(), 0, `${where}: no check while asking`);
          // On a phone the caption gives the lesson its room: hidden, it says nothing.
          const captionShown = page.locator('.caption-region .caption:visible');
          const caption = (await captionShown.count()) ? await captionShown.innerText() : '';
          assert.doesNotMatch(caption, /End of run/, where);
          const now = [region(page, 'Cluster'), region(page, 'Cache'), page.locator('.observations .facts')];
          const present = (await Promise.all(now.map(async (r) => ((await r.count()) ? statedFigures(await r.first().innerText()) : [])))).flat();
          if (!present.includes(step.answer)) {
            assert.ok(!statedFigures(caption).includes(step.answer), `${where}: the caption states the answer ${step.answer}: ${caption}`);
          }
          // Answer by keyboard: the field (or the first choice) has the focus.
          if (step.choice === undefined) {
            await page.keyboard.type(String(step.answer));
            await page.keyboard.press('Enter');
          } else {
            for (let c = 0; c < step.choice; c++) await page.keyboard.press('ArrowDown');
            if (step.choice === 0) await page.keyboard.press('Space');
            await tabTo(page, /^Check$/, 5);
            await page.keyboard.press('Enter');
          }
          const verdict = lesson.locator('.verdict');
          await verdict.waitFor({ timeout: 20_000 });
          assert.match(await verdict.innerText(), /Right\.$/, where);
          assert.equal(await readFrame(page), step.frame, `${where}: paused at the answer's frame`);
          const next = lesson.getByRole('button', { name: i + 1 === told.length ? 'Finish' : 'Next step' });
          await seenWhole(verdict, viewport);
          await seenWhole(next, viewport);
          assert.equal(await page.evaluate(() => document.activeElement?.innerText), await next.innerText(), `${where}: the focus on what follows`);
          await page.keyboard.press('Enter');
        }
        await lesson.locator('.verdict', { hasText: `Lesson complete: ${told.length} of your ${told.length} answers matched the run.` }).waitFor();
      }
    } finally {
      await context.close();
    }
  });
}

test('a reveal with the lab\'s table, and Your notes over it, at the four sizes, light and dark: axe-clean, the table read whole', async () => {
  for (const viewport of VIEWPORTS) {
    for (const colorScheme of ['light', 'dark']) {
      const [width, height] = viewport;
      const { page, context } = await openPage(env.browser, env.server.origin, { width, height, colorScheme, reducedMotion: 'reduce' });
      try {
        await openStage(page, env.server.url, '?s=over-create&lesson=1&step=2');
        const lesson = region(page, 'Lesson');
        await lesson.getByText('Step 2 of 4', { exact: true }).waitFor();
        await page.getByLabel('Your prediction').fill('4');
        await lesson.getByRole('button', { name: 'Check', exact: true }).click();
        await lesson.getByRole('button', { name: 'Next step' }).waitFor();
        // The table's rows stack in the lesson's column: nothing to scroll sideways.
        const table = lesson.locator('.lesson-table');
        assert.ok(await table.evaluate((t) => t.scrollWidth <= t.parentElement.clientWidth + 1), `${width}×${height}: the table fits its column`);
        assert.deepEqual(await axeProblems(page), [], `${width}×${height} ${colorScheme}: the reveal`);
        await lesson.getByRole('button', { name: /^Your notes/ }).click();
        const notes = page.getByRole('dialog', { name: 'Your notes' });
        await notes.waitFor();
        await seenWhole(notes.getByRole('button', { name: 'Copy as Markdown' }), viewport);
        const fits = await notes.locator('.lesson-table').evaluate((t) => t.scrollWidth <= t.closest('.dialog').clientWidth);
        assert.ok(fits, `${width}×${height}: the notes' table fits the dialog`);
        assert.deepEqual(await axeProblems(page), [], `${width}×${height} ${colorScheme}: Your notes`);
      } finally {
        await context.close();
      }
    }
  }
});
