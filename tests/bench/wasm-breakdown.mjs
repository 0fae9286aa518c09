// What the page's wasm is made of, for `make bench`: the release build's
// wasm (cargo's output, before wasm-bindgen), put through wasm-bindgen and
// wasm-opt exactly as Trunk does for dist/, but keeping the function names
// (`-g`), then read by twiggy. The sizes are the raw bytes of each function
// body or data segment in that optimised wasm, the same code dist/ ships:
// twiggy cannot say what each part adds gzipped.
//
// - `byCrate`: bytes per crate, the crate being where the item's path begins
//   (`<tachys::html::element::HtmlElement<..> as ..>::build` is tachys';
//   generic code from core or alloc instantiated for the app's types is
//   core's or alloc's); `data` is every data segment (strings, tables).
// - `byFeature`: this crate's own bytes by what they are for: the module an
//   item's path names under `cachescope::` (`ui::editor` and `view::editor`
//   are both `editor`: the page's face of a feature and its logic; the
//   panels are each their own, `panels::store`). Only what the names say:
//   code LTO inlined into another crate's generic function (tachys' render
//   code, built for this crate's views) counts there, under that crate.
// - `topFunctions`: the largest single items.

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** The wasm-opt flags Trunk uses for dist/ (index.html's data-wasm-opt and data-wasm-opt-params, and the features it enables). */
export const WASM_OPT_FLAGS = [
  '-Oz',
  '--low-memory-unused',
  '--enable-bulk-memory',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-reference-types',
  '--enable-multivalue',
];

/** The crate an item of twiggy's belongs to: where its path starts, past `<`, `&`, `mut` and `dyn`. */
export function crateOf(name) {
  if (name.startsWith('data segment') || name.startsWith('data[')) return 'data';
  const m = name.match(/^<*(?:&|\*const |\*mut |dyn |mut )*([A-Za-z_][A-Za-z0-9_]*)/);
  if (!m) return '(other)';
  // A bare type parameter (`<T as Trait>::f`) names no crate: its trait's does.
  if (/^[A-Z]$/.test(m[1])) {
    const t = name.match(/ as ([a-z_][a-z0-9_]*)/);
    return t ? t[1] : '(generic)';
  }
  return m[1];
}

/**
 * The feature of this crate an item belongs to, or undefined for another
 * crate's: the module after `cachescope::`, past `ui::` or `view::`, with the
 * panels named one by one (`panels::store`, whether under ui or view).
 */
export function featureOf(name) {
  const m = name.match(/^<*(?:&|\*const |\*mut |dyn |mut )*cachescope::((?:ui|view)::)?([a-z_]+)(?:::([a-z_]+))?/);
  if (!m) return undefined;
  const [, , module, sub] = m;
  if (module === 'panels' && sub) return `panels::${sub.replace(/^__component_/, '')}`;
  // A component of the module's own file (`ui::__component_stage`: ui/mod.rs's Stage).
  return module.replace(/^__component_/, '');
}

/** Removes the disambiguators rustc adds to names (`[c5930c85a12de822]`, `::h4fd829ad2125d89a`). */
function plainName(name) {
  return name.replace(/\[[0-9a-f]{16}\]/g, '').replace(/::h[0-9a-f]{16}$/, '');
}

/** Parses twiggy's CSV (a name may hold quoted commas). */
function parseCsv(text) {
  const rows = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    const m = line.match(/^("(?:[^"]|"")*"|[^,]*),(\d+),/);
    if (!m) continue;
    const name = m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1];
    rows.push({ name, bytes: Number(m[2]) });
  }
  return rows;
}

/**
 * The breakdown of `rawWasm` (cargo's wasm32 output), built in `workDir`.
 * Throws if wasm-bindgen, wasm-opt or twiggy is missing or fails.
 */
export function wasmBreakdown(rawWasm, workDir, { top = 15 } = {}) {
  mkdirSync(workDir, { recursive: true });
  const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  run('wasm-bindgen', ['--target', 'web', '--keep-debug', '--out-dir', workDir, '--out-name', 'page', rawWasm]);
  const named = path.join(workDir, 'page_named.wasm');
  run('wasm-opt', [...WASM_OPT_FLAGS, '-g', path.join(workDir, 'page_bg.wasm'), '-o', named]);
  const items = parseCsv(run('twiggy', ['top', '-n', '1000000', '--format', 'csv', named]))
    // Names and debug sections are what -g keeps for twiggy; dist/ ships none of them.
    .filter((r) => !r.name.startsWith('"') && !r.name.startsWith('custom section'));
  const total = items.reduce((sum, r) => sum + r.bytes, 0);
  const byCrate = new Map();
  for (const r of items) byCrate.set(crateOf(r.name), (byCrate.get(crateOf(r.name)) ?? 0) + r.bytes);
  const byFeature = new Map();
  for (const r of items) {
    const feature = featureOf(r.name);
    if (feature) byFeature.set(feature, (byFeature.get(feature) ?? 0) + r.bytes);
  }
  return {
    total,
    byCrate: [...byCrate].sort((a, b) => b[1] - a[1]),
    byFeature: [...byFeature].sort((a, b) => b[1] - a[1]),
    topFunctions: items
      .filter((r) => crateOf(r.name) !== 'data')
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, top)
      .map((r) => [plainName(r.name), r.bytes]),
  };
}
