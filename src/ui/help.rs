//! The help dialog: every key, and what the simulation simplifies.

use super::modal::Modal;
use super::state::use_ui;
use leptos::prelude::*;

/// The help overlay: every key, and what the simulation simplifies, in the
/// page's one [`Modal`].
#[component]
pub(super) fn Help() -> impl IntoView {
    let ui = use_ui();
    view! {
        <Modal labelled_by="help-title" close=Callback::new(move |()| ui.help_open.set(false))>
                <h2 id="help-title">"What you see"</h2>
                <dl class="panels-help">
                    <dt>"Cluster"</dt><dd>"The truth: every object the apiserver holds now, with its resourceVersion."</dd>
                    <dt>"Watch"</dt><dd>"The events on their way from the apiserver to the controller's cache, each arriving after the watch lag."</dd>
                    <dt>"Cache"</dt><dd>"The informer's store: what the controller's lister returns. A dashed slot is an object the cluster has and this cache does not yet."</dd>
                    <dt>"Expectations"</dt><dd>"ControllerExpectations: the creates and deletes a controller waits to see come back through the watch before it trusts its cache again, and v1.36's consistency store under them when the run uses it. A recipe that keeps neither has no such panel."</dd>
                    <dt>"Workqueue"</dt><dd>"The keys waiting to be reconciled, the ones being processed, and those added again while they were."</dd>
                    <dt>"Reconcile"</dt><dd>"The controller's code, the current step lit, with the values it read from the cache."</dd>
                    <dt>"Observations"</dt><dd>"What the lab expects, checked against this run once it has ended (or when you ask), beside the counts so far."</dd>
                </dl>
                <p>{crate::view::panels::follow_words()}</p>
                <p>
                    "Each event in flight in the Watch panel has three buttons: ⇥ deliver it now, ‖ hold it back (then ▶ release it) and ✕ drop it. "
                    "Each choice joins the scenario's schedule, so the link replays it."
                </p>
                <h2>"Keys"</h2>
                <dl class="keys">
                    <dt><kbd>"Space"</kbd></dt><dd>"Play / pause"</dd>
                    <dt><kbd>"→"</kbd></dt><dd>"Step forward"</dd>
                    <dt><kbd>"Shift"</kbd>" + "<kbd>"→"</kbd></dt><dd>"Step to the next reconcile"</dd>
                    <dt><kbd>"←"</kbd></dt><dd>"Step back"</dd>
                    <dt><kbd>"R"</kbd></dt><dd>"Reset to frame 0"</dd>
                    <dt><kbd>"?"</kbd></dt><dd>"This help"</dd>
                    <dt><kbd>"Esc"</kbd></dt><dd>"Close it"</dd>
                </dl>
                <p>
                    "After you click a setting, Space, ← and → still drive the run. Reach a setting with Tab instead and it keeps its own keys."
                </p>
                <h2>"Sharing and files"</h2>
                <p>
                    "Share copies a link to this moment; Embed, an iframe for a course page. Import a scenario file, or drop one on the page; "
                    "export the scenario, the trace (what cachescope trace prints) or this frame as SVG."
                </p>
                <h2>"Can it go wrong?"</h2>
                <p>
                    "Find a bug replays this scenario holding back one watch event (1 s or 10 s beyond the lag), then two, then three, "
                    "searching breadth-first so the first break it finds is one of the shortest, and skipping any state it has already been in. "
                    "A break loads as the run: the held-back event is named on its wire, in the caption when it arrives, and by a mark on "
                    "the timeline; the link carries it. Finding none is a bounded answer: no break among the timings tried, not a proof for every timing."
                </p>
                <h2>"How this differs from a real cluster"</h2>
                <ul class="simplifications">
                    {crate::narrate::simplifications::SIMPLIFICATIONS.iter().map(|s| view! { <li>{s.text}</li> }).collect_view()}
                    <li>"The garbage collector's own cache deliveries are hidden when stepping unless an owner is deleted (GC steps shows them)."</li>
                </ul>
                <button on:click=move |_| ui.help_open.set(false)>"Close"</button>
        </Modal>
    }
}
