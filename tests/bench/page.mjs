#!/usr/bin/env node
// The page figures for `make bench`, one `name: value unit` per line, like the
// native figures printed before them. Figures only: no targets, no pass/fail.
// It exits non-zero only when a figure could not be measured, and says why.
//
//   node tests/bench/page.mjs [--dist DIR] [--hello-dist DIR] [--floor-dist DIR]
//
// --dist:       the release build of the page   (default: dist/, from `make build`)
// --hello-dist: the hello-world Leptos page built with the same profile
//               (default: target/bench-hello/dist/, from bench/hello/)
// --floor-dist: the hello world plus the simulation core and scenario parser
//               (default: target/bench-floor/dist/, from bench/floor/)
//
// Figures:
// - page_{wasm,js,css}_gz_bytes, page_total_gz_bytes: the page's .wasm, .js and
//   .css files (the top level of the dist directory), each gzipped by node's
//   zlib at level 9; hello_total_gz_bytes: the same for the hello world;
//   page_size_ratio: the first total over the second. floor_total_gz_bytes
//   and floor_size_ratio: the same for bench/floor/, which draws no panel and
//   only runs a scenario, so they say how much of the page is the simulation
//   itself (a floor no view work goes below) and how much is the panels.
//   wasm_crate_*_raw_bytes, wasm_feature_*_raw_bytes and wasm_fn_*_raw_bytes:
//   what the page's wasm is made of, by crate, by feature of this crate (the
//   recipe editor, the gallery, the matrix, each panel...) and by function
//   (tests/bench/wasm-breakdown.mjs).
// - first_frame_ms: the bare URL (the default preset) loaded fresh a few times
//   (a new browser context each, so no cache); the median of the
//   `cachescope:first-frame` mark's startTime: milliseconds from navigation
//   start to the first requestAnimationFrame after the app mounted (src/ui/mod.rs
//   sets it), i.e. to the first frame drawn with the app in it.
//   floor_first_frame_ms: the same for the floor page (bench/floor sets the
//   same mark), loaded in turn in the same run; first_frame_over_floor: the
//   first over the second.
// - <figure>_budget: the budget of the figure printed just before it (BUDGETS
//   below, the one place they are kept); a figure past its budget is also
//   named on stderr.
// - frame_p50_ms, frame_p95_ms: the median and 95th percentile of the time per
//   painted frame while playing (see PLAY_QUERY and measureFrames below);
//   frame_samples: how many frame intervals they come from; play_sim_frames:
//   how many simulation frames playback advanced meanwhile (proof it played).
//   frame_work_p50_ms, frame_work_p95_ms: the main thread's work per frame
//   (the app's tick, re-rendering, style, layout and paint), from the frame's
//   start to the first task after its rendering update; the interval above
//   cannot go below one vsync (16.7 ms at 60 Hz), this can.
// - frame_work_spacetime_in_view_p50_ms and _p95_ms: the same run with the
//   stage scrolled to Space-time (below the first screen, so while playing it
//   is drawn only when scrolled into view); frame_work_<panel>_p95_ms: the
//   run with that panel alone (`panels=`), scrolled into view.
// - <run>_elements_added_per_frame, <run>_texts_changed_per_frame,
//   <run>_attributes_written_per_frame, <run>_elements_moved_per_frame (run:
//   play, the 500-replica run; largest, the largest scenario): the DOM
//   changes a frame of that run makes, on average, counted in a run of their
//   own by a MutationObserver. An element is added when it enters the
//   document for the first time, and moved when it enters it again: the
//   lists recycle theirs (src/ui/recycle.rs), and one taken to another place
//   is moved, not created. A move costs the browser about what a creation
//   does (its boxes are taken down and built again), so the reference page
//   replays both, each as what it is;
//   <run>_frame_work_reference_p50_ms and _p95_ms: frame work, measured as
//   above, of tests/bench/reference/, a page with no framework and no wasm
//   making the changes that run's frames made, frame after frame, in a grid
//   of ten panels laid out like the page's; <run>_frame_work_paired_p50_ms and _p95_ms: the run's own,
//   from runs paired with the reference's (medians of REFERENCE_PAIRS each);
//   <run>_frame_work_over_reference_p95: the paired p95s' ratio. What any
//   page pays here for that much change, and what is this page's own (see
//   measureReference).
//   <run>_frame_work_floor_p95_ms: the page's floor, timed in the same pairs:
//   the run with only the Invariants panel (`panels=invariants`, the panel
//   that changes least), so the simulation stepped, the snapshot taken, the
//   header, transport and caption drawn, and nine panels' changes not made;
//   <run>_frame_work_reference_floor_p95_ms: the reference making no change
//   (its header's frame count only). Then, from the medians (p95s do not
//   subtract exactly: estimates, not measurements):
//   <run>_frame_work_changes_over_reference_p95: what the page's panels add
//   to its floor over what the changes add to the reference's, the page's
//   cost per change against a page with no framework;
//   <run>_frame_work_changes_over_reference_p95_allowed: the same ratio the
//   budget leaves them, given the page's floor: (budget × reference − floor)
//   over (reference − reference floor). When the floor alone takes most of
//   the budget, this says how near the bare replay the panels must come.
//   <run>_phase_<phase>_ms and <run>_reference_phase_<phase>_ms: where a
//   frame's main-thread work goes, the mean per frame of one traced run of
//   each page (Chromium's trace of the renderer's main thread, PHASES
//   below): the whole frame (`frame`), then `script` (the requestAnimationFrame
//   callbacks: the app's tick, its effects and DOM writes, and any layout
//   they force), `style_layout`, `prepaint` and `paint` (the lifecycle's
//   own), and `other` (the rest of the frame). The CPU profile
//   (`make profile`) names the script by function; this names what is not
//   script, which the profile counts as '(program)'.
//   <run>_slowest_phase_<phase>_ms and <run>_reference_slowest_phase_<phase>_ms:
//   the same over each traced run's slowest twentieth of frames, those the
//   budgeted p95 is read from (at 500 replicas they carried about two and a
//   half times the mean's layout and three times its script).
// - seek_startup_task_ms, seek_slice_task_ms, seek_slices, seek_ms: a URL
//   whose frame (57,656 of over-create played for two hours) lies past the
//   frames the page computes ahead of itself (SEEK_SETTINGS), so the seek
//   computes in slices: the longest main-thread task up to the first-frame
//   mark (start-up: instantiating the wasm, the first slice, the first
//   render), the longest task after it (a slice, or the landing's render),
//   how many progress updates the transport drew, and the time from
//   navigation to the frame shown. The e2e tests check that the seek is
//   sliced; how long a task takes is this figure's business.

import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DIST, launchBrowser, openPage, serveDist } from '../e2e/support.mjs';
import { LARGEST_QUERY, PLAY_QUERY } from './runs.mjs';
import { wasmBreakdown } from './wasm-breakdown.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HELLO_DIST = path.join(ROOT, 'target/bench-hello/dist');
const FLOOR_DIST = path.join(ROOT, 'target/bench-floor/dist');

/** Fresh loads for first_frame_ms. */
const FIRST_FRAME_LOADS = 5;

/** How long playback is recorded, in ms of wall time. */
const PLAY_RECORD_MS = 5_000;

/**
 * The budgets, kept here and nowhere else (issue 37): each a ratio this run
 * measures side by side, printed with the figure it bounds, and named on
 * stderr when the figure is past it. A change that takes one past its
 * budget says so in its commit and pays for it elsewhere.
 * - page_floor: the page (.wasm, .js and .css, gzipped) over the floor page's;
 * - first_frame_over_floor: the page's first drawn frame over the floor page's;
 * - frame_work_over_reference_p95: frame work at p95 over the reference
 *   page's, replaying the same DOM changes, for each played run;
 * - largest_elements_added_per_frame: DOM elements created per frame, mean,
 *   the largest scenario (the reference replays them, so the ratio hides them).
 */
const BUDGETS = {
  page_floor: 2.75,
  first_frame_over_floor: 2,
  frame_work_over_reference_p95: 1.25,
  largest_elements_added_per_frame: 20,
};

/** Print `name`'s budget beside it, and say so on stderr when `figure` is past it. */
function withinBudget(name, figure, budget, unit) {
  say(`${name}_budget`, unit === 'x' ? budget.toFixed(2) : budget, unit);
  if (figure > budget) console.error(`page bench: note: ${name} is ${unit === 'x' ? figure.toFixed(2) : figure} ${unit}, past its budget of ${budget} ${unit}`);
}

/** The panels `panels=` names (src/view/url.rs, PanelId::as_str), each played alone for frame_work_<panel>_p95_ms. */
const PANELS = ['cluster', 'watch', 'cache', 'expectations', 'workqueue', 'reconcile', 'observations', 'invariants', 'timeline', 'spacetime'];

/** Cargo's wasm for the page, before wasm-bindgen and wasm-opt (Trunk's build leaves it here). */
const RAW_WASM = path.join(ROOT, 'target/wasm32-unknown-unknown/release/cachescope-web.wasm');

/** The reference page: no framework and no wasm (its reference.js says what it draws). */
const REFERENCE_DIR = path.join(ROOT, 'tests/bench/reference');

/** The sought run: over-create played for two hours, resyncing every second (57,656 frames). */
const SEEK_SETTINGS = { until_ms: '7200000', 'cluster.resync_ms': '1000' };

/** Its last frame, as the native runner counts it. */
function seekFrame() {
  const sets = Object.entries(SEEK_SETTINGS).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'cachescope', '--', 'run', 'over-create', ...sets], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out).frames;
}

class Unmeasurable extends Error {}

function parseArgs(argv) {
  const args = { dist: DIST, helloDist: HELLO_DIST, floorDist: FLOOR_DIST };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--dist' && value) args.dist = path.resolve(argv[++i]);
    else if (argv[i] === '--hello-dist' && value) args.helloDist = path.resolve(argv[++i]);
    else if (argv[i] === '--floor-dist' && value) args.floorDist = path.resolve(argv[++i]);
    else throw new Unmeasurable(`unknown argument ${argv[i]}; usage: node tests/bench/page.mjs [--dist DIR] [--hello-dist DIR] [--floor-dist DIR]`);
  }
  return args;
}

function say(name, value, unit) {
  console.log(`${name}: ${value} ${unit}`);
}

/** The .br copies of the page's .wasm, .js and .css at the top of `dir`: their bytes, and how many of the page's files have both a .br and a .gz beside them. */
async function precompressedSizes(dir) {
  const names = await readdir(dir);
  const assets = names.filter((n) => /\.(wasm|js|css)$/.test(n));
  let br = 0;
  let files = 0;
  for (const name of assets) {
    if (names.includes(`${name}.br`)) br += (await readFile(path.join(dir, `${name}.br`))).length;
    if (names.includes(`${name}.br`) && names.includes(`${name}.gz`)) files++;
  }
  return { br, files };
}

/** Gzipped bytes (zlib level 9) of the .wasm, .js and .css files at the top of `dir`. */
async function gzippedSizes(dir) {
  let names;
  try {
    names = await readdir(dir);
  } catch {
    throw new Unmeasurable(`${dir} is missing: build it first (make bench does)`);
  }
  const sizes = { wasm: 0, js: 0, css: 0 };
  for (const name of names.sort()) {
    const kind = path.extname(name).slice(1);
    if (!(kind in sizes)) continue;
    sizes[kind] += gzipSync(await readFile(path.join(dir, name)), { level: 9 }).length;
  }
  if (!sizes.wasm || !sizes.js) throw new Unmeasurable(`${dir} holds no .wasm or no .js file: is it a Trunk build?`);
  return { ...sizes, total: sizes.wasm + sizes.js + sizes.css };
}

function percentile(sorted, p) {
  // Nearest rank: the smallest value with at least p of the samples at or below it.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function problemsOf(problems) {
  const all = [...problems.pageErrors, ...problems.console, ...problems.failed];
  return all.length ? `; the page reported: ${all.slice(0, 5).join(' | ')}` : '';
}

/** The text of every non-empty alert on the page (an error banner), or ''. */
function alertText(page) {
  return page
    .evaluate(() =>
      [...document.querySelectorAll('[role="alert"]')]
        .map((e) => e.innerText.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' | '),
    )
    .catch(() => '');
}

/**
 * Waits for the first-frame mark and returns its startTime (ms since
 * navigation start); fails at once if the page shows an alert instead.
 */
async function firstFrameMark(page, problems) {
  let found;
  try {
    found = await page
      .waitForFunction(
        () =>
          performance.getEntriesByName('cachescope:first-frame')[0]?.startTime ??
          ([...document.querySelectorAll('[role="alert"]')].some((e) => e.textContent.trim()) ? 'alert' : undefined),
        undefined,
        { timeout: 30_000, polling: 50 },
      )
      .then((h) => h.jsonValue());
  } catch {
    found = undefined;
  }
  if (typeof found === 'number') return found;
  const alert = await alertText(page);
  const shown = alert ? `; the page shows: ${alert}` : '';
  throw new Unmeasurable(`no performance mark 'cachescope:first-frame' at ${page.url()}${shown}${problemsOf(problems)}`);
}

async function measureFirstFrame(browser, server) {
  const samples = [];
  for (let i = 0; i < FIRST_FRAME_LOADS; i++) {
    const { page, context, problems } = await openPage(browser, server.origin);
    try {
      await page.goto(server.url, { waitUntil: 'commit' });
      samples.push(await firstFrameMark(page, problems));
    } finally {
      await context.close();
    }
  }
  return median(samples);
}

/**
 * Resolves true once the page's main thread has been idle for a while (five
 * idle callbacks in a row with more than 30 ms to spare), false after 20 s.
 */
function waitForQuiet(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        let quiet = 0;
        const giveUp = setTimeout(() => resolve(false), 20_000);
        const check = (deadline) => {
          quiet = deadline.timeRemaining() > 30 ? quiet + 1 : 0;
          if (quiet >= 5) {
            clearTimeout(giveUp);
            resolve(true);
          } else {
            requestIdleCallback(check);
          }
        };
        requestIdleCallback(check);
      }),
  );
}

/**
 * Frame time while playing. A recorder injected into the page keeps a
 * requestAnimationFrame callback going and stores each callback's timestamp
 * (the frame's start); the intervals between consecutive timestamps are the
 * time each painted frame took, the app's playback tick, its re-rendering,
 * style, layout and paint included, and a frame that missed its vsync shows
 * up as a longer interval. Headless Chromium here runs with --disable-gpu
 * (software compositing) on a shared 2-core machine, and paces rAF at 60 Hz,
 * so ~16.7 ms is the floor of every interval: a p95 at the floor means
 * playback kept up with every frame.
 */
async function measureFrames(browser, server, query = PLAY_QUERY, { inView, countChanges = false, phases = false } = {}) {
  const { page, context, problems } = await openPage(browser, server.origin);
  try {
    await page.goto(`${server.url}?${query}`, { waitUntil: 'commit' });
    await firstFrameMark(page, problems);
    const alert = await alertText(page);
    if (alert) throw new Unmeasurable(`the page did not take the benchmark URL ${page.url()}: ${alert}`);
    const play = page.getByRole('button', { name: 'Play', exact: true });
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    const counter = page.getByText(/^Frame \d+$/);
    try {
      await play.waitFor({ state: 'visible', timeout: 10_000 });
      await counter.waitFor({ state: 'visible', timeout: 10_000 });
    } catch {
      throw new Unmeasurable(`no "Play" button or "Frame N" counter on the page${problemsOf(problems)}`);
    }
    // Press Play as a learner would, once the page has settled: the app
    // computes frames ahead in the background after its first frame.
    if (!(await waitForQuiet(page))) {
      console.error('page bench: note: the page was still busy 20 s after loading; playing anyway');
    }
    // A panel below the first screen is drawn while playing only when in view (src/ui/panels/layout.rs, worth_drawing).
    const shown = inView && page.locator(inView).first();
    if (shown && (await shown.count())) await shown.scrollIntoViewIfNeeded();
    const frameNumber = async () => Number((await counter.innerText()).match(/\d+/)[0]);
    const before = await frameNumber();

    await page.evaluate((countChanges) => {
      const rec = { stamps: [], work: [], on: true, from: Infinity, changes: [] };
      window.__cachescopeBench = rec;
      // What each frame changes in the DOM (only when asked: the observer's
      // own work would count in the frames' time): [elements created (an
      // element added to the document for the first time, those inside it
      // included); text changes; attribute writes; elements moved (an
      // element added again, having been in the document before, those
      // inside it included: a recycled row or wire taken to its new place)].
      if (countChanges) {
        const seen = new WeakSet(document.querySelectorAll('*'));
        const added = (n, frame) => {
          if (n.nodeType !== 1) return;
          frame[seen.has(n) ? 3 : 0]++;
          seen.add(n);
          for (const c of n.children) added(c, frame);
        };
        new MutationObserver((records) => {
          const frame = rec.changes.at(-1);
          if (!frame) return;
          for (const r of records) {
            if (r.type === 'childList') for (const n of r.addedNodes) added(n, frame);
            else frame[r.type === 'characterData' ? 1 : 2]++;
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      }
      // A message posted from a rAF callback is handled in the first task after
      // that frame's rendering update (every rAF callback, the app's tick
      // included, then style, layout and paint): its arrival minus the
      // frame's start is the main thread's work for the frame.
      const channel = new MessageChannel();
      channel.port1.onmessage = (e) => {
        if (e.data >= rec.from) rec.work.push(performance.now() - e.data);
      };
      const tick = (t) => {
        rec.stamps.push(t);
        if (countChanges && t >= rec.from && rec.on) rec.changes.push([0, 0, 0, 0]);
        channel.port2.postMessage(t);
        if (rec.on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      // Only the frames from here on count: playback starts with the click below.
      rec.from = performance.now();
    }, countChanges);
    const trace = phases ? await startTrace(page) : null;
    await play.click();
    await page.waitForTimeout(PLAY_RECORD_MS);
    const traced = trace ? framePhases(await trace.stop()) : null;
    const stillPlaying = (await pause.count()) === 1;
    const { stamps, work, changes } = await page.evaluate(() => {
      const rec = window.__cachescopeBench;
      rec.on = false;
      return { stamps: rec.stamps.filter((t) => t >= rec.from), work: rec.work.slice(), changes: rec.changes };
    });
    const after = await frameNumber();

    if (!stillPlaying) {
      throw new Unmeasurable(`playback stopped before ${PLAY_RECORD_MS} ms of recording ended (frame ${before} → ${after}): the run ended or the page paused${problemsOf(problems)}`);
    }
    if (after <= before) {
      throw new Unmeasurable(`the "Frame N" counter did not advance while playing (frame ${before} → ${after})${problemsOf(problems)}`);
    }
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
    if (intervals.length < 10) {
      throw new Unmeasurable(`only ${stamps.length} animation frames in ${PLAY_RECORD_MS} ms of playback${problemsOf(problems)}`);
    }
    await pause.click();
    work.sort((a, b) => a - b);
    return {
      p50: percentile(intervals, 0.5),
      p95: percentile(intervals, 0.95),
      workP50: percentile(work, 0.5),
      workP95: percentile(work, 0.95),
      frames: intervals.length,
      advanced: after - before,
      // Each frame's DOM changes, when counted: [elements created, texts, attributes, elements moved].
      changes,
      // Mean ms per frame by phase, when traced: of every frame, and of the slowest twentieth.
      phases: traced,
    };
  } finally {
    await context.close();
  }
}

/**
 * A frame's phases: Chromium trace events (categories blink and cc) of
 * the renderer's main thread, each summed within the frame's
 * `ProxyMain::BeginMainFrame` (the frame's whole main-thread update).
 */
const PHASES = [
  ['script', 'FireAnimationFrame'],
  ['style_layout', 'LocalFrameView::RunStyleAndLayoutLifecyclePhases'],
  ['prepaint', 'LocalFrameView::RunPrePaintLifecyclePhase'],
  ['paint', 'LocalFrameView::RunPaintLifecyclePhase'],
];
const FRAME_EVENT = 'ProxyMain::BeginMainFrame';

/** Starts tracing `page`'s renderer; `stop()` resolves to the trace's events. */
async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,cc', transferMode: 'ReportEvents' });
  return {
    async stop() {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      return events;
    },
  };
}

/**
 * Mean ms per frame of each of PHASES, of `frame`, and of the rest
 * (`other`): over every frame (`all`), and over the slowest twentieth by
 * the frame's whole work (`slowest`): the frames the budgeted p95 is read
 * from, whose make-up is not the mean's.
 */
function framePhases(events) {
  // The renderer's main thread: the one whose frames the trace holds most of.
  const byThread = new Map();
  for (const e of events) {
    if (e.name === FRAME_EVENT && e.ph === 'X') byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  }
  const main = [...byThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) throw new Unmeasurable(`the trace holds no '${FRAME_EVENT}' event (${events.length} events): this Chromium names a frame's phases otherwise`);
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur > 0);
  const frames = mine.filter((e) => e.name === FRAME_EVENT);
  // Each frame's phases, summed within it.
  const each = frames.map((f) => {
    const sums = Object.fromEntries([['frame', f.dur / 1000], ...PHASES.map(([name]) => [name, 0])]);
    for (const [name, event] of PHASES) {
      for (const e of mine) if (e.name === event && e.ts >= f.ts && e.ts < f.ts + f.dur) sums[name] += e.dur / 1000;
    }
    sums.other = Math.max(0, sums.frame - PHASES.reduce((a, [name]) => a + sums[name], 0));
    return sums;
  });
  const missing = PHASES.filter(([name]) => each.every((f) => f[name] === 0)).map(([, event]) => event);
  if (missing.length) throw new Unmeasurable(`the trace's frames hold no ${missing.join(', ')}: this Chromium names a frame's phases otherwise`);
  const mean = (fs) => Object.fromEntries(Object.keys(fs[0]).map((k) => [k, fs.reduce((a, f) => a + f[k], 0) / fs.length]));
  const slowest = [...each].sort((a, b) => b.frame - a.frame).slice(0, Math.max(1, Math.ceil(each.length / 20)));
  return { all: mean(each), slowest: mean(slowest) };
}

/** Pairs of runs, the page's then the reference's, for each reference figure. */
const REFERENCE_PAIRS = 3;

/** The one panel the page's floor shows: the panel that changes least while playing. */
const FLOOR_PANEL = 'invariants';

/** The reference page making no change but its frame count. */
const REFERENCE_NO_CHANGE = 'elements=0&texts=0&attrs=0&moved=0';

/**
 * What the same amount of change costs without this page: each frame's DOM
 * changes in the played run, counted in a run of its own (the counting has a
 * cost of its own), then REFERENCE_PAIRS runs of the page each followed by
 * one of the reference page making those changes, timed alike; the median
 * of each side's p50 and p95. The frame work targets are absolute
 * milliseconds and this machine is shared, its speed moving by a third from
 * one minute to the next: paired runs, minutes apart at most, say how much
 * of a frame's work any page does here to show that much change, and how
 * much is this page's own.
 */
async function measureReference(browser, server, referenceServer, query) {
  const { changes } = await measureFrames(browser, server, query, { countChanges: true });
  // The reference replays the frames' changes in turn, bursts and all, so its p95 is a like one.
  const column = (i) => changes.map((c) => c[i]);
  const referenceQuery = new URLSearchParams({ elements: column(0), texts: column(1), attrs: column(2), moved: column(3) }).toString();
  const mean = (i) => Math.round(column(i).reduce((a, b) => a + b, 0) / changes.length);
  const perFrame = { elements: mean(0), texts: mean(1), attrs: mean(2), moved: mean(3) };
  const runs = { page: [], reference: [], floor: [], referenceFloor: [] };
  for (let i = 0; i < REFERENCE_PAIRS; i++) {
    runs.page.push(await measureFrames(browser, server, query));
    runs.reference.push(await measureFrames(browser, referenceServer, referenceQuery));
    runs.floor.push(await measureFrames(browser, server, `${query}&panels=${FLOOR_PANEL}`));
    runs.referenceFloor.push(await measureFrames(browser, referenceServer, REFERENCE_NO_CHANGE));
  }
  const medians = (rs) => ({ p50: median(rs.map((r) => r.workP50)), p95: median(rs.map((r) => r.workP95)) });
  // One traced run of each, apart from the timed ones (tracing has a cost of its own).
  const phases = {
    page: (await measureFrames(browser, server, query, { phases: true })).phases,
    reference: (await measureFrames(browser, referenceServer, referenceQuery, { phases: true })).phases,
  };
  return {
    perFrame,
    page: medians(runs.page),
    reference: medians(runs.reference),
    floor: medians(runs.floor),
    referenceFloor: medians(runs.referenceFloor),
    phases,
  };
}

/** A seek past the look-ahead from the URL: its long tasks, before the first frame and after. */
async function measureSeek(browser, server) {
  const frame = seekFrame();
  const { page, context, problems } = await openPage(browser, server.origin);
  try {
    await page.addInitScript(() => {
      const rec = { tasks: [], progress: 0, last: '' };
      window.__cachescopeSeek = rec;
      new PerformanceObserver((list) => rec.tasks.push(...list.getEntries().map((e) => [e.startTime, e.duration]))).observe({ type: 'longtask', buffered: true });
      new MutationObserver(() => {
        const said = document.querySelector('.transport .computing')?.textContent;
        if (said && said !== rec.last) {
          rec.last = said;
          rec.progress++;
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const query = new URLSearchParams({ s: 'over-create', ...SEEK_SETTINGS, frame: String(frame) });
    await page.goto(`${server.url}?${query}`, { waitUntil: 'commit' });
    const first = await firstFrameMark(page, problems);
    try {
      await page.getByText(new RegExp(`^Frame ${frame}$`)).waitFor({ timeout: 120_000 });
    } catch {
      throw new Unmeasurable(`the seek to frame ${frame} did not land in 120 s${problemsOf(problems)}`);
    }
    const landed = await page.evaluate(() => performance.now());
    await page.waitForTimeout(200);
    const { tasks, progress } = await page.evaluate(() => window.__cachescopeSeek);
    const longest = (ts) => Math.max(0, ...ts.map(([, d]) => d));
    return {
      startup: longest(tasks.filter(([t]) => t < first)),
      slice: longest(tasks.filter(([t]) => t >= first)),
      progress,
      ms: landed,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));

  const pageSizes = await gzippedSizes(args.dist);
  const helloSizes = await gzippedSizes(args.helloDist);
  say('page_wasm_gz_bytes', pageSizes.wasm, 'bytes');
  say('page_js_gz_bytes', pageSizes.js, 'bytes');
  say('page_css_gz_bytes', pageSizes.css, 'bytes');
  say('page_total_gz_bytes', pageSizes.total, 'bytes');
  say('hello_total_gz_bytes', helloSizes.total, 'bytes');
  say('page_size_ratio', (pageSizes.total / helloSizes.total).toFixed(2), 'x');
  const floorSizes = await gzippedSizes(args.floorDist);
  say('floor_total_gz_bytes', floorSizes.total, 'bytes');
  say('floor_size_ratio', (floorSizes.total / helloSizes.total).toFixed(2), 'x');
  const overFloor = pageSizes.total / floorSizes.total;
  say('page_floor_ratio', overFloor.toFixed(2), 'x');
  withinBudget('page_floor_ratio', overFloor, BUDGETS.page_floor, 'x');
  say('page_floor_budget_left_gz_bytes', Math.round(BUDGETS.page_floor * floorSizes.total - pageSizes.total), 'bytes');
  // What the wasm is made of (raw bytes of the optimised wasm dist/ ships; see wasm-breakdown.mjs).
  const parts = wasmBreakdown(RAW_WASM, path.join(ROOT, 'target/bench-breakdown'));
  say('wasm_breakdown_raw_bytes', parts.total, 'bytes');
  for (const [crate, bytes] of parts.byCrate.slice(0, 15)) say(`wasm_crate_${crate}_raw_bytes`, bytes, 'bytes');
  // This crate's own bytes by feature (ui:: and view:: together; each panel apart): what each feature costs.
  for (const [feature, bytes] of parts.byFeature.slice(0, 20)) say(`wasm_feature_${feature.replace('::', '_')}_raw_bytes`, bytes, 'bytes');
  parts.topFunctions.forEach(([name, bytes], i) => say(`wasm_fn_${String(i + 1).padStart(2, '0')}_raw_bytes`, bytes, `bytes ${name}`));
  // Serve-ready copies beside each asset (scripts/precompress.mjs, run by Trunk's post_build hook).
  const pre = await precompressedSizes(args.dist);
  say('page_total_br_bytes', pre.br, 'bytes');
  say('page_precompressed_files', pre.files, 'files');

  const server = await serveDist({ dist: args.dist });
  const referenceServer = await serveDist({ dist: REFERENCE_DIR });
  const floorServer = await serveDist({ dist: args.floorDist });
  let browser;
  try {
    browser = await launchBrowser();
    // The page's first drawn frame and the floor page's, loaded in turn, the same run.
    const firstFrame = await measureFirstFrame(browser, server);
    say('first_frame_ms', firstFrame.toFixed(0), 'ms');
    const floorFirstFrame = await measureFirstFrame(browser, floorServer);
    say('floor_first_frame_ms', floorFirstFrame.toFixed(0), 'ms');
    say('first_frame_over_floor', (firstFrame / floorFirstFrame).toFixed(2), 'x');
    withinBudget('first_frame_over_floor', firstFrame / floorFirstFrame, BUDGETS.first_frame_over_floor, 'x');
    const frames = await measureFrames(browser, server);
    say('frame_p50_ms', frames.p50.toFixed(1), 'ms');
    say('frame_p95_ms', frames.p95.toFixed(1), 'ms');
    say('frame_work_p50_ms', frames.workP50.toFixed(1), 'ms');
    say('frame_work_p95_ms', frames.workP95.toFixed(1), 'ms');
    say('frame_samples', frames.frames, 'frames');
    say('play_sim_frames', frames.advanced, 'frames');
    // Every panel, scrolled to Space-time, which lies below the first screen.
    const below = await measureFrames(browser, server, PLAY_QUERY, { inView: '#space-time' });
    say('frame_work_spacetime_in_view_p50_ms', below.workP50.toFixed(1), 'ms');
    say('frame_work_spacetime_in_view_p95_ms', below.workP95.toFixed(1), 'ms');
    // Each panel alone (`panels=`) and in view, the same run: the share each adds.
    for (const panel of PANELS) {
      const alone = await measureFrames(browser, server, `${PLAY_QUERY}&panels=${panel}`, { inView: 'section.panel' });
      say(`frame_work_${panel}_p95_ms`, alone.workP95.toFixed(1), 'ms');
    }
    const largest = await measureFrames(browser, server, LARGEST_QUERY);
    say('frame_work_largest_p50_ms', largest.workP50.toFixed(1), 'ms');
    say('frame_work_largest_p95_ms', largest.workP95.toFixed(1), 'ms');
    say('largest_play_sim_frames', largest.advanced, 'frames');
    // The reference for both played runs.
    for (const [run, query] of [['play', PLAY_QUERY], ['largest', LARGEST_QUERY]]) {
      const { perFrame, page, reference, floor, referenceFloor, phases } = await measureReference(browser, server, referenceServer, query);
      say(`${run}_elements_added_per_frame`, perFrame.elements, 'elements');
      say(`${run}_texts_changed_per_frame`, perFrame.texts, 'texts');
      say(`${run}_attributes_written_per_frame`, perFrame.attrs, 'attributes');
      say(`${run}_elements_moved_per_frame`, perFrame.moved, 'elements');
      say(`${run}_frame_work_paired_p50_ms`, page.p50.toFixed(1), 'ms');
      say(`${run}_frame_work_paired_p95_ms`, page.p95.toFixed(1), 'ms');
      say(`${run}_frame_work_reference_p50_ms`, reference.p50.toFixed(1), 'ms');
      say(`${run}_frame_work_reference_p95_ms`, reference.p95.toFixed(1), 'ms');
      say(`${run}_frame_work_over_reference_p95`, (page.p95 / reference.p95).toFixed(2), 'x');
      withinBudget(`${run}_frame_work_over_reference_p95`, page.p95 / reference.p95, BUDGETS.frame_work_over_reference_p95, 'x');
      say(`${run}_frame_work_floor_p95_ms`, floor.p95.toFixed(1), 'ms');
      say(`${run}_frame_work_reference_floor_p95_ms`, referenceFloor.p95.toFixed(1), 'ms');
      const changes = reference.p95 - referenceFloor.p95;
      if (changes > 0) {
        say(`${run}_frame_work_changes_over_reference_p95`, ((page.p95 - floor.p95) / changes).toFixed(2), 'x');
        const allowed = (BUDGETS.frame_work_over_reference_p95 * reference.p95 - floor.p95) / changes;
        say(`${run}_frame_work_changes_over_reference_p95_allowed`, allowed.toFixed(2), 'x');
      } else {
        console.error(`page bench: note: ${run}: the reference's changes cost nothing at p95 (${reference.p95.toFixed(1)} ms, ${referenceFloor.p95.toFixed(1)} ms with none), so the cost per change is not estimated`);
      }
      if (run === 'largest') withinBudget('largest_elements_added_per_frame', perFrame.elements, BUDGETS.largest_elements_added_per_frame, 'elements');
      for (const [of, prefix] of [['all', 'phase'], ['slowest', 'slowest_phase']]) {
        for (const phase of ['frame', ...PHASES.map(([name]) => name), 'other']) {
          say(`${run}_${prefix}_${phase}_ms`, phases.page[of][phase].toFixed(2), 'ms');
          say(`${run}_reference_${prefix}_${phase}_ms`, phases.reference[of][phase].toFixed(2), 'ms');
        }
      }
    }
    const seek = await measureSeek(browser, server);
    say('seek_startup_task_ms', seek.startup.toFixed(0), 'ms');
    say('seek_slice_task_ms', seek.slice.toFixed(0), 'ms');
    say('seek_slices', seek.progress, 'updates');
    say('seek_ms', seek.ms.toFixed(0), 'ms');
  } finally {
    await browser?.close();
    await server.close();
    await referenceServer.close();
    await floorServer.close();
  }
}

main().catch((err) => {
  const message = err instanceof Unmeasurable ? err.message : String(err?.stack ?? err);
  console.error(`page bench: could not measure: ${message}`);
  process.exit(1);
});
