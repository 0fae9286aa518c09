#!/usr/bin/env node
// Takes a full-page screenshot of the built page (dist/), served the way the
// end-to-end tests serve it (under a deep sub-path on 127.0.0.1).
//
//   node tests/e2e/screenshot.mjs out.png [query-string] [width] [height]
//
// e.g. `node tests/e2e/screenshot.mjs /tmp/page.png 's=over-create&frame=40' 390 844`.
// CACHESCOPE_DIST=/tmp/dist-x serves another build than dist/.
// COLOR_SCHEME=dark and REDUCED_MOTION=reduce emulate those preferences.
// Prints any console errors, page errors or off-origin requests to stderr.

import { launchBrowser, openPage, serveDist } from './support.mjs';

const [out, query = '', width = '1280', height = '800'] = process.argv.slice(2);
if (!out || out === '-h' || out === '--help') {
  console.error('usage: node tests/e2e/screenshot.mjs out.png [query-string] [width] [height]');
  process.exit(2);
}

const server = await serveDist();
const browser = await launchBrowser();
let status = 0;
try {
  const { page, problems } = await openPage(browser, server.origin, {
    width: Number(width),
    height: Number(height),
    colorScheme: process.env.COLOR_SCHEME === 'dark' ? 'dark' : 'light',
    reducedMotion: process.env.REDUCED_MOTION === 'reduce' ? 'reduce' : 'no-preference',
  });
  const q = query.replace(/^\?/, '');
  const url = server.url + (q ? `?${q}` : '');
  await page.goto(url, { waitUntil: 'load' });
  // Wait for the app to mount (the Cluster panel or an alert), then for the network to settle.
  await page
    .locator('section[aria-label="Cluster"]:visible, [role="alert"]:visible')
    .first()
    .waitFor({ timeout: 20_000 })
    .catch(() => console.error('screenshot: the app did not render the Cluster panel or an alert within 20 s'));
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: out, fullPage: true });
  console.error(`screenshot: wrote ${out} (${url}, ${width}×${height})`);
  for (const [kind, list] of Object.entries(problems)) {
    for (const item of list) {
      console.error(`screenshot: ${kind}: ${item}`);
      status = 1;
    }
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(status);
