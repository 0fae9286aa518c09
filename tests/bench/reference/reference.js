// make bench's reference page (tests/bench/page.mjs, *_frame_work_reference_*):
// no framework and no wasm, the least main-thread work a page can do to show
// the change a played run of the app shows. page.mjs counts what each frame
// of the run changed in the DOM (elements added, and as many removed; text
// changes; attribute writes) and opens this page with the counts in its URL,
// frame by frame: `?elements=E1,E2,…&texts=T1,…&attrs=A1,…&moved=M1,…`.
// Each frame, while playing, it makes the next frame's changes (in turn, from
// the first again after the last): it inserts E elements (rows of four) at
// places in view of three lists and removes as many, moves M elements (rows
// of four, each taken from one place in view of a list to another), changes
// T texts and writes A attributes; and it counts the frame like the app
// (`Frame N`), so page.mjs measures it exactly as it measures the app.
'use strict';

const params = new URLSearchParams(location.search);
/** A list of whole numbers from the URL, one a frame. */
const counts = (name) => {
  const list = (params.get(name) ?? '0').split(',').map(Number);
  const bad = list.find((n) => !Number.isInteger(n) || n < 0);
  if (bad !== undefined) throw new Error(`reference page: ${name} holds ${bad}, not a whole number`);
  return list;
};
const ELEMENTS = counts('elements');
const TEXTS = counts('texts');
const ATTRS = counts('attrs');
const MOVED = counts('moved');

/** Elements a row has: the li and its three spans. */
const ROW_ELEMENTS = 4;
/** Rows each list holds, about as many as a list of the page draws at 1280×720 (in view and overscan). */
const LIST_ROWS = 24;

const grid = document.getElementById('grid');
const lists = [];
let made = 0;

function row() {
  made++;
  const li = document.createElement('li');
  li.className = made % 3 ? 'row' : 'row stale';
  li.setAttribute('aria-posinset', String(made));
  for (const [cls, text] of [['kind', 'po'], ['name', `web-${made.toString(36)}`], ['rv', `rv ${made}`]]) {
    const span = document.createElement('span');
    span.className = cls;
    span.textContent = text;
    li.append(span);
  }
  return li;
}

for (let p = 0; p < 10; p++) {
  const panel = document.createElement('section');
  panel.className = `panel ${p < 4 ? 'top' : 'bottom'}`;
  const h2 = document.createElement('h2');
  h2.textContent = `Panel ${p + 1}`;
  const ul = document.createElement('ul');
  panel.append(h2, ul);
  grid.append(panel);
  const rows = p < 3 ? LIST_ROWS : 5;
  for (let i = 0; i < rows; i++) ul.append(row());
  if (p < 3) lists.push(ul);
}

const frameText = document.getElementById('frame').firstChild;
const timeText = document.getElementById('time').firstChild;
const play = document.getElementById('play');
let frame = 0;
let playing = false;

function tick() {
  if (!playing) return;
  frame++;
  frameText.data = `Frame ${frame}`;
  timeText.data = `t = ${(frame / 6).toFixed(3)} s`;
  const at = (list) => list[(frame - 1) % list.length];
  // Rows in, at places in view, and as many out.
  const rows = Math.round(at(ELEMENTS) / ROW_ELEMENTS);
  for (let i = 0; i < rows; i++) {
    const ul = lists[(frame + i) % lists.length];
    ul.insertBefore(row(), ul.children[(frame * 7 + i * 5) % (LIST_ROWS - 1)]);
    ul.lastElementChild.remove();
  }
  // Rows moved, from one place in view to another.
  const moved = Math.round(at(MOVED) / ROW_ELEMENTS);
  for (let i = 0; i < moved; i++) {
    const ul = lists[(frame + i + 1) % lists.length];
    const li = ul.children[(frame * 3 + i * 7) % LIST_ROWS];
    ul.insertBefore(li, ul.children[(frame * 5 + i * 11) % LIST_ROWS]);
  }
  // Texts and attributes of rows in view.
  const all = lists.flatMap((ul) => [...ul.children]);
  for (let i = 0; i < at(TEXTS); i++) all[(frame * 11 + i * 3) % all.length].lastElementChild.firstChild.data = `rv ${frame}.${i}`;
  for (let i = 0; i < at(ATTRS); i++) all[(frame * 13 + i * 7) % all.length].setAttribute('aria-setsize', String(frame * 100 + i));
  requestAnimationFrame(tick);
}

play.addEventListener('click', () => {
  playing = !playing;
  play.textContent = playing ? 'Pause' : 'Play';
  if (playing) requestAnimationFrame(tick);
});

requestAnimationFrame(() => performance.mark('cachescope:first-frame'));
