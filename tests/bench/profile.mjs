#!/usr/bin/env node
// `make profile`: where a played frame's script time goes, by panel. A CPU
// profile of the run `make bench` plays (tests/bench/runs.mjs), taken on a
// build of the page that keeps its function names, written to a file
// (open it in Chromium's DevTools, Performance panel, "Load profile"), and
// summed up on stdout: the script time by panel, then each panel's top
// functions by self time.
//
//   node tests/bench/profile.mjs [--raw WASM] [--run play|largest|load] [--panels LIST] [--ms N] [--top N] [--from FILE]
//
// --raw: cargo's wasm of the page built for profiling (default
//        target/profile/wasm32-unknown-unknown/release/cachescope-web.wasm; the
//        Makefile builds it without `erase_components` and with v0 symbol
//        names, so generic code carries the types it was built for: the
//        closure of a panel's view that a render effect runs says which panel
//        it is; under `erase_components` every panel's updates run through the
//        same few type-erased functions).
// --run: the 500-replica run (play, the default), the largest scenario, or
//        the bare URL's load, from navigation to the first drawn frame (the
//        `cachescope:first-frame` mark `make bench`'s first_frame_ms reads).
// --panels: the run with only these panels (the URL's `panels=`, e.g.
//        `spacetime` or `cluster,watch`), the first scrolled into view, as
//        `make bench`'s frame_work_<panel>_p95_ms plays it: a panel below
//        the first screen is drawn while playing only when in view.
// --ms:  how long a played run is profiled, in ms of wall time (5000).
// --top: functions printed per panel (5).
// --from: sum up a profile this wrote before (a .cpuprofile), building and running nothing.
//
// The page is dist/ (from `make build`) with its wasm and its wasm-bindgen
// glue replaced by the profiling build's, put through wasm-bindgen and
// wasm-opt as Trunk does (tests/bench/wasm-breakdown.mjs's flags) but
// keeping names (`-g`): target/profile/dist/.
//
// A sample is counted for the panel nearest it on its stack: walking from
// the sampled function to the root, the first whose name is this crate's
// `ui::panels::<panel>` or `view::panels::<panel>` (the other modules of
// `ui` and `view` name themselves: `playback`, `state`...). A sample with no
// frame of this crate on its stack is counted under the crate it is in
// (`reactive_graph`, `tachys`...) or `(js)`, `(garbage collector)`,
// `(program)`: the browser's own work, style and layout among it.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, launchBrowser, openPage, serveDist } from '../e2e/support.mjs';
import { LARGEST_QUERY, PLAY_QUERY } from './runs.mjs';
import { WASM_OPT_FLAGS, crateOf } from './wasm-breakdown.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK = path.join(ROOT, 'target/profile');
const RAW_WASM = path.join(WORK, 'wasm32-unknown-unknown/release/cachescope-web.wasm');

class Usage extends Error {}

function parseArgs(argv) {
  const args = { raw: RAW_WASM, run: 'play', panels: undefined, ms: 5_000, top: 5, from: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Usage(`${flag} needs a value`);
    if (flag === '--raw') args.raw = path.resolve(value);
    else if (flag === '--run' && ['play', 'largest', 'load'].includes(value)) args.run = value;
    else if (flag === '--panels' && /^[a-z]+(,[a-z]+)*$/.test(value)) args.panels = value;
    else if (flag === '--ms' && Number(value) > 0) args.ms = Number(value);
    else if (flag === '--from') args.from = path.resolve(value);
    else if (flag === '--top' && Number.isInteger(Number(value)) && Number(value) > 0) args.top = Number(value);
    else throw new Usage(`${flag} ${value}: expected --raw WASM, --run play|largest|load, --panels LIST (e.g. spacetime,watch), --ms N, --top N or --from FILE`);
    i++;
  }
  if (args.panels && args.run === 'load') throw new Usage(`--panels ${args.panels}: only a played run (--run play or largest) has panels to profile`);
  return args;
}

/** dist/, with the profiling build's wasm and glue in place of its own (same file names), in target/profile/dist. */
function namedDist(raw) {
  const bindgen = path.join(WORK, 'bindgen');
  const dist = path.join(WORK, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(bindgen, { recursive: true });
  cpSync(DIST, dist, { recursive: true });
  const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--keep-debug', '--out-dir', bindgen, '--out-name', 'page', raw]);
  const names = readdirSync(dist);
  const wasm = names.find((n) => /^cachescope-web-[0-9a-f]+_bg\.wasm$/.test(n));
  const glue = wasm && wasm.replace(/_bg\.wasm$/, '.js');
  if (!wasm || !names.includes(glue)) throw new Usage(`${DIST} holds no cachescope-web-*_bg.wasm and its .js: run make build first`);
  run('wasm-opt', [...WASM_OPT_FLAGS, '-g', path.join(bindgen, 'page_bg.wasm'), '-o', path.join(dist, wasm)]);
  cpSync(path.join(bindgen, 'page.js'), path.join(dist, glue));
  // The precompressed copies are dist/'s, of the other wasm: a server would send them instead.
  for (const n of names.filter((n) => n.endsWith('.gz') || n.endsWith('.br'))) rmSync(path.join(dist, n));
  return dist;
}

/** The bare URL loaded, profiled from navigation to the first drawn frame. */
async function profileLoad(browser, server) {
  const { page, context } = await openPage(browser, server.origin);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('cachescope:first-frame').length > 0, undefined, { timeout: 30_000, polling: 10 });
    const { profile } = await cdp.send('Profiler.stop');
    const mark = await page.evaluate(() => performance.getEntriesByName('cachescope:first-frame')[0].startTime);
    console.log(`first_frame_ms: ${mark.toFixed(0)} ms (this build keeps its names: it is larger and slower than dist/'s)`);
    return profile;
  } finally {
    await context.close();
  }
}

/** Plays `query` from frame 0 once the page has settled, and profiles `ms` of it. */
async function profileRun(browser, server, query, ms, panels) {
  const { page, context } = await openPage(browser, server.origin);
  try {
    await page.goto(`${server.url}?${query}${panels ? `&panels=${panels}` : ''}`);
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await play.waitFor({ state: 'visible', timeout: 30_000 });
    if (panels) {
      const first = page.locator('section.panel').first();
      if (!(await first.count())) throw new Usage(`--panels ${panels}: the page drew no panel (the URL's panels= names them; see src/view/url.rs)`);
      await first.scrollIntoViewIfNeeded();
    }
    // The app computes frames ahead in the background after its first frame.
    await page.waitForTimeout(3_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await play.click();
    await page.waitForTimeout(ms);
    const { profile } = await cdp.send('Profiler.stop');
    if ((await page.getByRole('button', { name: 'Pause', exact: true }).count()) !== 1) {
      throw new Usage('playback stopped while profiling: the run ended or the page paused');
    }
    return profile;
  } finally {
    await context.close();
  }
}

/** The panel, module or crate a function of the profile is counted under, or undefined if it names none of this crate's. */
function placeOf(raw) {
  // v0 names carry each crate's disambiguator: `cachescope[5f0e...]::ui::...`.
  const name = raw.replace(/\[[0-9a-f]+\]/g, '');
  const m = name.match(/cachescope::(?:ui|view)::(?:panels::([a-z_]+)|([a-z_]+))/);
  if (m) return m[1] ? `panel ${m[1]}` : m[2];
  const other = name.match(/cachescope::([a-z_]+)/);
  return other ? other[1] : undefined;
}

/** What a function of the profile is called, shortened for a line. */
function shortName({ functionName, url }) {
  const name = functionName || `(anonymous ${path.basename(url || '')})`;
  const plain = name.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]+\]/g, '');
  return plain.length > 160 ? `${plain.slice(0, 157)}...` : plain;
}

/** Self time per function, grouped by the place nearest it on its stack (see the top of this file). */
function summarise(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfMs = new Map();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const groups = new Map();
  let total = 0;
  for (const [id, ms] of selfMs) {
    const node = nodes.get(id);
    const fn = node.callFrame.functionName;
    if (fn === '(idle)') continue;
    total += ms;
    let place;
    for (let at = id; at !== undefined && !place; at = parent.get(at)) place = placeOf(nodes.get(at).callFrame.functionName);
    if (!place) {
      const isWasm = node.callFrame.url.includes('wasm') || /::/.test(fn);
      place = fn.startsWith('(') ? fn : isWasm ? crateOf(fn) : '(js)';
    }
    const g = groups.get(place) ?? { ms: 0, fns: new Map() };
    g.ms += ms;
    const name = shortName(node.callFrame);
    g.fns.set(name, (g.fns.get(name) ?? 0) + ms);
    groups.set(place, g);
  }
  return { total, groups: [...groups].sort((a, b) => b[1].ms - a[1].ms) };
}

/** Prints the profile's script time by place, and each place's top functions. */
function report(profile, file, run, top) {
  const { total, groups } = summarise(profile);
  const span = (profile.endTime - profile.startTime) / 1000;
  console.log(`profile_file: ${path.relative(ROOT, file)}`);
  console.log(`profile_busy_ms: ${total.toFixed(0)} ms of ${span.toFixed(0)} ms profiled (${run})`);
  for (const [place, g] of groups) {
    console.log(`\n${place}: ${g.ms.toFixed(0)} ms, ${((100 * g.ms) / total).toFixed(1)} %`);
    for (const [name, ms] of [...g.fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name}`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.from) {
    let profile;
    try {
      profile = JSON.parse(readFileSync(args.from, 'utf8'));
    } catch (err) {
      throw new Usage(`--from ${args.from}: not a profile this wrote (${err.message})`);
    }
    report(profile, args.from, path.basename(args.from, '.cpuprofile'), args.top);
    return;
  }
  const dist = namedDist(args.raw);
  const server = await serveDist({ dist });
  let browser;
  try {
    browser = await launchBrowser();
    const profile =
      args.run === 'load' ? await profileLoad(browser, server) : await profileRun(browser, server, args.run === 'play' ? PLAY_QUERY : LARGEST_QUERY, args.ms, args.panels);
    const file = path.join(WORK, `${args.run}${args.panels ? `-${args.panels.replaceAll(',', '+')}` : ''}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    report(profile, file, args.run, args.top);
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error(`profile: ${err instanceof Usage ? err.message : (err?.stack ?? err)}`);
  process.exit(err instanceof Usage ? 2 : 1);
});
