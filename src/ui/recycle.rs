//! A list that recycles its elements: each item shown keeps its element for
//! as long as it is shown, and an element whose item has left is given to
//! the next item that arrives. A frame that scrolls a list or plays past a
//! row inserted above it creates no element (a `For` keyed by the item
//! builds one for each item that arrives), and rewrites only the elements
//! whose item changed (a pool keyed by place rewrites every row below an
//! insertion, and the browser lays each rewritten text out again: at 500
//! replicas that cost more than building the elements did).
//!
//! The list's DOM order is its items' order (a screen reader reads it, the
//! keyboard tabs through it), so an element given to another item is moved
//! to its place; an item kept stays where it is unless another item's order
//! overtook it. Elements no item needs are hidden where they stand, their
//! marks (class, data) taken off.
//!
//! What an element shows is a plain value, a [`Look`]; painting writes only
//! what differs from what the element showed before. The elements are built
//! and written with `web_sys` directly, inside a list element Leptos renders
//! empty: Leptos' `For` has no way to hand one item's element to another.
//!
//! An attribute's name crosses to JavaScript once ([`Attr`]), and a place is
//! written as a number: only what varies is passed as a string. Each string
//! passed is read out of the wasm memory through a typed-array view made for
//! it, and at 500 replicas those views were most of what the page allocated
//! in JavaScript while playing (2.3 of 6.1 MB in 4 s, a sampling heap
//! profile): the garbage collector's pauses, whole milliseconds, in the
//! slowest frames.

use js_sys::JsString;
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use web_sys::{Element, Node};

#[wasm_bindgen]
extern "C" {
    /// An element, seen by the writes below.
    type Attributes;
    /// `Element.setAttribute`, its name a JavaScript string made once.
    #[wasm_bindgen(method, js_name = setAttribute)]
    fn set_named(this: &Attributes, name: &JsString, value: &str);
    /// The same with a number, which JavaScript writes as its decimal text.
    #[wasm_bindgen(method, js_name = setAttribute)]
    fn set_number(this: &Attributes, name: &JsString, value: f64);
    #[wasm_bindgen(method, js_name = removeAttribute)]
    fn remove_named(this: &Attributes, name: &JsString);
}

/// An attribute's name, as a literal: the JavaScript string for it is made
/// the first time it is written, and kept for the page's life.
#[derive(Clone, Copy)]
pub(super) struct Attr(pub(super) &'static str);

thread_local! {
    static NAMES: RefCell<Vec<(&'static str, JsString)>> = const { RefCell::new(Vec::new()) };
}

impl Attr {
    /// The names every recycled list writes; a list's own data (`data-kind`) beside its `Look`.
    pub(super) const CLASS: Attr = Attr("class");
    pub(super) const TITLE: Attr = Attr("title");
    pub(super) const STYLE: Attr = Attr("style");
    pub(super) const HIDDEN: Attr = Attr("hidden");
    const POSINSET: Attr = Attr("aria-posinset");
    const SETSIZE: Attr = Attr("aria-setsize");

    fn with<R>(self, f: impl FnOnce(&JsString) -> R) -> R {
        NAMES.with(|names| {
            let mut names = names.borrow_mut();
            let i = match names.iter().position(|(n, _)| *n == self.0) {
                Some(i) => i,
                None => {
                    names.push((self.0, JsString::from(self.0)));
                    names.len() - 1
                }
            };
            f(&names[i].1)
        })
    }

    /// Sets it on `el` to `value`.
    pub(super) fn set(self, el: &Element, value: &str) {
        self.with(|name| el.unchecked_ref::<Attributes>().set_named(name, value));
    }

    /// Sets it on `el` to the decimal text of `value`.
    pub(super) fn set_number(self, el: &Element, value: usize) {
        self.with(|name| el.unchecked_ref::<Attributes>().set_number(name, value as f64));
    }

    pub(super) fn remove(self, el: &Element) {
        self.with(|name| el.unchecked_ref::<Attributes>().remove_named(name));
    }
}

/// What one element of a recycled list shows.
pub(super) trait Look: Clone + PartialEq + 'static {
    /// A fresh element, and the parts `paint` writes, in the order it reads them.
    fn build() -> (Element, Vec<Node>);
    /// Writes what `self` shows onto `el` and its `parts`: all of it when
    /// `was` is `None` (a fresh element, or one given to another item), else
    /// only what differs from `was`.
    fn paint(&self, el: &Element, parts: &[Node], was: Option<&Self>);
    /// The attributes a selector finds an element of the list by (its class,
    /// its data): taken off an element while it is hidden.
    const MARKS: &'static [Attr];
}

struct Item<L> {
    el: Element,
    parts: Vec<Node>,
    /// The item it shows (its key), what it shows and its place
    /// (`aria-posinset`); all `None` while hidden.
    key: Option<String>,
    look: Option<L>,
    place: Option<usize>,
    setsize: Option<usize>,
}

/// The elements of one list: its pool, and their order in the list.
pub(super) struct Recycler<L: Look> {
    list: Element,
    items: Vec<Item<L>>,
    /// Indices into `items`, in the list's DOM order (the hidden ones among them).
    order: Vec<usize>,
}

impl<L: Look> Recycler<L> {
    pub(super) fn new(list: Element) -> Recycler<L> {
        Recycler { list, items: Vec::new(), order: Vec::new() }
    }

    /// Shows `wanted` — each item's key, look and place in the whole list
    /// (1-based, `aria-posinset` of `setsize`; `None` sets neither) — in
    /// order, before `end` (a node of the list's own after the items, such
    /// as a spacer) or at the list's end.
    pub(super) fn show(&mut self, wanted: &[(String, L, usize)], setsize: Option<usize>, end: Option<&Node>) {
        // The elements that keep their item.
        let by_key: HashMap<&str, usize> = self.items.iter().enumerate().filter_map(|(i, it)| it.key.as_deref().map(|k| (k, i))).collect();
        let mut used = vec![false; self.items.len()];
        let mut assigned: Vec<Option<usize>> = wanted
            .iter()
            .map(|(k, ..)| {
                let i = by_key.get(k.as_str()).copied().filter(|&i| !used[i])?;
                used[i] = true;
                Some(i)
            })
            .collect();
        drop(by_key);
        // Those given to an arriving item, from the ones whose item left (built if there are none).
        let mut free: Vec<usize> = (0..self.items.len()).filter(|&i| !used[i]).rev().collect();
        let mut given = vec![false; wanted.len()];
        for (p, a) in assigned.iter_mut().enumerate() {
            if a.is_none() {
                *a = Some(free.pop().unwrap_or_else(|| self.build()));
                given[p] = true;
            }
        }
        for i in free {
            self.hide(i);
        }
        let assigned: Vec<usize> = assigned.into_iter().map(|a| a.expect("every wanted item has an element")).collect();
        for ((key, look, place), &i) in wanted.iter().zip(&assigned) {
            self.paint(i, key, look, *place, setsize);
        }
        // Into order, from the last: each element in place before the next one.
        let mut next: Option<usize> = None;
        for (p, &i) in assigned.iter().enumerate().rev() {
            let at = self.order.iter().position(|&x| x == i);
            let in_place = match (at, next) {
                (None, _) => false,
                // Given to another item: in place only just before the next one (or last);
                // kept: anywhere before the next one.
                (Some(at), Some(n)) => {
                    let n_at = self.order.iter().position(|&x| x == n).expect("the next one is placed");
                    if given[p] {
                        at + 1 == n_at
                    } else {
                        at < n_at
                    }
                }
                (Some(at), None) => !given[p] || at + 1 == self.order.len(),
            };
            if !in_place {
                let before = next.map(|n| Node::from(self.items[n].el.clone())).or_else(|| end.cloned());
                let _ = self.list.insert_before(&self.items[i].el, before.as_ref());
                if let Some(at) = at {
                    self.order.remove(at);
                }
                let to = next.and_then(|n| self.order.iter().position(|&x| x == n)).unwrap_or(self.order.len());
                self.order.insert(to, i);
            }
            next = Some(i);
        }
    }

    /// A fresh element for the pool, hidden until it is painted; its index.
    fn build(&mut self) -> usize {
        let (el, parts) = L::build();
        Attr::HIDDEN.set(&el, "");
        self.items.push(Item { el, parts, key: None, look: None, place: None, setsize: None });
        self.items.len() - 1
    }

    fn paint(&mut self, i: usize, key: &str, look: &L, place: usize, setsize: Option<usize>) {
        let it = &mut self.items[i];
        if it.key.is_none() {
            Attr::HIDDEN.remove(&it.el);
        }
        if it.key.as_deref() != Some(key) {
            it.key = Some(key.to_string());
        }
        // What the element shows is its last look, whichever item that was:
        // given to another item, it is written only where the two differ.
        if it.look.as_ref() != Some(look) {
            look.paint(&it.el, &it.parts, it.look.as_ref());
            it.look = Some(look.clone());
        }
        if let Some(n) = setsize {
            if it.place != Some(place) {
                Attr::POSINSET.set_number(&it.el, place);
                it.place = Some(place);
            }
            if it.setsize != Some(n) {
                Attr::SETSIZE.set_number(&it.el, n);
                it.setsize = Some(n);
            }
        }
    }

    /// Hidden where it stands, saying nothing: no place, so no list counts
    /// it, and none of its marks ([`Look::MARKS`]), so no selector of the
    /// list's finds it (a row lit a frame ago stays unlit). The next item
    /// given it is written whole.
    fn hide(&mut self, i: usize) {
        let it = &mut self.items[i];
        if it.key.take().is_some() {
            Attr::HIDDEN.set(&it.el, "");
            for mark in L::MARKS {
                mark.remove(&it.el);
            }
            if it.place.take().is_some() {
                Attr::POSINSET.remove(&it.el);
            }
            it.look = None;
        }
    }
}

/// An element of `tag` and `class` with an empty text node in it: the element, and the text node.
pub(super) fn text_part(tag: &str, class: &str) -> (Element, Node) {
    let doc = leptos::prelude::document();
    let el = doc.create_element(tag).expect("an element");
    el.set_class_name(class);
    let text: Node = doc.create_text_node("").unchecked_into();
    let _ = el.append_child(&text);
    (el, text)
}

/// Writes `now` into a text node that held `was`, if it differs.
pub(super) fn set_text(node: &Node, now: &str, was: Option<&str>) {
    if was != Some(now) {
        node.set_node_value(Some(now));
    }
}

/// Sets `name` to `now`, or removes it for `None`, if it differs from `was`.
pub(super) fn set_attr(el: &Element, name: Attr, now: Option<&str>, was: Option<Option<&str>>) {
    if was == Some(now) {
        return;
    }
    match now {
        Some(v) => name.set(el, v),
        None => name.remove(el),
    }
}
