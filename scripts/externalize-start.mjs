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

let moved = 0;
const out = html.replace(/<script type="module">([\s\S]*?)<\/script>/g, (_, body) => {
  const code = `${body.trim()}\n`;
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
