//! The Space-time view: one lane per actor (the apiserver, each of the
//! controller's informers, each worker), time running down, so a stale read
//! is a picture: a write on the apiserver's lane, its watch event an arrow
//! sloping down to the cache's lane (the steeper, the longer the lag), and a
//! reconcile's read of that cache taken *above* where the arrow lands.
//!
//! Built from the frames up to the position (history) and the wires now
//! (events in flight, drawn dashed to where the current lag lands them, so
//! the lag slider tilts them). Plain values and plain SVG text: the page and
//! "Export SVG" draw the same markup, and it is tested natively.

use super::panels::Wire;
use super::xml::escape;
use crate::narrate::units::{fmt_ms, secs};
use crate::sim::apiserver::Verb;
use crate::sim::controllers::Note;
use crate::sim::frame::{Event, Frame, Watcher};
use crate::sim::object::Kind;
use std::fmt::Write;

/// The most simulated time the view spans: older frames scroll off the top.
pub const WINDOW_MS: u64 = 60_000;
/// The least, so a short run is not stretched thin.
const MIN_SPAN_MS: u64 = 2_000;

/// A watch event's trip from the apiserver to an informer.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrow {
    pub lane: usize,
    pub sent_ms: u64,
    pub arrives_ms: u64,
    pub label: String,
    /// The frame it arrived at (`None`: still in flight).
    pub frame: Option<usize>,
    /// The run's schedule held it back.
    pub held: bool,
}

/// A reconcile reading its cache: what it counted against what the cluster held.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub lane: usize,
    pub worker_lane: usize,
    pub at_ms: u64,
    pub label: String,
    /// The cache and the cluster disagreed: a stale read.
    pub stale: bool,
    pub frame: usize,
}

/// A reconcile, on its worker's lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub lane: usize,
    pub from_ms: u64,
    pub to_ms: u64,
    pub label: String,
    pub frame: usize,
}

/// A write the apiserver committed.
#[derive(Debug, Clone, PartialEq)]
pub struct Write_ {
    pub at_ms: u64,
    pub label: String,
    pub frame: usize,
    /// A 409 or another refusal: nothing was written.
    pub refused: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpaceTime {
    pub lanes: Vec<String>,
    pub t0: u64,
    pub t1: u64,
    pub now_ms: u64,
    pub arrows: Vec<Arrow>,
    pub reads: Vec<Read>,
    pub bars: Vec<Bar>,
    pub writes: Vec<Write_>,
    /// The frame whose marks are lit (the page's pointer on its audit line).
    pub lit: Option<usize>,
    /// Marks not drawn, the oldest, past [`MAX_MARKS`] of a sort.
    pub not_drawn: usize,
}

/// One shape of the drawing, in drawing units, with the mark it draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape<'a> {
    /// A lane's name at its top, and its line down.
    Lane { x: f64, name: &'a str },
    /// A time on the scale at the left, `decimals` after the second's point.
    Tick { y: f64, t: u64, decimals: u32 },
    /// A reconcile: a rounded bar 14 wide from `(x, y)`, `h` high.
    Bar { bar: &'a Bar, x: f64, y: f64, h: f64, lit: bool },
    /// A write on the apiserver's lane: a circle of radius 5.
    Write { write: &'a Write_, x: f64, y: f64, lit: bool },
    /// A watch event: a line with its head at `(x1, y1)`.
    Arrow { arrow: &'a Arrow, x0: f64, y0: f64, x1: f64, y1: f64, lit: bool },
    /// A cache read: a dotted line from the worker's lane to the cache's, and a diamond on the cache's.
    Read { read: &'a Read, xw: f64, xc: f64, y: f64, lit: bool },
    /// Now: a line across, from x 40 to `x1`, and its label.
    Cursor { y: f64, x1: f64 },
}

impl Shape<'_> {
    /// The frame a click on the shape seeks to.
    pub fn frame(&self) -> Option<usize> {
        match *self {
            Shape::Bar { bar, .. } => Some(bar.frame),
            Shape::Write { write, .. } => Some(write.frame),
            Shape::Arrow { arrow, .. } => arrow.frame,
            Shape::Read { read, .. } => Some(read.frame),
            _ => None,
        }
    }

    pub fn lit(&self) -> bool {
        matches!(
            *self,
            Shape::Bar { lit: true, .. } | Shape::Write { lit: true, .. } | Shape::Arrow { lit: true, .. } | Shape::Read { lit: true, .. }
        )
    }

    /// Where the shape is, as one point: its middle (an arrow's, a bar's), its centre.
    pub fn anchor(&self) -> (f64, f64) {
        match *self {
            Shape::Lane { x, .. } => (x, 20.0),
            Shape::Tick { y, .. } | Shape::Cursor { y, .. } => (4.0, y),
            Shape::Bar { x, y, h, .. } => (x + 7.0, y + h / 2.0),
            Shape::Write { x, y, .. } => (x, y),
            Shape::Arrow { x0, y0, x1, y1, .. } => ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
            Shape::Read { xc, y, .. } => (xc, y),
        }
    }

    /// Whether `(x, y)` lies on the shape's mark, or within `slack` of it.
    fn reaches(&self, x: f64, y: f64, slack: f64) -> bool {
        match *self {
            Shape::Bar { x: bx, y: by, h, .. } => x >= bx - slack && x <= bx + 14.0 + slack && y >= by - slack && y <= by + h + slack,
            Shape::Write { x: cx, y: cy, .. } => (x - cx).hypot(y - cy) <= 5.0 + slack,
            Shape::Arrow { x0, y0, x1, y1, .. } => distance_to_segment((x, y), (x0, y0), (x1, y1)) <= 1.5 + slack,
            Shape::Read { xc, y: ry, .. } => (x - xc).abs() + (y - ry).abs() <= 8.5 + slack,
            _ => false,
        }
    }
}

/// A mark of the drawing in words ([`SpaceTime::in_words`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MarkWords {
    pub frame: Option<usize>,
    /// `bar`, `write`, `arrow` or `read`.
    pub sort: &'static str,
    pub text: String,
    /// A refused write, an event held back, a stale read: drawn in the danger colour.
    pub marked: bool,
    pub lit: bool,
    /// Where it is drawn, in drawing units.
    pub x: f64,
    pub y: f64,
    /// An arrow's top and bottom.
    pub span: Option<(f64, f64)>,
}

fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) };
    (p.0 - (a.0 + t * dx)).hypot(p.1 - (a.1 + t * dy))
}

/// The most marks of each sort (arrows, reads, bars, writes) drawn: the
/// latest. A controller creating two thousand pods in a second would
/// otherwise draw thousands of marks no one can tell apart, and the page
/// would spend its main thread laying them out.
pub const MAX_MARKS: usize = 200;

/// Keep the last `MAX_MARKS` of `v`, counting the rest.
fn latest<T>(v: &mut Vec<T>, dropped: &mut usize) {
    if v.len() > MAX_MARKS {
        let extra = v.len() - MAX_MARKS;
        v.drain(..extra);
        *dropped += extra;
    }
}

impl SpaceTime {
    /// Watch events delivered so far (history, not those in flight).
    pub fn delivered(&self) -> usize {
        self.arrows.iter().filter(|a| a.frame.is_some()).count()
    }

    pub fn stale_reads(&self) -> usize {
        self.reads.iter().filter(|r| r.stale).count()
    }

    /// In words, for the region's accessible name and the SVG's title.
    pub fn summary(&self) -> String {
        let in_flight = self.arrows.len() - self.delivered();
        format!(
            "Space-time, {} s to {} s: {} watch events delivered, {in_flight} in flight, {} cache reads ({} stale), {} reconciles",
            fmt_ms(self.t0, 1),
            fmt_ms(self.t1, 1),
            self.delivered(),
            self.reads.len(),
            self.stale_reads(),
            self.bars.len()
        ) + &if self.not_drawn > 0 {
            format!(" (the latest {MAX_MARKS} of each drawn; {} older marks not drawn)", self.not_drawn)
        } else {
            String::new()
        }
    }
}

/// The view at `frames.len()` frames (the position), at `now_ms`, with the
/// controller's `kinds` and `workers`, and the wires in flight now.
pub fn spacetime(frames: &[Frame], now_ms: u64, kinds: &[Kind], workers: usize, wires: &[Wire]) -> SpaceTime {
    let mut lanes = vec!["apiserver".to_string()];
    lanes.extend(kinds.iter().map(|k| format!("{k} cache")));
    lanes.extend((0..workers).map(|w| format!("worker {w}")));
    let cache_lane = |k: Kind| kinds.iter().position(|x| *x == k).map(|i| i + 1);
    let worker_lane = |w: u32| 1 + kinds.len() + (w as usize).min(workers.saturating_sub(1));
    let mut st = SpaceTime { lanes, now_ms, ..SpaceTime::default() };
    let mut open: Vec<Option<(u64, String, usize)>> = vec![None; workers];
    let mut arrivals_end = now_ms;
    for f in frames {
        let n = f.n as usize;
        match &f.event {
            Event::WatchDelivered { watcher: Watcher::Controller, event_type, object, sent_at_ms, held_ms, .. } => {
                if let Some(lane) = cache_lane(object.kind) {
                    st.arrows.push(Arrow {
                        lane,
                        sent_ms: *sent_at_ms,
                        arrives_ms: f.at_ms,
                        label: format!("{} {} {}", event_type.as_str(), object.kind, object.name),
                        frame: Some(n),
                        held: *held_ms > 0,
                    });
                }
            }
            Event::ApiRequest { entry, .. } if matches!(entry.verb, Verb::Create | Verb::Update | Verb::Delete) => st.writes.push(Write_ {
                at_ms: f.at_ms,
                label: format!("{} {} {}: {}", entry.verb.as_str(), entry.kind, entry.name, entry.status.code),
                frame: n,
                refused: !entry.status.is_success(),
            }),
            Event::ReconcileStarted { worker, key, n: r, .. } => {
                if let Some(slot) = open.get_mut(*worker as usize) {
                    *slot = Some((f.at_ms, format!("reconcile {r} of {key}"), n));
                }
            }
            Event::ReconcileFinished { worker, .. } => {
                if let Some(Some((from_ms, label, frame))) = open.get_mut(*worker as usize).map(Option::take) {
                    st.bars.push(Bar { lane: worker_lane(*worker), from_ms, to_ms: f.at_ms, label, frame });
                }
            }
            Event::ReconcileNote { worker, note, .. } => {
                let read = match note {
                    Note::Counted { child_kind, in_cache, in_cluster, .. } => {
                        Some((*child_kind, format!("read {in_cache} {child_kind}s, the cluster held {in_cluster}"), in_cache != in_cluster))
                    }
                    Note::CacheMiss { name, kind, .. } => Some((*kind, format!("Get {name}: not in the cache"), true)),
                    Note::CacheHit { name, kind } => Some((*kind, format!("Get {name}: found"), false)),
                    _ => None,
                };
                if let Some((kind, label, stale)) = read {
                    if let Some(lane) = cache_lane(kind) {
                        st.reads.push(Read { lane, worker_lane: worker_lane(*worker), at_ms: f.at_ms, label, stale, frame: n });
                    }
                }
            }
            _ => {}
        }
    }
    // Reconciles still running reach the cursor.
    for (w, slot) in open.into_iter().enumerate() {
        if let Some((from_ms, label, frame)) = slot {
            st.bars.push(Bar { lane: worker_lane(w as u32), from_ms, to_ms: now_ms, label, frame });
        }
    }
    for w in wires.iter().filter(|w| w.watcher == Watcher::Controller && w.label != "LIST" && w.label != "BOOKMARK") {
        if let Some(lane) = cache_lane(w.kind) {
            arrivals_end = arrivals_end.max(w.deliver_at_ms.min(now_ms + WINDOW_MS / 2));
            st.arrows.push(Arrow {
                lane,
                sent_ms: w.sent_at_ms,
                arrives_ms: w.deliver_at_ms,
                label: format!("{} {} {}", w.label, w.kind, w.name),
                frame: None,
                held: w.held_ms > 0,
            });
        }
    }
    let mut not_drawn = 0;
    latest(&mut st.arrows, &mut not_drawn);
    latest(&mut st.reads, &mut not_drawn);
    latest(&mut st.bars, &mut not_drawn);
    latest(&mut st.writes, &mut not_drawn);
    st.not_drawn = not_drawn;
    // A little room below the last arrival, so its arrowhead shows.
    st.t1 = (arrivals_end + arrivals_end / 20).max(MIN_SPAN_MS);
    st.t0 = st.t1.saturating_sub(WINDOW_MS).min(now_ms);
    st
}

/// The view of a session at its position: the frames of the last two windows
/// only (older ones cannot reach the drawing), so it costs the same late in a
/// long run as early.
pub fn of_session(s: &crate::view::session::Session, wires: &[Wire]) -> SpaceTime {
    let w = s.world();
    let frames = &s.frames()[..s.position()];
    let from = frames.partition_point(|f| f.at_ms + 2 * WINDOW_MS < w.now_ms());
    let kinds = s.scenario().controller.spec().watches;
    spacetime(&frames[from..], w.now_ms(), kinds, w.ctl.workers.len(), wires)
}

/// The whole drawing as one `<svg>` element, sized by its viewBox; the page
/// styles it with its own palette (classes `st-*`).
pub fn svg(st: &SpaceTime) -> String {
    document(st)
}

fn document(st: &SpaceTime) -> String {
    format!(
        r#"<svg class="spacetime" viewBox="0 0 {w} {HEIGHT}" role="img" aria-label="{label}">{defs}{body}</svg>"#,
        w = st.width(),
        label = escape(&st.summary()),
        defs = SpaceTime::defs(),
        body = st.body(st.lit)
    )
}

/// The drawing in words as list items (`<li>`s for an `<ol>`), for the
/// page's text alternative beside its canvas: each mark's title in time
/// order, a button seeking to its frame where it has one (`data-frame`),
/// its sort and state as classes (`st-arrow in-flight`, `st-read stale`, …),
/// and where it is drawn as `data-x`/`data-y` (an arrow's top and bottom as
/// `data-y1`/`data-y2`), in drawing units. What is lit the page marks
/// `aria-current` in place, so the list is not rebuilt as the pointer moves.
pub fn words_list(st: &SpaceTime) -> String {
    let mut b = String::new();
    for m in st.in_words(None) {
        let state = match (m.sort, m.marked) {
            ("arrow", _) if m.frame.is_none() && m.marked => " in-flight held",
            ("arrow", _) if m.frame.is_none() => " in-flight",
            ("arrow", true) => " held",
            ("read", true) => " stale",
            ("write", true) => " refused",
            _ => "",
        };
        let _ = write!(b, r#"<li class="st-{}{state}" data-x="{:.0}" data-y="{:.1}""#, m.sort, m.x, m.y);
        if let Some((y1, y2)) = m.span {
            let _ = write!(b, r#" data-y1="{y1:.1}" data-y2="{y2:.1}""#);
        }
        match m.frame {
            Some(f) => {
                let _ = write!(b, r#"><button type="button" data-frame="{f}">{}</button></li>"#, escape(&m.text));
            }
            None => {
                let _ = write!(b, ">{}</li>", escape(&m.text));
            }
        }
    }
    b
}

/// The styles "Export SVG" embeds (the page's light palette).
pub const EXPORT_STYLE: &str = concat!(
    ".st-lane{font-size:13px;font-weight:700}.st-tick{font-size:11px;fill:#4d5661}",
    ".st-lane-line{stroke:#d3d7dc;stroke-width:1}.st-bar{fill:#cc79a7;opacity:.55}",
    ".st-write{fill:#0072b2}.st-write.refused{fill:#fff;stroke:#d55e00;stroke-width:2}",
    ".st-arrow{stroke:#e69f00;stroke-width:1.6}.st-arrow.in-flight{stroke-dasharray:5 4}.st-arrow.held{stroke:#d55e00;stroke-width:2.4}",
    ".st-read line{stroke:#009e73;stroke-dasharray:2 3}.st-read rect{fill:#009e73}",
    ".st-read.stale line{stroke:#d55e00}.st-read.stale rect{fill:#d55e00}.st-cursor{stroke:#1b1f24;stroke-width:1.5}"
);

/// Lane width and the drawing's height, in SVG units.
const LANE_W: u32 = 150;
const HEAD: u32 = 34;
pub const HEIGHT: u32 = 420;

impl SpaceTime {
    /// The drawing's width for its lanes.
    pub fn width(&self) -> u32 {
        LANE_W * self.lanes.len() as u32 + 60
    }

    fn x(&self, lane: usize) -> f64 {
        60.0 + LANE_W as f64 * (lane as f64 + 0.5)
    }

    fn y(&self, t: u64) -> f64 {
        let span = self.t1.saturating_sub(self.t0).max(1) as f64;
        HEAD as f64 + (t.clamp(self.t0, self.t1) - self.t0) as f64 / span * (HEIGHT - HEAD - 10) as f64
    }

    fn visible(&self, from: u64, to: u64) -> bool {
        to >= self.t0 && from <= self.t1
    }

    /// The drawing as SVG elements (no `<svg>` around them): lanes, bars,
    /// writes, arrows, reads, and the cursor at now. Each mark carries
    /// `data-frame` (the page seeks there when it is clicked) and a `<title>`.
    pub fn svg_body(&self) -> String {
        self.body(self.lit)
    }

    /// What a mark's `<title>` says: the one text for the export's tooltips
    /// and the page's, whose canvas has none and says the
    /// pointed mark's instead. The first mark of `frame`, in drawing order.
    pub fn title_of(&self, frame: usize) -> Option<String> {
        let bar = self.bars.iter().filter(|r| self.visible(r.from_ms, r.to_ms)).find(|b| b.frame == frame).map(|b| b.label.clone());
        let write = || self.writes.iter().find(|w| w.frame == frame && self.visible(w.at_ms, w.at_ms)).map(write_title);
        let arrow = || self.arrows.iter().find(|a| a.frame == Some(frame) && self.visible(a.sent_ms, a.arrives_ms)).map(arrow_title);
        let read = || self.reads.iter().find(|r| r.frame == frame && self.visible(r.at_ms, r.at_ms)).map(read_title);
        bar.or_else(write).or_else(arrow).or_else(read)
    }

    /// What the drawing is made of, in drawing order and drawing units: the
    /// one geometry the export's SVG writes and the page's canvas paints, and
    /// the page's pointer is tested against ([`SpaceTime::frame_at`]).
    pub fn shapes(&self, lit: Option<usize>) -> Vec<Shape<'_>> {
        let mut out =
            Vec::with_capacity(self.lanes.len() + 16 + self.bars.len() + self.writes.len() + self.arrows.len() + self.reads.len());
        // Lanes, with the time scale on the left.
        for (i, name) in self.lanes.iter().enumerate() {
            out.push(Shape::Lane { x: self.x(i), name });
        }
        let step = tick_step(self.t1 - self.t0);
        let decimals = if step.is_multiple_of(1000) {
            0
        } else if step.is_multiple_of(100) {
            1
        } else {
            2
        };
        let mut t = self.t0.div_ceil(step) * step;
        while t <= self.t1 {
            out.push(Shape::Tick { y: self.y(t), t, decimals });
            t += step;
        }
        for bar in self.bars.iter().filter(|r| self.visible(r.from_ms, r.to_ms)) {
            let (y0, y1) = (self.y(bar.from_ms), self.y(bar.to_ms));
            out.push(Shape::Bar { bar, x: self.x(bar.lane) - 7.0, y: y0, h: (y1 - y0).max(2.0), lit: lit == Some(bar.frame) });
        }
        for w in self.writes.iter().filter(|w| self.visible(w.at_ms, w.at_ms)) {
            out.push(Shape::Write { write: w, x: self.x(0), y: self.y(w.at_ms), lit: lit == Some(w.frame) });
        }
        for a in self.arrows.iter().filter(|a| self.visible(a.sent_ms, a.arrives_ms)) {
            out.push(Shape::Arrow {
                arrow: a,
                x0: self.x(0) + 6.0,
                y0: self.y(a.sent_ms),
                x1: self.x(a.lane) - 6.0,
                y1: self.y(a.arrives_ms),
                lit: a.frame.is_some() && a.frame == lit,
            });
        }
        for r in self.reads.iter().filter(|r| self.visible(r.at_ms, r.at_ms)) {
            out.push(Shape::Read { read: r, xw: self.x(r.worker_lane), xc: self.x(r.lane), y: self.y(r.at_ms), lit: lit == Some(r.frame) });
        }
        out.push(Shape::Cursor { y: self.y(self.now_ms), x1: f64::from(self.width() - 4) });
        out
    }

    /// The frame of the mark at `(x, y)` in drawing units, within `slack`
    /// units of it: the topmost, as the drawing stacks them (reads over
    /// arrows over writes over bars).
    pub fn frame_at(&self, x: f64, y: f64, slack: f64) -> Option<usize> {
        self.shapes(None).iter().rev().find(|s| s.reaches(x, y, slack)).and_then(Shape::frame)
    }

    fn body(&self, lit: Option<usize>) -> String {
        const FG: &str = "currentColor";
        let title = |text: &dyn Fn() -> String| format!("<title>{}</title>", escape(&text()));
        let mut b = String::new();
        for shape in self.shapes(lit) {
            let lit_class = if shape.lit() { " lit" } else { "" };
            let _ = match shape {
                Shape::Lane { x, name } => write!(
                    b,
                    r#"<text class="st-lane" x="{x:.0}" y="20" text-anchor="middle">{}</text><line class="st-lane-line" x1="{x:.0}" y1="{HEAD}" x2="{x:.0}" y2="{}"/>"#,
                    escape(name),
                    HEIGHT - 10
                ),
                Shape::Tick { y, t, decimals } => {
                    write!(b, r#"<text class="st-tick" x="4" y="{:.0}">{} s</text>"#, y + 4.0, fmt_ms(t, decimals))
                }
                Shape::Bar { bar, x, y, h, .. } => write!(
                    b,
                    r#"<rect class="st-bar{lit_class}" data-frame="{}" x="{x:.0}" y="{y:.1}" width="14" height="{h:.1}" rx="3">{}</rect>"#,
                    bar.frame,
                    title(&|| bar.label.clone())
                ),
                Shape::Write { write: w, x, y, .. } => write!(
                    b,
                    r#"<circle class="{}{lit_class}" data-frame="{}" cx="{x:.0}" cy="{y:.1}" r="5">{}</circle>"#,
                    if w.refused { "st-write refused" } else { "st-write" },
                    w.frame,
                    title(&|| write_title(w))
                ),
                Shape::Arrow { arrow: a, x0, y0, x1, y1, .. } => {
                    let frame = a.frame.map(|f| format!(r#" data-frame="{f}""#)).unwrap_or_default();
                    write!(
                        b,
                        r#"<line class="st-arrow{}{}{lit_class}"{frame} x1="{x0:.0}" y1="{y0:.1}" x2="{x1:.0}" y2="{y1:.1}" marker-end="url(#st-head)">{}</line>"#,
                        if a.frame.is_none() { " in-flight" } else { "" },
                        if a.held { " held" } else { "" },
                        title(&|| arrow_title(a))
                    )
                }
                Shape::Read { read: r, xw, xc, y, .. } => write!(
                    b,
                    r#"<g class="{}{lit_class}" data-frame="{}"><line x1="{xw:.0}" y1="{y:.1}" x2="{xc:.0}" y2="{y:.1}"/><rect x="{:.0}" y="{:.1}" width="12" height="12" transform="rotate(45 {xc:.0} {y:.1})"/>{}</g>"#,
                    if r.stale { "st-read stale" } else { "st-read" },
                    r.frame,
                    xc - 6.0,
                    y - 6.0,
                    title(&|| read_title(r))
                ),
                Shape::Cursor { y, x1 } => write!(
                    b,
                    r#"<line class="st-cursor" x1="40" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="{FG}"/><text class="st-tick" x="4" y="{:.1}">now</text>"#,
                    y - 4.0
                ),
            };
        }
        b
    }

    /// The drawing's marks in words, in time order: what the page offers
    /// beside its canvas as the drawing's text alternative. Each with its
    /// frame (none for an event still in flight), its title, its sort, and
    /// where it is drawn (drawing units).
    pub fn in_words(&self, lit: Option<usize>) -> Vec<MarkWords> {
        let mut marks: Vec<(u64, MarkWords)> = self
            .shapes(lit)
            .iter()
            .filter_map(|s| {
                let (at_ms, sort, text, stale) = match *s {
                    Shape::Bar { bar, .. } => (bar.from_ms, "bar", bar.label.clone(), false),
                    Shape::Write { write, .. } => (write.at_ms, "write", write_title(write), write.refused),
                    Shape::Arrow { arrow, .. } => (arrow.arrives_ms, "arrow", arrow_title(arrow), arrow.held),
                    Shape::Read { read, .. } => (read.at_ms, "read", read_title(read), read.stale),
                    _ => return None,
                };
                let (x, y) = s.anchor();
                let span = match *s {
                    Shape::Arrow { y0, y1, .. } => Some((y0, y1)),
                    _ => None,
                };
                Some((at_ms, MarkWords { frame: s.frame(), sort, text, marked: stale, lit: s.lit(), x, y, span }))
            })
            .collect();
        marks.sort_by_key(|(at_ms, _)| *at_ms);
        marks.into_iter().map(|(_, m)| m).collect()
    }

    /// The arrowhead every arrow ends with.
    pub fn defs() -> &'static str {
        r#"<defs><marker id="st-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="context-stroke"/></marker></defs>"#
    }
}

fn write_title(w: &Write_) -> String {
    format!("frame {}: {}", w.frame, w.label)
}

fn arrow_title(a: &Arrow) -> String {
    match a.frame {
        Some(f) => format!("frame {f}: {} arrives after {}", a.label, secs(a.arrives_ms - a.sent_ms)),
        None => format!("{}: in flight, arrives at {} s", a.label, fmt_ms(a.arrives_ms, 3)),
    }
}

fn read_title(r: &Read) -> String {
    format!("frame {}: {}{}", r.frame, r.label, if r.stale { " (stale)" } else { "" })
}

/// A round tick spacing giving 4 to 12 ticks over `span_ms`.
fn tick_step(span_ms: u64) -> u64 {
    [250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000].into_iter().find(|s| span_ms / s <= 12).unwrap_or(120_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::view::panels::wires;
    use crate::view::session::Session;

    fn at(session: &mut Session, n: usize) -> SpaceTime {
        session.seek(n);
        let w = session.world();
        let kinds = session.scenario().controller.spec().watches;
        spacetime(&session.frames()[..session.position()], w.now_ms(), kinds, w.ctl.workers.len(), &wires(w, false, w.now_ms()))
    }

    #[test]
    fn a_burst_of_thousands_draws_the_latest_marks_and_says_how_many_are_not() {
        let (_, held) = crate::scenario::limits::OVER_AT_RUN_TIME[2];
        let mut s = crate::view::session::Session::new(crate::scenario::Scenario::from_json(held).unwrap());
        s.seek(usize::MAX);
        let w = crate::view::panels::wires(s.world(), false, s.world().now_ms());
        let st = of_session(&s, &w);
        assert!(st.arrows.len() <= MAX_MARKS && st.writes.len() <= MAX_MARKS, "{} {}", st.arrows.len(), st.writes.len());
        assert!(st.not_drawn > 1_000, "{}", st.not_drawn);
        assert!(st.summary().contains("older marks not drawn"), "{}", st.summary());
        assert!(svg(&st).len() < 120_000, "{} bytes", svg(&st).len());
    }

    #[test]
    fn one_arrow_per_delivered_event_and_the_stale_read_is_marked() {
        let mut s = Session::new(preset("over-create").unwrap());
        // The whole run (78 frames under controller-runtime's queue).
        let st = at(&mut s, 78);
        let delivered =
            s.frames()[..78].iter().filter(|f| matches!(f.event, Event::WatchDelivered { watcher: Watcher::Controller, .. })).count();
        assert!(delivered > 3);
        assert_eq!(st.delivered(), delivered);
        // The second reconcile counts ConfigMaps its cache has not seen yet: a stale read.
        assert!(st.stale_reads() >= 1, "{:?}", st.reads);
        assert!(st.reads.iter().any(|r| r.stale && r.label.starts_with("read 0 ConfigMaps, the cluster held")), "{:?}", st.reads);
        assert!(st.bars.len() >= 2);
        let body = st.svg_body();
        assert_eq!(body.matches("class=\"st-arrow").count(), st.arrows.len());
        assert!(body.contains("st-read stale"));
    }

    #[test]
    fn the_lag_tilts_the_arrows_in_flight() {
        let mut s = Session::new(preset("over-create").unwrap());
        s.seek(23);
        let w = s.world();
        let kinds = s.scenario().controller.spec().watches;
        let slopes = |lag: u64| {
            let mut world = w.clone();
            world.cluster.watch_lag_ms = lag;
            let st = spacetime(&s.frames()[..23], world.now_ms(), kinds, 1, &wires(&world, false, world.now_ms()));
            st.arrows.iter().filter(|a| a.frame.is_none()).map(|a| a.arrives_ms - a.sent_ms).collect::<Vec<_>>()
        };
        let (short, long) = (slopes(500), slopes(4_000));
        assert!(!short.is_empty() && short.len() == long.len());
        assert!(short.iter().zip(&long).all(|(a, b)| b > a), "{short:?} {long:?}");
    }

    #[test]
    fn the_pointed_frame_is_lit_and_nothing_else() {
        let mut s = Session::new(preset("over-create").unwrap());
        let st = at(&mut s, 85);
        let frame = st.arrows[1].frame.unwrap();
        let body = SpaceTime { lit: Some(frame), ..st.clone() }.svg_body();
        assert_eq!(body.matches(" lit\"").count(), 1, "one mark of frame {frame}");
        assert!(body.contains(&format!(r#"class="st-arrow lit" data-frame="{frame}""#)));
        assert!(!st.svg_body().contains(" lit\""));
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(4_000), 500);
        assert_eq!(tick_step(60_000), 5_000);
    }

    #[test]
    fn the_page_paints_the_exports_marks_finds_each_under_the_pointer_and_says_its_title() {
        let mut s = Session::new(preset("over-create").unwrap());
        let st = at(&mut s, 85);
        let full = svg(&st);
        // The canvas paints the shapes the export writes: one a mark, each with its frame.
        let shapes = st.shapes(None);
        let marks: Vec<usize> = full.split("data-frame=\"").skip(1).map(|p| p[..p.find('"').unwrap()].parse().unwrap()).collect();
        assert_eq!(shapes.iter().filter_map(Shape::frame).collect::<Vec<_>>(), marks, "the same marks, in the same order");
        assert_eq!(full.matches("<title>").count(), marks.len(), "one title a mark in the export");
        // Each mark's title, asked for by its frame, is the first title of that frame in the export.
        let mut asked = 0;
        for &frame in &marks {
            let first = full.split(&format!("data-frame=\"{frame}\"")).nth(1).unwrap();
            let title = first.split_once("<title>").unwrap().1.split_once("</title>").unwrap().0;
            assert_eq!(st.title_of(frame).map(|t| escape(&t)).as_deref(), Some(title), "frame {frame}");
            asked += 1;
        }
        assert!(asked > 10, "{asked} marks");
        assert_eq!(st.title_of(usize::MAX), None, "no mark, no title");
        // The pointer on a mark finds it: on each write, read and bar, its own frame
        // or one drawn over it; off every mark, nothing.
        let reads: Vec<usize> =
            shapes.iter().filter_map(|s| if let Shape::Read { read, .. } = s { Some(read.frame) } else { None }).collect();
        for shape in &shapes {
            let (x, y) = shape.anchor();
            if let Shape::Write { write, .. } = shape {
                assert!(st.frame_at(x, y, 0.0).is_some(), "the write of frame {} under the pointer", write.frame);
            }
            if let Shape::Read { read, .. } = shape {
                // Reads are drawn last: this one, or a later read drawn over it.
                let found = st.frame_at(x, y, 0.0).expect("a read under the pointer");
                assert!(reads.contains(&found) && found >= read.frame, "frame {} found for the read of frame {}", found, read.frame);
            }
        }
        assert_eq!(st.frame_at(1.0, 1.0, 2.0), None, "the corner holds no mark");
        let write =
            shapes.iter().find_map(|s| if let Shape::Write { write, x, y, .. } = s { Some((write.frame, *x, *y)) } else { None }).unwrap();
        assert_eq!(st.frame_at(write.1 - 8.0, write.2, 0.0), None, "8 units left of a write is off it");
        assert_eq!(st.frame_at(write.1 - 8.0, write.2, 4.0), Some(write.0), "within the slack, on it");
        // Lit as the export lights it: the shapes of that frame, and no other.
        let frame = st.arrows.iter().find_map(|a| a.frame).unwrap();
        let lit = st.shapes(Some(frame));
        assert!(lit.iter().all(|s| s.lit() == (s.frame() == Some(frame))));
        assert_eq!(
            lit.iter().filter(|s| s.lit()).count(),
            SpaceTime { lit: Some(frame), ..st.clone() }.svg_body().matches(" lit\"").count()
        );
        // In words: every mark, in time order, the lit one said so, the stale read marked.
        let words = st.in_words(Some(frame));
        assert_eq!(
            words.len(),
            marks.len() + st.arrows.iter().filter(|a| a.frame.is_none() && st.visible(a.sent_ms, a.arrives_ms)).count()
        );
        assert_eq!(words.iter().filter(|w| w.lit).count(), lit.iter().filter(|s| s.lit()).count());
        assert!(words.iter().any(|w| w.sort == "read" && w.marked && w.text.ends_with("(stale)")), "{words:?}");
        assert_eq!(words.iter().filter(|w| w.sort == "arrow" && w.frame.is_some()).count(), st.delivered());
    }
}
