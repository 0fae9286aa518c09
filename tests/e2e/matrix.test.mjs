// The Matrix view (issue 36): the run on the page under the chaos matrix, a
// row per mitigation, computed in the page's worker. Each cell names its
// verdict in text, and says what the runner's `cachescope matrix` says of
// the same scenario; a cell opens its own run at the frame where it broke,
// with its held-back events marked on the scrubber. axe-clean.
// Run: `make build && node --test --test-reporter=spec tests/e2e/matrix.test.mjs`

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NO_PROBLEMS, axeProblems, openPage, openStage, quiet, readFrame, region, withServerAndBrowser } from './support.mjs';

const env = withServerAndBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const QUERY = '?s=over-create&controller.naming=generate';

/** The runner's matrix of the same scenario, and its exit code (1: a cell of the chosen row fails). */
const runner = spawnSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'matrix', 'over-create', '--set', 'controller.naming=generate'], {
  cwd: ROOT,
  encoding: 'utf8',
  maxBuffer: 64 << 20,
});
assert.ok(runner.status === 0 || runner.status === 1, `cachescope matrix: exit ${runner.status}: ${runner.stderr}`);
const native = JSON.parse(runner.stdout);

/** What a cell shows for a verdict the runner prints (`no_site` → "no site"). */
const label = (verdict) => verdict.replace('_', ' ');

async function openMatrix(page) {
  const opener = page.getByRole('button', { name: 'Chaos matrix', exact: true });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Chaos matrix' });
  await dialog.waitFor();
  // Done when the chosen row is said in a sentence.
  await dialog.getByRole('status').getByText(/on this row\.$/).waitFor({ timeout: 90_000 });
  return { opener, dialog };
}

test('the Matrix view names every cell of every row in words, as cachescope matrix does, and a cell opens its run at its breaking frame', async () => {
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [390, 844, 'dark']]) {
    const { page, context, problems } = await openPage(env.browser, env.server.origin, { width, height, colorScheme });
    try {
      await openStage(page, env.server.url, QUERY);
      const { opener, dialog } = await openMatrix(page);
      assert.equal(await dialog.locator('tbody tr').count(), native.rows.length, `${width}×${height}: a row per mitigation`);
      for (const row of native.rows) {
        for (const cell of row.cells) {
          const td = dialog.locator(`tr[data-row="${row.row}"] td[data-cell="${cell.cell}"]`);
          const text = await td.innerText();
          const at = `${row.row} × ${cell.cell}`;
          assert.match(text, new RegExp(`\\b${label(cell.verdict)}\\b`), `${at}: its verdict in text`);
          if (cell.verdict === 'broke') assert.match(text, new RegExp(`frame ${cell.broke.frame}\\b`), `${at}: its frame`);
          // Its name in words: the whole verdict, for a reader who cannot see the colour.
          const words = await td.locator('[title]').getAttribute('title');
          assert.match(words, new RegExp(`: ${label(cell.verdict)}\\b`), `${at}: ${words}`);
        }
      }
      // The chosen row in a sentence, agreeing with the runner's exit code.
      const chosen = native.rows.find((r) => r.row === native.chosen);
      const fails = chosen.cells.some((c) => c.verdict === 'broke' || c.verdict === 'stuck');
      assert.equal(runner.status, fails ? 1 : 0, 'the runner exits 1 when a cell of the chosen row fails');
      assert.match(await dialog.getByRole('status').innerText(), fails ? /fails on this row\.$/ : /passes on this row\.$/);
      assert.deepEqual(await axeProblems(page), [], `${width}×${height} ${colorScheme}`);
      await page.screenshot({ path: `/tmp/matrix-${width}x${height}-${colorScheme}.png` });
      // Escape closes it, giving the focus back to its button.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await opener.evaluate((b) => b === document.activeElement), true, 'the focus is back on Chaos matrix');

      // Cache sync lag without a mitigation: opened at its breaking frame, its late events marked.
      const lag = native.rows.find((r) => r.row === 'none').cells.find((c) => c.cell === 'CacheSyncLag');
      assert.equal(lag.verdict, 'broke', 'over-create with generated names breaks under CacheSyncLag unmitigated');
      await openMatrix(page);
      await page.locator('tr[data-row="none"] td[data-cell="CacheSyncLag"] button').click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await readFrame(page), lag.broke.frame, 'opened at the frame where it broke');
      assert.match(await region(page, 'Caption').innerText(), /Cache sync lag × No mitigation: broke children_within_desired at frame/);
      assert.ok((await page.locator('.held-mark').count()) >= 1, 'the fault is marked on the timeline');
      await page.screenshot({ path: `/tmp/matrix-opened-${width}x${height}-${colorScheme}.png` });
      // Taken home: the cell's run, up to where it broke, as a Go test.
      const download = page.waitForEvent('download');
      await page.locator('section[aria-label="Share and export"] details.menu').getByText('Export', { exact: true }).click();
      await page.getByRole('button', { name: 'Export Go test', exact: true }).click();
      const go = readFileSync(await (await download).path(), 'utf8');
      assert.match(go, new RegExp(`^// The run broke children_within_desired at frame ${lag.broke.frame}, in reconcile`, 'm'));
      // Flaky API server: each injected 500 marked on the scrubber, named.
      const flaky = native.rows.find((r) => r.row === 'none').cells.find((c) => c.cell === 'FlakyAPIServer');
      const fired = flaky.faults.find((f) => f.fault === 'child_create_fails').times;
      await openMatrix(page);
      await page.locator('tr[data-row="none"] td[data-cell="FlakyAPIServer"] button').click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await readFrame(page), flaky.broke.frame);
      const marks = region(page, 'Transport').getByRole('button', { name: /^Frame \d+: the create of ConfigMap .* made to fail: 500/ });
      await marks.first().waitFor();
      assert.equal(await marks.count(), fired, 'one mark for each injected 500 the matrix counted');
    } finally {
      assert.deepEqual(quiet(problems), NO_PROBLEMS);
      await context.close();
    }
  }
});
