#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, run after externalize-start.mjs): writes a
// gzip (.gz, level 9) and a Brotli (.br, quality 11) copy beside every file a
// browser fetches from dist/ (.wasm, .js, .css, .html, .svg), for static
// hosts that serve precompressed files as they are (nginx's gzip_static and
// brotli_static, Caddy's precompressed, a CDN's origin). A host that does not
// simply ignores them; the page never asks for them by name.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('precompress: TRUNK_STAGING_DIR is not set; run me as a Trunk post_build hook');
  process.exit(2);
}

const FETCHED = /\.(wasm|js|css|html|svg)$/;

function* files(d) {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (FETCHED.test(name)) yield p;
  }
}

let count = 0;
for (const file of files(dir)) {
  const bytes = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm') ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
      },
    }),
  );
  count++;
}
console.error(`precompress: ${count} files, each with a .gz and a .br beside it`);
