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
    let kinds = crate::sim::controllers::watched_kinds(s.scenario().controller.kind);
    spacetime(&frames[from..], w.now_ms(), kinds, w.ctl.workers.len(), wires)
}

/// The whole drawing as one `<svg>` element, sized by its viewBox; the page
/// styles it with its own palette (classes `st-*`).
pub fn svg(st: &SpaceTime) -> String {
    document(st, st.lit, true)
}

/// The drawing the page shows, with the mark of frame `lit` lit: [`svg`]
/// without a `<title>` in each mark, two nodes and a line of text fewer a
/// mark for the browser to parse at every frame played; the page says the
/// pointed mark's title itself ([`SpaceTime::title_of`]).
pub fn live_svg(st: &SpaceTime, lit: Option<usize>) -> String {
    document(st, lit, false)
}

fn document(st: &SpaceTime, lit: Option<usize>, titles: bool) -> String {
    format!(
        r#"<svg class="spacetime" viewBox="0 0 {w} {HEIGHT}" role="img" aria-label="{label}">{defs}{body}</svg>"#,
        w = st.width(),
        label = escape(&st.summary()),
        defs = SpaceTime::defs(),
        body = st.body(lit, titles)
    )
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
        self.body(self.lit, true)
    }

    /// What a mark's `<title>` says: the one text for the export's tooltips
    /// and the page's, which draws no `<title>`s ([`live_svg`]) and says the
    /// pointed mark's instead. The first mark of `frame`, in drawing order.
    pub fn title_of(&self, frame: usize) -> Option<String> {
        let bar = self.bars.iter().filter(|r| self.visible(r.from_ms, r.to_ms)).find(|b| b.frame == frame).map(|b| b.label.clone());
        let write = || self.writes.iter().find(|w| w.frame == frame && self.visible(w.at_ms, w.at_ms)).map(write_title);
        let arrow = || self.arrows.iter().find(|a| a.frame == Some(frame) && self.visible(a.sent_ms, a.arrives_ms)).map(arrow_title);
        let read = || self.reads.iter().find(|r| r.frame == frame && self.visible(r.at_ms, r.at_ms)).map(read_title);
        bar.or_else(write).or_else(arrow).or_else(read)
    }

    fn body(&self, lit: Option<usize>, titles: bool) -> String {
        const FG: &str = "currentColor";
        // Written only where wanted: the page's drawing, redrawn at every frame played, has none.
        let title = |text: &dyn Fn() -> String| if titles { format!("<title>{}</title>", escape(&text())) } else { String::new() };
        let mut b = String::new();
        // Lanes, with the time scale on the left.
        for (i, name) in self.lanes.iter().enumerate() {
            let x = self.x(i);
            let _ = write!(
                b,
                r#"<text class="st-lane" x="{x:.0}" y="20" text-anchor="middle">{}</text><line class="st-lane-line" x1="{x:.0}" y1="{HEAD}" x2="{x:.0}" y2="{}"/>"#,
                escape(name),
                HEIGHT - 10
            );
        }
        let step = tick_step(self.t1 - self.t0);
        let mut t = self.t0.div_ceil(step) * step;
        while t <= self.t1 {
            let y = self.y(t);
            let decimals = if step.is_multiple_of(1000) {
                0
            } else if step.is_multiple_of(100) {
                1
            } else {
                2
            };
            let _ = write!(b, r#"<text class="st-tick" x="4" y="{:.0}">{} s</text>"#, y + 4.0, fmt_ms(t, decimals));
            t += step;
        }
        for bar in self.bars.iter().filter(|r| self.visible(r.from_ms, r.to_ms)) {
            let (x, y0, y1) = (self.x(bar.lane), self.y(bar.from_ms), self.y(bar.to_ms));
            let lit_class = if lit == Some(bar.frame) { " lit" } else { "" };
            let _ = write!(
                b,
                r#"<rect class="st-bar{lit_class}" data-frame="{}" x="{:.0}" y="{y0:.1}" width="14" height="{:.1}" rx="3">{}</rect>"#,
                bar.frame,
                x - 7.0,
                (y1 - y0).max(2.0),
                title(&|| bar.label.clone())
            );
        }
        for w in self.writes.iter().filter(|w| self.visible(w.at_ms, w.at_ms)) {
            let (x, y) = (self.x(0), self.y(w.at_ms));
            let class =
                format!("{}{}", if w.refused { "st-write refused" } else { "st-write" }, if lit == Some(w.frame) { " lit" } else { "" });
            let _ = write!(
                b,
                r#"<circle class="{class}" data-frame="{}" cx="{x:.0}" cy="{y:.1}" r="5">{}</circle>"#,
                w.frame,
                title(&|| write_title(w))
            );
        }
        for a in self.arrows.iter().filter(|a| self.visible(a.sent_ms, a.arrives_ms)) {
            let (x0, y0, x1, y1) = (self.x(0) + 6.0, self.y(a.sent_ms), self.x(a.lane) - 6.0, self.y(a.arrives_ms));
            let mut class = String::from("st-arrow");
            if a.frame.is_none() {
                class.push_str(" in-flight");
            }
            if a.held {
                class.push_str(" held");
            }
            if a.frame.is_some() && a.frame == lit {
                class.push_str(" lit");
            }
            let frame = a.frame.map(|f| format!(r#" data-frame="{f}""#)).unwrap_or_default();
            let _ = write!(
                b,
                r#"<line class="{class}"{frame} x1="{x0:.0}" y1="{y0:.1}" x2="{x1:.0}" y2="{y1:.1}" marker-end="url(#st-head)">{}</line>"#,
                title(&|| arrow_title(a))
            );
        }
        for r in self.reads.iter().filter(|r| self.visible(r.at_ms, r.at_ms)) {
            let (xc, xw, y) = (self.x(r.lane), self.x(r.worker_lane), self.y(r.at_ms));
            let class = format!("{}{}", if r.stale { "st-read stale" } else { "st-read" }, if lit == Some(r.frame) { " lit" } else { "" });
            let _ = write!(
                b,
                r#"<g class="{class}" data-frame="{}"><line x1="{xw:.0}" y1="{y:.1}" x2="{xc:.0}" y2="{y:.1}"/><rect x="{:.0}" y="{:.1}" width="12" height="12" transform="rotate(45 {xc:.0} {y:.1})"/>{}</g>"#,
                r.frame,
                xc - 6.0,
                y - 6.0,
                title(&|| read_title(r))
            );
        }
        let y = self.y(self.now_ms);
        let _ = write!(
            b,
            r#"<line class="st-cursor" x1="40" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="{FG}"/><text class="st-tick" x="4" y="{:.1}">now</text>"#,
            self.width() - 4,
            y - 4.0
        );
        b
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
    use crate::sim::controllers::watched_kinds;
    use crate::view::panels::wires;
    use crate::view::session::Session;

    fn at(session: &mut Session, n: usize) -> SpaceTime {
        session.seek(n);
        let w = session.world();
        let kinds = watched_kinds(session.scenario().controller.kind);
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
        let st = at(&mut s, 85);
        let delivered =
            s.frames()[..85].iter().filter(|f| matches!(f.event, Event::WatchDelivered { watcher: Watcher::Controller, .. })).count();
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
        let kinds = watched_kinds(s.scenario().controller.kind);
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
    fn the_page_draws_the_same_marks_without_titles_and_says_each_title_on_pointing() {
        let mut s = Session::new(preset("over-create").unwrap());
        let st = at(&mut s, 85);
        let (full, live) = (svg(&st), live_svg(&st, None));
        assert!(full.contains("<title>") && !live.contains("<title>"), "the page's drawing has no titles");
        assert_eq!(
            live,
            full.split("<title>").map(|p| p.split_once("</title>").map_or(p, |(_, rest)| rest)).collect::<String>(),
            "the same marks, titles apart"
        );
        // Two nodes fewer a mark (its <title> and the title's text), and the text they held.
        let elements = |svg: &str| svg.matches('<').count() - svg.matches("</").count();
        let marks = full.matches("data-frame=").count();
        assert_eq!(full.matches("<title>").count(), marks, "one title a mark in the export");
        assert_eq!(elements(&live) + marks, elements(&full));
        assert!(live.len() + 2_000 < full.len(), "{} of {} bytes", live.len(), full.len());
        // Each mark's title, asked for by its frame, is the first title of that frame in the export.
        let mut asked = 0;
        for part in full.split("data-frame=\"").skip(1) {
            let frame: usize = part[..part.find('"').unwrap()].parse().unwrap();
            let first = full.split(&format!("data-frame=\"{frame}\"")).nth(1).unwrap();
            let title = first.split_once("<title>").unwrap().1.split_once("</title>").unwrap().0;
            assert_eq!(st.title_of(frame).map(|t| escape(&t)).as_deref(), Some(title), "frame {frame}");
            asked += 1;
        }
        assert!(asked > 10, "{asked} marks");
        assert_eq!(st.title_of(usize::MAX), None, "no mark, no title");
        // Lit as the export lights it.
        let frame = st.arrows.iter().find_map(|a| a.frame).unwrap();
        assert_eq!(
            live_svg(&st, Some(frame)).matches(" lit\"").count(),
            SpaceTime { lit: Some(frame), ..st.clone() }.svg_body().matches(" lit\"").count()
        );
    }
}
