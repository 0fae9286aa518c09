//! The Space-time panel: the view's shapes painted on a canvas, lit where the
//! pointer rests, a click on a mark seeking to its frame; beside it, on
//! request, the drawing in words, its text alternative.
//!
//! A canvas, not the SVG the export writes: redrawn at every frame played,
//! an SVG of a few hundred marks was the browser parsing, styling and laying
//! out as many elements a frame (about 15 ms of the frame at 500 replicas);
//! painting the same shapes costs what drawing them does. The geometry is
//! one, `SpaceTime::shapes`, which the export writes and the pointer is
//! tested against.

use super::layout::worth_drawing;
use crate::ui::state::use_ui;
use crate::view::spacetime::{of_session, words_list, Shape, SpaceTime, HEIGHT};
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The page's colours and font for the drawing, as its stylesheet says them
/// (custom properties on the canvas): read when the canvas is sized and when
/// the colour scheme changes, never while playing.
#[derive(Clone, Default)]
struct Palette {
    fg: String,
    muted: String,
    border: String,
    surface: String,
    bar: String,
    write: String,
    danger: String,
    arrow: String,
    read: String,
    font: String,
}

impl Palette {
    fn of(el: &web_sys::Element) -> Option<Palette> {
        let style = window().get_computed_style(el).ok()??;
        let var = |name: &str| style.get_property_value(name).map(|v| v.trim().to_string()).unwrap_or_default();
        Some(Palette {
            fg: var("--fg"),
            muted: var("--muted"),
            border: var("--border"),
            surface: var("--surface"),
            bar: var("--c-expectations"),
            write: var("--c-cluster"),
            danger: var("--c-danger"),
            arrow: var("--c-inflight"),
            read: var("--c-cache"),
            font: var("font-family"),
        })
    }
}

/// The canvas box in CSS px and the device's pixels per CSS px.
#[derive(Clone, Copy, PartialEq, Default)]
struct Box_ {
    w: f64,
    h: f64,
    dpr: f64,
}

impl Box_ {
    /// Drawing units to CSS px: the scale and the offsets that fit the
    /// drawing in the box, centred (the SVG's `xMidYMid meet`).
    fn fit(&self, st: &SpaceTime) -> (f64, f64, f64) {
        let (w, h) = (f64::from(st.width()), f64::from(HEIGHT));
        let k = (self.w / w).min(self.h / h);
        (k, (self.w - w * k) / 2.0, (self.h - h * k) / 2.0)
    }
}

/// Space-time: one lane per actor, time running down; the stale read as a picture.
#[component]
pub fn SpaceTimePanel() -> impl IntoView {
    let ui = use_ui();
    let section = NodeRef::<leptos::html::Section>::new();
    let worth = worth_drawing(section);
    // Computed where it is worth drawing; else it stays as it was (its words,
    // the canvas's label, included) until a pause or a scroll brings it back.
    let view = Memo::new(move |was: Option<&SpaceTime>| match (was, worth.get()) {
        (Some(was), false) => was.clone(),
        // Every wire, not the Watch lane's head: drawn only here, so only
        // computed when worth drawing.
        _ => {
            let at = ui.display_ms.get();
            ui.session.with(|s| of_session(s, &crate::view::panels::wires(s.world(), false, at)))
        }
    });
    let pointed = ui.pointed;
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let size = RwSignal::new(Box_::default());
    let palette = RwSignal::new(Palette::default());
    // The drawing is painted off the page, then copied onto the canvas: a
    // canvas in the document resolves every `font` it is given against the
    // page's style, which forces the browser to restyle the whole page in the
    // middle of a frame (about 1.4 ms a call at 500 replicas); one that is in
    // no document does not.
    let back = StoredValue::new_local(document().create_element("canvas").ok().and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok()));
    // Sized (its bitmap to its box, in device pixels) and coloured when it is
    // drawn and whenever its box or the colour scheme changes.
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(el) = canvas.get() else { return false };
        watch_size_and_scheme(el, size, palette);
        true
    });
    // Painted at every change of the view, the pointer, the box or the
    // palette, where it is worth it (as the view is computed).
    Effect::new(move |_| {
        if !worth.get() {
            return;
        }
        let Some(el) = canvas.get() else { return };
        let b = size.get();
        if b.w <= 0.0 || b.h <= 0.0 {
            return;
        }
        let lit = pointed.get();
        back.with_value(|back| palette.with(|p| view.with(|v| paint(back, v, lit, p, b))));
        back.with_value(|back| show(&el, back));
    });
    // The mark under the pointer, in drawing units, with 3 CSS px of slack.
    let under = move |e: &leptos::ev::MouseEvent| {
        let b = size.get_untracked();
        view.with_untracked(|v| {
            let (k, ox, oy) = b.fit(v);
            (k > 0.0).then(|| v.frame_at((f64::from(e.offset_x()) - ox) / k, (f64::from(e.offset_y()) - oy) / k, 3.0 / k)).flatten()
        })
    };
    let point = move |e: leptos::ev::MouseEvent| {
        let frame = under(&e);
        if let Some(el) = canvas.get_untracked() {
            let _ = web_sys::HtmlElement::style(&el).set_property("cursor", if frame.is_some() { "pointer" } else { "" });
        }
        if pointed.get_untracked() != frame {
            pointed.set(frame);
        }
    };
    let seek = move |e: leptos::ev::MouseEvent| {
        if let Some(n) = under(&e) {
            ui.seek(n);
        }
    };
    // The pointed mark's title, as the browser's tooltip.
    let title = move || pointed.get().and_then(|f| view.with(|v| v.title_of(f)));
    let summary = move || view.with(|v| v.summary());
    let width = move || view.with(|v| v.width());
    // The drawing in words, built only while it is open, and rebuilt only when
    // the drawing changes: what is lit is marked in place, so a button the
    // keyboard rests on stays.
    let words_open = RwSignal::new(false);
    let list = NodeRef::<leptos::html::Ol>::new();
    let words = move || if words_open.get() { view.with(words_list) } else { String::new() };
    // The mark whose button had the focus, given it back when a rebuild takes it.
    let focused = StoredValue::new(None::<usize>);
    Effect::new(move |_| {
        let (Some(ol), true) = (list.get(), words_open.get()) else { return };
        view.track();
        let lit = pointed.get();
        mark_lit(&ol, lit);
        let lost = document().active_element().is_none_or(|a| document().body().is_some_and(|b| *a == **b));
        if let (true, Some(n)) = (lost, focused.get_value()) {
            focus_word(n);
        }
    });
    let seek_word = move |e: leptos::ev::MouseEvent| {
        if let Some(n) = framed(&e) {
            focused.set_value(Some(n));
            ui.seek(n);
        }
    };
    let point_word = move |e: &web_sys::Event| {
        let frame = framed(e);
        if frame.is_some() && pointed.get_untracked() != frame {
            pointed.set(frame);
        }
    };
    view! {
        <section class="panel spacetime-panel" id="space-time" tabindex="-1" aria-label="Space-time" node_ref=section>
            <header>
                <h2>"Space-time"</h2>
                <span class="sub">"time runs down · an arrow per watch event, sloped by its lag · ◆ a cache read, red when stale"</span>
            </header>
            // Focusable, so a keyboard can scroll it where it overflows.
            <div class="st-wrap" tabindex="0" role="group" aria-label="Space-time drawing">
                <canvas
                    class="spacetime"
                    node_ref=canvas
                    role="img"
                    aria-label=summary
                    style:aspect-ratio=move || format!("{} / {HEIGHT}", width())
                    title=title
                    on:click=seek
                    on:mousemove=point
                    on:mouseleave=move |_| pointed.set(None)
                ></canvas>
            </div>
            <details class="st-words" on:toggle=move |e| words_open.set(e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open()))>
                <summary>"The drawing in words"</summary>
                <ol
                    class="st-list"
                    node_ref=list
                    on:click=seek_word
                    on:focusin=move |e| {
                        focused.set_value(framed(&e));
                        point_word(&e)
                    }
                    on:focusout=move |e: web_sys::FocusEvent| {
                        // Left for somewhere else on the page (not a rebuild, which leaves no element focused).
                        if e.related_target().is_some() {
                            focused.set_value(None);
                        }
                    }
                    on:mouseover=move |e| point_word(&e)
                    inner_html=words
                ></ol>
            </details>
        </section>
    }
}

/// The frame of the mark's button an event happened on (its `data-frame`).
fn framed(e: &web_sys::Event) -> Option<usize> {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("[data-frame]").ok().flatten())
        .and_then(|el| el.get_attribute("data-frame"))
        .and_then(|f| f.parse::<usize>().ok())
}

/// Marks the list items of frame `lit` (and no others) `aria-current`.
fn mark_lit(list: &web_sys::Element, lit: Option<usize>) {
    let each = |selector: &str, f: &dyn Fn(&web_sys::Element)| {
        if let Ok(found) = list.query_selector_all(selector) {
            for i in 0..found.length() {
                if let Some(el) = found.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                    f(&el);
                }
            }
        }
    };
    each("[aria-current]", &|el| {
        let _ = el.remove_attribute("aria-current");
    });
    if let Some(n) = lit {
        each(&format!("li:has(> button[data-frame=\"{n}\"])"), &|el| {
            let _ = el.set_attribute("aria-current", "true");
        });
    }
}

fn focus_word(frame: usize) {
    let button = document().query_selector(&format!(".st-list button[data-frame=\"{frame}\"]")).ok().flatten();
    if let Some(b) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = b.focus();
    }
}

/// Keeps `size` and the canvas's bitmap to its box (a ResizeObserver, which
/// also reports the first box) and `palette` to the page's colour scheme (a
/// media query's change).
fn watch_size_and_scheme(el: HtmlCanvasElement, size: RwSignal<Box_>, palette: RwSignal<Palette>) {
    let measure = {
        let el = el.clone();
        move || {
            let dpr = window().device_pixel_ratio().max(1.0);
            let b = Box_ { w: f64::from(el.client_width()), h: f64::from(el.client_height()), dpr };
            el.set_width((b.w * dpr).round() as u32);
            el.set_height((b.h * dpr).round() as u32);
            if let Some(p) = Palette::of(&el) {
                palette.set(p);
            }
            size.set(b);
        }
    };
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| measure());
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&el);
        on_resize.forget();
        on_cleanup(move || observer.disconnect());
    }
    if let Ok(Some(scheme)) = window().match_media("(prefers-color-scheme: dark)") {
        let el = el.clone();
        let on_change = Closure::<dyn FnMut()>::new(move || {
            if let Some(p) = Palette::of(&el) {
                palette.set(p);
            }
        });
        let _ = scheme.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget();
    }
    // Not measured now: the box read before the page's first frame is laid
    // out lays the whole page out to answer (54 ms of the bare URL's 390 to
    // its first frame, `make profile PROFILE_ARGS="--run load"`). The
    // observer reports the first box itself, once the frame is laid out.
}

/// Copies the drawing painted on `back` onto `el`, the canvas on the page,
/// pixel for pixel (both bitmaps are the box in device pixels).
fn show(el: &HtmlCanvasElement, back: &Option<HtmlCanvasElement>) {
    let Some(back) = back else { return };
    let Some(ctx) = context(el) else { return };
    ctx.clear_rect(0.0, 0.0, f64::from(el.width()), f64::from(el.height()));
    let _ = ctx.draw_image_with_html_canvas_element(back, 0.0, 0.0);
}

fn context(el: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    el.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

/// Paints the drawing of `st` on `el` (the canvas off the page, sized here to
/// the box in device pixels), as the export's SVG draws it
/// (src/view/spacetime.rs, EXPORT_STYLE and the page's `.spacetime` styles):
/// one path a style, in the SVG's order (lanes, bars, writes, arrows, reads,
/// what is lit, the cursor), so a frame is a few dozen calls and one
/// stroke or fill a style, whatever the number of marks.
fn paint(el: &Option<HtmlCanvasElement>, st: &SpaceTime, lit: Option<usize>, p: &Palette, b: Box_) {
    let Some(el) = el else { return };
    let (w, h) = ((b.w * b.dpr).round() as u32, (b.h * b.dpr).round() as u32);
    if el.width() != w || el.height() != h {
        el.set_width(w);
        el.set_height(h);
    }
    let Some(ctx) = context(el) else { return };
    let (k, ox, oy) = b.fit(st);
    let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, f64::from(el.width()), f64::from(el.height()));
    let _ = ctx.set_transform(k * b.dpr, 0.0, 0.0, k * b.dpr, ox * b.dpr, oy * b.dpr);
    let shapes = st.shapes(lit);
    let solid = js_sys::Array::new();
    let dash = |a: f64, b: f64| js_sys::Array::of2(&JsValue::from(a), &JsValue::from(b));
    // Strokes every segment `of` gives, in one path.
    let lines = |color: &str, width: f64, pattern: &js_sys::Array, of: &dyn Fn(&Shape) -> Option<Segment>| {
        ctx.begin_path();
        let mut any = false;
        for (x0, y0, x1, y1) in shapes.iter().filter_map(of) {
            ctx.move_to(x0, y0);
            ctx.line_to(x1, y1);
            any = true;
        }
        if any {
            ctx.set_stroke_style_str(color);
            ctx.set_line_width(width);
            let _ = ctx.set_line_dash(pattern);
            ctx.stroke();
        }
    };
    // Lanes and the time scale.
    lines(&p.border, 1.0, &solid, &|s| match *s {
        Shape::Lane { x, .. } => Some((x, 34.0, x, f64::from(HEIGHT) - 10.0)),
        _ => None,
    });
    ctx.set_fill_style_str(&p.fg);
    ctx.set_font(&format!("700 13px {}", p.font));
    ctx.set_text_align("center");
    for s in &shapes {
        if let Shape::Lane { x, name } = *s {
            let _ = ctx.fill_text(name, x, 20.0);
        }
    }
    ctx.set_fill_style_str(&p.muted);
    ctx.set_font(&format!("11px {}", p.font));
    ctx.set_text_align("start");
    for s in &shapes {
        if let Shape::Tick { y, t, decimals } = *s {
            let _ = ctx.fill_text(&format!("{} s", crate::narrate::units::fmt_ms(t, decimals)), 4.0, y + 4.0);
        }
    }
    // Reconciles.
    ctx.begin_path();
    for s in &shapes {
        if let Shape::Bar { x, y, h, .. } = *s {
            rounded(&ctx, x, y, 14.0, h, 3.0);
        }
    }
    ctx.set_global_alpha(0.55);
    ctx.set_fill_style_str(&p.bar);
    ctx.fill();
    ctx.set_global_alpha(1.0);
    // Writes: filled, a refused one hollow and red.
    for refused in [false, true] {
        ctx.begin_path();
        for s in &shapes {
            if let Shape::Write { write, x, y, .. } = *s {
                if write.refused == refused {
                    ctx.move_to(x + 5.0, y);
                    let _ = ctx.arc(x, y, 5.0, 0.0, std::f64::consts::TAU);
                }
            }
        }
        ctx.set_fill_style_str(if refused { &p.surface } else { &p.write });
        ctx.fill();
        if refused {
            ctx.set_stroke_style_str(&p.danger);
            ctx.set_line_width(2.0);
            let _ = ctx.set_line_dash(&solid);
            ctx.stroke();
        }
    }
    // Watch events: delivered solid, in flight dashed, held back red and wider; each with its head.
    for (held, in_flight) in [(false, false), (false, true), (true, false), (true, true)] {
        let (color, width) = if held { (&p.danger, 2.4) } else { (&p.arrow, 1.6) };
        let this = |s: &Shape| match *s {
            Shape::Arrow { arrow, x0, y0, x1, y1, .. } if arrow.held == held && arrow.frame.is_none() == in_flight => {
                Some((x0, y0, x1, y1))
            }
            _ => None,
        };
        lines(color, width, &if in_flight { dash(5.0, 4.0) } else { solid.clone() }, &this);
        ctx.begin_path();
        for (x0, y0, x1, y1) in shapes.iter().filter_map(this) {
            head(&ctx, x0, y0, x1, y1, 7.0 * width);
        }
        ctx.set_fill_style_str(color);
        ctx.fill();
    }
    // Cache reads: a dotted line from the worker, a diamond on the cache's lane; red when stale.
    for stale in [false, true] {
        let color = if stale { &p.danger } else { &p.read };
        let this = |s: &Shape| match *s {
            Shape::Read { read, xw, xc, y, .. } if read.stale == stale => Some((xw, y, xc, y)),
            _ => None,
        };
        lines(color, 1.0, &dash(2.0, 3.0), &this);
        ctx.begin_path();
        for (_, y, xc, _) in shapes.iter().filter_map(this) {
            diamond(&ctx, xc, y);
        }
        ctx.set_fill_style_str(color);
        ctx.fill();
    }
    // What is lit, outlined in the text colour.
    ctx.begin_path();
    for s in shapes.iter().filter(|s| s.lit()) {
        match *s {
            Shape::Bar { x, y, h, .. } => rounded(&ctx, x, y, 14.0, h, 3.0),
            Shape::Write { x, y, .. } => {
                ctx.move_to(x + 5.0, y);
                let _ = ctx.arc(x, y, 5.0, 0.0, std::f64::consts::TAU);
            }
            Shape::Read { xc, y, .. } => diamond(&ctx, xc, y),
            _ => {}
        }
    }
    ctx.set_stroke_style_str(&p.fg);
    ctx.set_line_width(3.0);
    let _ = ctx.set_line_dash(&solid);
    ctx.stroke();
    lines(&p.fg, 4.0, &solid, &|s| match *s {
        Shape::Arrow { x0, y0, x1, y1, lit: true, .. } => Some((x0, y0, x1, y1)),
        Shape::Read { xw, xc, y, lit: true, .. } => Some((xw, y, xc, y)),
        _ => None,
    });
    // Now.
    lines(&p.fg, 1.5, &solid, &|s| match *s {
        Shape::Cursor { y, x1 } => Some((40.0, y, x1, y)),
        _ => None,
    });
    ctx.set_fill_style_str(&p.muted);
    for s in &shapes {
        if let Shape::Cursor { y, .. } = *s {
            let _ = ctx.fill_text("now", 4.0, y - 4.0);
        }
    }
}

/// A line from `(x0, y0)` to `(x1, y1)`, in drawing units.
type Segment = (f64, f64, f64, f64);

/// A rectangle with rounded corners, added to the current path.
fn rounded(ctx: &CanvasRenderingContext2d, x: f64, y: f64, w: f64, h: f64, r: f64) {
    let r = r.min(h / 2.0);
    ctx.move_to(x + r, y);
    let _ = ctx.arc_to(x + w, y, x + w, y + h, r);
    let _ = ctx.arc_to(x + w, y + h, x, y + h, r);
    let _ = ctx.arc_to(x, y + h, x, y, r);
    let _ = ctx.arc_to(x, y, x + w, y, r);
    ctx.close_path();
}

/// A cache read's diamond, 12 units a side, centred on `(x, y)`.
fn diamond(ctx: &CanvasRenderingContext2d, x: f64, y: f64) {
    let d = 6.0 * std::f64::consts::SQRT_2;
    ctx.move_to(x, y - d);
    ctx.line_to(x + d, y);
    ctx.line_to(x, y + d);
    ctx.line_to(x - d, y);
    ctx.close_path();
}

/// An arrowhead `len` long at the end `(x1, y1)` of the line from `(x0, y0)`,
/// as the SVG's marker draws it (its tip a tenth past the end).
fn head(ctx: &CanvasRenderingContext2d, x0: f64, y0: f64, x1: f64, y1: f64, len: f64) {
    let d = (x1 - x0).hypot(y1 - y0);
    if d == 0.0 {
        return;
    }
    let (ux, uy) = ((x1 - x0) / d, (y1 - y0) / d);
    let (tx, ty) = (x1 + ux * len / 10.0, y1 + uy * len / 10.0);
    let (bx, by) = (tx - ux * len, ty - uy * len);
    ctx.move_to(tx, ty);
    ctx.line_to(bx - uy * len / 2.0, by + ux * len / 2.0);
    ctx.line_to(bx + uy * len / 2.0, by - ux * len / 2.0);
    ctx.close_path();
}
