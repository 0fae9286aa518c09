#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, after externalize-start.mjs, before
// precompress.mjs): takes the comments out of the stylesheet Trunk copied
// into the staging directory. style/main.css explains itself at length, and
// shipped, its comments were 39 % of its gzipped bytes. Trunk's own
// `--minify` would do this, and also minifies the start-up module this build
// then cannot find to move out of index.html (externalize-start.mjs).
//
// Only comments go, and the lines they leave empty: a comment's `/*` inside
// a string ("…" or '…', escapes honoured) is text, not a comment. The file
// gets a name from its new content (as Trunk's `filehash`), and index.html's
// link its new name and Subresource Integrity hash.

import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('strip-css-comments: TRUNK_STAGING_DIR is not set; run me as a Trunk post_build hook');
  process.exit(2);
}

/** `css` without its comments, and without the lines that held only a comment. */
function stripComments(css) {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1;
      out += css.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`strip-css-comments: a comment opened at offset ${i} is never closed`);
      i = end + 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out
    .split('\n')
    .filter((line, n, lines) => line.trim() !== '' || (n > 0 && lines[n - 1].trim() !== ''))
    .map((line) => line.trimEnd())
    .join('\n');
}

const index = join(dir, 'index.html');
const html = readFileSync(index, 'utf8');
let done = 0;
const out = html.replace(/<link rel="stylesheet" href="\.\/([^"]+?)-[0-9a-f]{16}\.css" integrity="sha384-[^"]+"\/>/g, (link, stem) => {
  const from = link.match(/href="\.\/([^"]+)"/)[1];
  const css = stripComments(readFileSync(join(dir, from), 'utf8'));
  const name = `${stem}-${createHash('sha256').update(css).digest('hex').slice(0, 16)}.css`;
  rmSync(join(dir, from));
  writeFileSync(join(dir, name), css);
  done += 1;
  const sri = createHash('sha384').update(css).digest('base64');
  return `<link rel="stylesheet" href="./${name}" integrity="sha384-${sri}"/>`;
});
if (done === 0) {
  console.error('strip-css-comments: found no stylesheet link in index.html; has Trunk changed how it links one?');
  process.exit(1);
}
writeFileSync(index, out);
