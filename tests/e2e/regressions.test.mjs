// Regressions found by the end-to-end tests: a frame's picture does not depend on
// how you got there, and every change made at one frame reaches the URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { focusPage, openStage, openPage, readState, waitForFrame, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();

test('the Cache panel at a frame does not depend on how you got there', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin);
  await openStage(page, env.server.url, '?s=over-create&frame=40');
  const fresh = await readState(page, 40);
  await openStage(page, env.server.url, '?s=over-create&frame=38');
  await focusPage(page);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const stepped = await readState(page, 40);
  await context.close();
  assert.equal(stepped.text.Cache, fresh.text.Cache);
});

test('two changes at one frame both survive a reload', async () => {
  const { page, context } = await openPage(env.browser, env.server.origin);
  await openStage(page, env.server.url, '?s=over-create');
  await page.getByRole('radio', { name: 'GenerateName', exact: true }).check();
  await page.getByRole('slider', { name: 'Watch lag', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('input[aria-label="Watch lag in ms"]')?.value === '2100');
  await page.waitForLoadState('networkidle');
  const url = page.url();
  await page.goto('about:blank');
  await openStage(page, url);
  const generate = await page.getByRole('radio', { name: 'GenerateName', exact: true }).isChecked();
  await context.close();
  assert.ok(generate, `GenerateName is lost from ${decodeURIComponent(url)}`);
});

test('the keys still work after clicking a transport button', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.origin);
  await openStage(page, env.server.url, '?s=over-create&frame=5');
  // Clicking leaves the focus on the button: arrows and R are still the page's.
  await page.getByRole('button', { name: 'Step forward', exact: true }).click();
  await waitForFrame(page, 6);
  await page.keyboard.press('ArrowRight');
  await waitForFrame(page, 7);
  await page.keyboard.press('ArrowLeft');
  await waitForFrame(page, 6);
  await page.keyboard.press('r');
  await waitForFrame(page, 0);
  // Space on a focused button presses the button (here: Step forward), as buttons do.
  await page.keyboard.press(' ');
  await waitForFrame(page, 1);
  await context.close();
  assert.deepEqual(problems.pageErrors, []);
});
