#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml): moves Trunk's inline start-up module out
// of index.html into a content-hashed file beside it, so the page runs under
// a Content-Security-Policy without 'unsafe-inline' for scripts:
//
//   default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'
//
// Trunk writes the module inline (`<script type="module">import init … </script>`)
// and has no switch to write it as a file; this hook does, in the staging
// directory Trunk passes, before Trunk moves it to dist/. It fails the build
// if any inline script is left.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('externalize-start: TRUNK_STAGING_DIR is not set; run me as a Trunk post_build hook');
  process.exit(2);
}
const index = join(dir, 'index.html');
const html = readFileSync(index, 'utf8');

// The module's imports stay at the top; the rest (the `await init(...)` that
// fetches and compiles the wasm) runs in a try, so a failure reaches
// scripts/boot.js, which tells the reader in the page instead of leaving it blank.
function guarded(body) {
  const lines = body.trim().split('\n');
  const imports = lines.filter((l) => /^\s*import\b/.test(l));
  const rest = lines.filter((l) => !/^\s*import\b/.test(l));
  return [
    ...imports,
    'try {',
    ...rest.map((l) => `  ${l}`),
    '} catch (error) {',
    '  window.cachescopeBootFailed?.(error);',
    '  throw error;',
    '}',
  ].join('\n');
}

let moved = 0;
const out = html.replace(/<script type="module">([\s\S]*?)<\/script>/g, (_, body) => {
  const code = `${guarded(body)}\n`;
  const name = `start-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
  writeFileSync(join(dir, name), code);
  moved += 1;
  return `<script type="module" src="./${name}"></script>`;
});

const inline = out.match(/<script\b(?![^>]*\bsrc=)[^>]*>/g);
if (inline) {
  console.error(`externalize-start: inline script left in index.html: ${inline.join(' ')}`);
  process.exit(1);
}
if (moved === 0) {
  console.error('externalize-start: found no inline start-up module in index.html; has Trunk changed how it starts the app?');
  process.exit(1);
}
writeFileSync(index, out);
