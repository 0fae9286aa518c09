//! "Export SVG": the current frame's panels as one self-contained SVG image
//! for slides. Drawn from the same [`Snapshot`] and wires the page draws, in
//! the page's palette (Okabe-Ito) and its shape conventions: dashed = not in
//! the cache yet, struck through = deleted, a bar = the object the frame acted
//! on. Plain text out, so it is tested natively.

use super::ellipsize;
use super::panels::{Row, RowState, Wire};
use super::snapshot::Snapshot;
use super::xml::escape;
use crate::narrate::units::fmt_ms;
use std::fmt::Write;

const WIDTH: u32 = 1280;
/// Four columns and three gaps inside 24 px margins.
const COL: u32 = (WIDTH - 48 - 3 * GAP) / 4;
const GAP: u32 = 16;
const LINE: u32 = 22;
/// Rows drawn per panel; the rest are counted.
const MAX_ROWS: usize = 24;

const BLUE: &str = "#0072b2";
const ORANGE: &str = "#e69f00";
const GREEN: &str = "#009e73";
const VERMILLION: &str = "#d55e00";
const PURPLE: &str = "#cc79a7";
const FG: &str = "#1b1f24";
const MUTED: &str = "#4d5661";
const BORDER: &str = "#d3d7dc";

/// Greedy word wrap at `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

struct Canvas {
    body: String,
}

impl Canvas {
    fn text(&mut self, x: u32, y: u32, class: &str, fill: &str, text: &str) {
        let _ = writeln!(self.body, r#"<text x="{x}" y="{y}" class="{class}" fill="{fill}">{}</text>"#, escape(text));
    }

    /// A panel's frame and title; returns the y of its first line.
    fn panel(&mut self, x: u32, y: u32, h: u32, colour: &str, title: &str, sub: &str) -> u32 {
        let _ = writeln!(self.body, r##"<rect x="{x}" y="{y}" width="{COL}" height="{h}" rx="6" fill="#fff" stroke="{BORDER}"/>"##);
        let _ = writeln!(self.body, r#"<rect x="{x}" y="{y}" width="{COL}" height="4" fill="{colour}"/>"#);
        self.text(x + 12, y + 28, "h", FG, title);
        self.text(x + 12 + 9 * title.len() as u32 + 14, y + 28, "s", MUTED, sub);
        y + 58
    }

    /// One Cluster or Cache row, drawn as the page draws it.
    fn row(&mut self, x: u32, y: u32, r: &Row, cache_side: bool) {
        let state = r.state();
        let indent = if r.depth > 0 { 14 } else { 0 };
        let (bx, bw) = (x + 8 + indent, COL - 16 - indent);
        let (stroke, dash, fill) = match (cache_side, state) {
            (_, RowState::Synced) => ("none", "", "none"),
            (false, RowState::NotInCache) => (ORANGE, "", "#fdf5e6"),
            (true, RowState::NotInCache) => (ORANGE, r#" stroke-dasharray="4 3""#, "none"),
            (false, RowState::GoneFromCluster) => (VERMILLION, r#" stroke-dasharray="4 3""#, "none"),
            (true, RowState::GoneFromCluster) | (_, RowState::Stale) => (VERMILLION, r#" stroke-dasharray="2 2""#, "none"),
        };
        if stroke != "none" {
            let _ = writeln!(
                self.body,
                r#"<rect x="{bx}" y="{}" width="{bw}" height="{}" rx="3" fill="{fill}" stroke="{stroke}"{dash}/>"#,
                y - 15,
                LINE - 2
            );
        }
        if r.touched {
            let _ = writeln!(self.body, r#"<rect x="{bx}" y="{}" width="4" height="{}" fill="{FG}"/>"#, y - 15, LINE - 2);
        }
        // As the page: a side names only what it holds; what only the other
        // side has is an unnamed slot (dashed), struck through in the cache
        // when the cluster has deleted it.
        let rv = if cache_side { r.cache_rv } else { r.cluster_rv };
        let Some(v) = rv else {
            let note = if cache_side { "not in this cache" } else { "deleted; still cached" };
            self.text(bx + 8, y, "m small", MUTED, note);
            return;
        };
        let name = ellipsize(&r.name, 26);
        let class = if state == RowState::GoneFromCluster { "m gone" } else { "m" };
        self.text(bx + 8, y, class, FG, &name);
        self.text(bx + bw - 58, y, "m small", MUTED, &format!("rv {v}"));
    }
}

/// The SVG for one frame: a header (scenario, frame, clock), the caption, and
/// the Cluster, Watch, Cache and Expectations panels side by side, with the
/// workqueue and the observations beneath.
pub fn frame_svg(scenario: &str, s: &Snapshot, wires: &[Wire], spacetime: Option<&super::spacetime::SpaceTime>) -> String {
    let mut c = Canvas { body: String::new() };
    c.text(24, 36, "t", FG, &format!("cachescope · {scenario}"));
    c.text(24, 60, "m", MUTED, &format!("Frame {} · t = {} s · rv {}", s.position, fmt_ms(s.now_ms, 3), s.resource_version));
    let caption = wrap(&s.caption, 130);
    let mut y = 88;
    for line in &caption {
        c.text(24, y, "c", FG, line);
        y += 20;
    }
    let top = y + 8;
    let rows = s.rows.len().min(MAX_ROWS);
    let h = 58 + LINE * (rows.max(wires.len().min(MAX_ROWS)).max(4) as u32 + 1) + 8;
    let xs: Vec<u32> = (0..4).map(|i| 24 + i * (COL + GAP)).collect();

    // Cluster and Cache, row for row.
    for (x, cache_side) in [(xs[0], false), (xs[2], true)] {
        let (colour, title, sub) = if cache_side {
            (GREEN, "Cache", if s.synced { "HasSynced ✓" } else { "HasSynced ✗" })
        } else {
            (BLUE, "Cluster", "the apiserver's truth")
        };
        let mut ry = c.panel(x, top, h, colour, title, sub);
        for r in s.rows.iter().take(MAX_ROWS) {
            c.row(x, ry, r, cache_side);
            ry += LINE;
        }
        if s.rows.len() > MAX_ROWS {
            c.text(x + 16, ry, "s", MUTED, &format!("+{} more", s.rows.len() - MAX_ROWS));
        } else if s.rows.is_empty() {
            c.text(x + 16, ry, "s", MUTED, "No objects yet.");
        }
    }

    // Watch: each event with its trip drawn as a track and a dot.
    let mut wy = c.panel(xs[1], top, h, ORANGE, "Watch", &format!("lag {} ms", s.controls.lag_ms));
    for w in wires.iter().take(MAX_ROWS) {
        let held = if w.held_ms > 0 { format!(" (held {})", crate::narrate::units::secs(w.held_ms)) } else { String::new() };
        let label = ellipsize(&format!("{} {}{held}", w.label, w.name), 30);
        c.text(xs[1] + 12, wy, "m small", if w.dropped || w.held_ms > 0 { VERMILLION } else { FG }, &label);
        let (tx, tw) = (xs[1] + 200, COL - 216);
        let _ =
            writeln!(c.body, r#"<line x1="{tx}" y1="{}" x2="{}" y2="{}" stroke="{ORANGE}" stroke-width="2"/>"#, wy - 5, tx + tw, wy - 5);
        let dot = tx + (f64::from(tw) * w.progress.clamp(0.0, 1.0)) as u32;
        let _ = writeln!(c.body, r#"<circle cx="{dot}" cy="{}" r="5" fill="{}"/>"#, wy - 5, if w.dropped { VERMILLION } else { ORANGE });
        wy += LINE;
    }
    if wires.is_empty() {
        c.text(xs[1] + 12, wy, "s", MUTED, "Nothing on the wire.");
    } else if wires.len() > MAX_ROWS {
        c.text(xs[1] + 12, wy, "s", MUTED, &format!("+{} more in flight", wires.len() - MAX_ROWS));
    }

    // Expectations, then the workqueue and the observations in the same column.
    let mut ey = c.panel(xs[3], top, h, PURPLE, "Expectations", "");
    if !s.expectations.enabled {
        for line in wrap("This controller keeps no expectations.", 36) {
            c.text(xs[3] + 12, ey, "s", MUTED, &line);
            ey += 20;
        }
    }
    for e in &s.expectations.records {
        c.text(xs[3] + 12, ey, "m small", FG, &ellipsize(&e.key, 34));
        ey += 20;
        c.text(xs[3] + 12, ey, "m", FG, &format!("add {}  del {}", e.add, e.del));
        ey += 20;
        c.text(xs[3] + 12, ey, "s", if e.satisfied { GREEN } else { VERMILLION }, &format!("SatisfiedExpectations: {}", e.satisfied));
        ey += LINE + 4;
    }
    ey += 8;
    c.text(xs[3] + 12, ey, "h", FG, "Workqueue");
    ey += 22;
    let queued = if s.queue.queued.is_empty() { "empty".to_string() } else { s.queue.queued.join(", ") };
    c.text(xs[3] + 12, ey, "s", FG, &ellipsize(&format!("queue: {queued}"), 40));
    ey += 20;
    let busy: Vec<String> = s.queue.workers.iter().filter_map(|w| w.busy.as_ref().map(|(k, n)| format!("{k} (reconcile {n})"))).collect();
    let busy = if busy.is_empty() { "idle".to_string() } else { busy.join(", ") };
    c.text(xs[3] + 12, ey, "s", FG, &ellipsize(&format!("processing: {busy}"), 40));
    ey += 28;
    let o = &s.observations;
    c.text(xs[3] + 12, ey, "h", FG, "Observations");
    ey += 22;
    c.text(xs[3] + 12, ey, "s", FG, &format!("{}s: cluster {} · cache {} · peak {}", o.kind, o.in_cluster, o.in_cache, o.peak_in_cluster));

    let mut height = top + h.max(ey + 16 - top) + 24;
    // Space-time, below the panels, scaled to the page's width.
    let mut style = String::new();
    if let Some(st) = spacetime {
        let scale = f64::from(WIDTH - 48) / f64::from(st.width());
        c.text(24, height + 4, "h", FG, "Space-time");
        let _ = writeln!(
            c.body,
            r#"<g transform="translate(24 {}) scale({scale:.4})" color="{FG}">{}{}</g>"#,
            height + 12,
            super::spacetime::SpaceTime::defs(),
            st.svg_body()
        );
        height += 12 + (f64::from(super::spacetime::HEIGHT) * scale) as u32 + 16;
        style.push_str(super::spacetime::EXPORT_STYLE);
    }
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">"#,
            "\n<title>{label}</title>\n",
            "<style>text{{font-family:system-ui,sans-serif;font-size:14px}}.t{{font-size:22px;font-weight:700}}",
            ".h{{font-size:16px;font-weight:700}}.s{{font-size:13px}}.c{{font-size:15px}}",
            ".m{{font-family:ui-monospace,'DejaVu Sans Mono',monospace}}.small{{font-size:12px}}.gone{{text-decoration:line-through}}{style}</style>\n",
            r##"<rect width="100%" height="100%" fill="#fbfbfa"/>"##,
            "\n{body}</svg>\n"
        ),
        w = WIDTH,
        h = height,
        label = escape(&format!("cachescope, {scenario}, frame {}: {}", s.position, s.caption)),
        body = c.body,
        style = style,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::view::panels::wires;
    use crate::view::session::Session;
    use crate::view::snapshot::snapshot;

    #[test]
    fn the_svg_draws_the_frame_the_page_draws() {
        let sc = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
        let mut session = Session::new(sc);
        // The first frame with eight ADDED events on the wire: two reconciles' creates.
        while wires(session.world(), false, session.world().now_ms()).len() < 8 {
            assert!(session.step_forward(), "the run puts eight events on the wire");
        }
        let n = session.position();
        let snap = snapshot(&session);
        let w = wires(session.world(), false, session.world().now_ms());
        let svg = frame_svg("over-create", &snap, &w, None);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains(&format!("Frame {n} ·")));
        assert!(svg.contains(&escape(&snap.caption)), "the caption");
        // Each child is named by each panel that holds it (as the page: a
        // side that lacks it draws a slot), and every event in flight once.
        for r in snap.rows.iter().filter(|r| r.depth == 1) {
            let sides = usize::from(r.cluster_rv.is_some()) + usize::from(r.cache_rv.is_some());
            assert_eq!(svg.matches(&format!(">{}<", r.name)).count(), sides, "{} in the panels that hold it", r.name);
        }
        assert_eq!(w.len(), 8, "eight ADDED events on the wire at frame {n}");
        assert_eq!(svg.matches("<circle").count(), w.len());
        // Not in the cache yet: dashed on the cache side.
        assert_eq!(svg.matches("stroke-dasharray=\"4 3\"").count(), 8);
        // Nothing is deleted yet, so nothing is struck through.
        assert!(!svg.contains("class=\"m gone\""));
        // Balanced: every opened text closes.
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
        // With the Space-time view: below the panels, an arrow for each event in flight, styled.
        let st = crate::view::spacetime::of_session(&session, &w);
        let with = frame_svg("over-create", &snap, &w, Some(&st));
        assert_eq!(with.matches("class=\"st-arrow").count(), st.arrows.len());
        assert_eq!(st.arrows.iter().filter(|a| a.frame.is_none()).count(), 8);
        assert!(with.contains(".st-arrow{"), "its styles");
        assert_eq!(with.matches("<text").count(), with.matches("</text>").count());
    }

    #[test]
    fn names_from_a_custom_scenario_cannot_break_out_of_the_svg() {
        let json = r#"{"name":"x","controller":{"kind":"pruner"},"objects":[{"kind":"ConfigMap","name":"a-{i}","count":1}]}"#;
        let mut session = Session::new(crate::scenario::Scenario::from_json(json).unwrap());
        session.seek(3);
        let snap = snapshot(&session);
        let svg = frame_svg("<script>alert(1)</script>", &snap, &[], None);
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;"));
    }
}
