import { chromium } from 'playwright-core';
import { serveDist, CHROMIUM, CHROMIUM_ARGS } from './support.mjs';
const server = await serveDist();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const [w, h, scheme, q, actions] = [+process.argv[2], +process.argv[3], process.argv[4], process.argv[5], process.argv[6] ?? ''];
const context = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme, reducedMotion: 'no-preference' });
const page = await context.newPage();
const logs = [];
page.on('console', (m) => logs.push(m.text()));
page.on('pageerror', (e) => logs.push('ERR ' + e.message));
await page.goto(server.url + q);
await page.waitForSelector('.transport', { timeout: 20000 });
await page.waitForTimeout(500);
let i = 0;
for (const a of actions.split('|').filter(Boolean)) {
  const [verb, arg] = a.split(':');
  if (verb === 'click') await page.getByRole('button', { name: arg, exact: true }).click();
  if (verb === 'type') { await page.getByLabel('Your prediction').fill(arg); }
  if (verb === 'key') await page.keyboard.press(arg);
  if (verb === 'wait') await page.waitForTimeout(+arg);
  if (verb === 'label') await page.getByLabel(arg, { exact: true }).check();
  if (verb === 'radio') await page.getByRole('radio').nth(+arg).check();
  if (verb === 'shot') await page.screenshot({ path: `/tmp/shots/${arg}.png` });
  if (verb === 'text') console.log('TEXT', (await page.locator(arg).innerText()).slice(0, 600));
}
console.log('URL', page.url().replace(server.url, ''));
console.log(logs.join('\n'));
await browser.close(); await server.close();
