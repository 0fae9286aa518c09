//! The header controls (scenario, lag, naming, switches, actions) and the
//! transport (play, step, scrubber, speed). Every control has the accessible
//! name the end-to-end tests and screen readers use.

use super::state::{part_of, use_ui, Ui};
use crate::narrate::units::fmt_ms;
use crate::scenario::preset_names;
use crate::scenario::settings::{self, Domain, Setting, SETTINGS};
use crate::sim::apiserver::{FailMode, Propagation};
use crate::sim::controllers::Naming;
use crate::sim::object::Kind;
use crate::sim::settings::Val;
use crate::view::session::{Change, UiAction};
use crate::view::snapshot::{field_limits, ControlsView};
use crate::view::url;
use leptos::either::Either;

/// The page's freeze: long enough for a 15 s lease to lapse and the other replica to take over.
const PAUSE_MS: u64 = 30_000;
use leptos::prelude::*;

/// The scenario menu, in the page's header, and "Back to the preset" once the
/// run departs from it (a setting, a change at a frame, a found bug, a
/// hands-on choice: the scenario keeps the preset's name).
#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let ui = use_ui();
    // Cheap to ask on every played frame: the URL's settings and the changes made at a frame.
    let departs = move || ui.preset.get().is_none() || !ui.settings.with(Vec::is_empty) || ui.session.with(|s| !s.edits().is_empty());
    let custom_label = move || match ui.origin_preset() {
        Some(name) => format!("{name} (changed)"),
        None => "(custom scenario)".to_string(),
    };
    view! {
        <div class="control scenario">
            <label for="scenario-select">"Scenario"</label>
            <select
                id="scenario-select"
                on:change=move |ev| ui.load_preset(&event_target_value(&ev))
                prop:value=move || ui.preset.get().unwrap_or_default()
            >
                {move || ui.preset.get().is_none().then(|| view! { <option value="">{custom_label}</option> })}
                {preset_names().into_iter().map(|n| view! { <option value=n>{n}</option> }).collect_view()}
            </select>
            {move || (departs() && ui.origin_preset().is_some()).then(|| view! {
                <button class="back-to-preset" on:click=move |_| ui.back_to_preset() title="The preset's own settings, from frame 0">
                    "Back to the preset"
                </button>
            })}
        </div>
    }
}

/// The settings and actions that act on the current scenario (the others are
/// not shown). Laid out as one toolbar on a wide screen; behind a "Settings"
/// disclosure on a phone or in an embed, where it opens over the panels
/// instead of pushing them down.
#[component]
pub fn Controls() -> impl IntoView {
    let ui = use_ui();
    let controls = ui.controls;
    let c = move || controls.get();
    // Each gate a memo: what it shows is rebuilt when the gate opens or closes,
    // not when another setting changes.
    let main = move |path: &'static str| Memo::new(move |_| controls.with(|c| in_main(c, path)));
    // Declared settings without a control of their own: fields from the table.
    let generic = Memo::new(move |_| {
        controls.with(|c| {
            c.declared
                .iter()
                .filter(|d| special(&c.shown, d).is_none())
                .filter_map(|d| crate::scenario::settings::setting(d))
                .map(|x| x.path)
                .collect::<Vec<_>>()
        })
    });
    let revision = Memo::new(move |_| (ui.settings.get(), ui.session.with(|s| s.edits().to_vec()), String::new()));
    let main_generic = move || {
        generic
            .get()
            .into_iter()
            .filter_map(crate::scenario::settings::setting)
            .map(|setting| view! { <SettingField setting revision /> })
            .collect_view()
    };
    let action_in_main = move |what: &'static str| Memo::new(move |_| controls.with(|c| c.is_declared(what)));
    let lag_ms = move || controls.with(|c| c.lag_ms);
    let first_list = move || controls.with(|c| c.first_list_ms);
    let naming = move || controls.with(|c| c.naming);
    // Open by default where there is room for a toolbar.
    let compact = ui.embed.get_untracked() || super::popover::compact();
    let open = RwSignal::new(!compact);

    // The number field goes to the setting's own limit; the slider, to what
    // is worth dragging through: both the settings table's.
    let lag = field_limits("cluster.watch_lag_ms").expect("the watch lag is a whole number");
    let lag_max = lag.max.unwrap_or(u64::MAX);
    let first = field_limits("cluster.initial_list_ms").expect("the first LIST is a whole number");
    let on_lag = move |ev| {
        if let Ok(v) = event_target_value(&ev).parse::<u64>() {
            let v = v.min(lag_max);
            ui.apply(Change::Knob(settings::knob("cluster.watch_lag_ms", Val::Int(v))), &format!("Watch lag set to {v} ms"));
        }
    };
    let on_first_list = move |ev| {
        if let Ok(v) = event_target_value(&ev).parse::<u64>() {
            let v = v.min(first.drag_max);
            ui.restart_with("cluster.initial_list_ms", &v.to_string(), &format!("First LIST set to {} s", fmt_ms(v, 1)));
        }
    };
    let set_naming = move |n: Naming| {
        let (word, what) = match n {
            Naming::Deterministic => ("deterministic", "Deterministic names chosen"),
            Naming::Generate => ("generate", "GenerateName chosen"),
        };
        ui.apply(Change::Knob(settings::knob("controller.naming", Val::Word(word))), what);
    };
    let toggle = move |path: &'static str, name: &'static str| {
        move |v: bool| ui.apply(Change::Knob(settings::knob(path, Val::Flag(v))), &format!("{name} {}", if v { "on" } else { "off" }))
    };

    view! {
           <details class="settings" data-popover="compact" prop:open=move || open.get() on:toggle=move |ev| {
               let el: web_sys::HtmlDetailsElement = event_target(&ev);
               open.set(el.open());
           }>
               <summary>"Settings"</summary>
               <section class="controls" aria-label="Controls">
                   { let gate = main("cluster.watch_lag_ms"); move || gate.get().then(|| view! {
                   <div class="control lag">
                       <label for="lag">"Watch lag"</label>
                       <input
                           id="lag"
                           type="range"
                           min=lag.min.to_string()
                           max=lag.drag_max.to_string()
                           step=lag.step.to_string()
                           prop:value=move || lag_ms().to_string()
                           aria-valuetext=move || format!("{} milliseconds", lag_ms())
                           on:change=on_lag
                       />
                       <input
                           class="lag-ms mono"
                           type="number"
                           inputmode="numeric"
                           min=lag.min.to_string()
                           max=lag_max.to_string()
                           aria-label="Watch lag in ms"
                           title=format!("Up to the setting's own limit; the slider goes to {} s", fmt_ms(lag.drag_max, 0))
                           prop:value=move || lag_ms().to_string()
                           on:change=on_lag
                       />
                       <span class="unit" aria-hidden="true">"ms"</span>
                   </div>
                   })}
                   { let gate = main("cluster.initial_list_ms"); move || gate.get().then(|| view! {
                       <div class="control first-list" title="How long the informer's first LIST takes to reach its store. A cluster-wide informer lists every ConfigMap in the cluster: on a big cluster, seconds.">
                           <label for="first-list">"First LIST"</label>
                           <input
                               id="first-list"
                               type="range"
                               min=first.min.to_string()
                               max=first.drag_max.to_string()
                               step=first.step.to_string()
                               prop:value=move || first_list().to_string()
                               aria-valuetext=move || format!("{} seconds", fmt_ms(first_list(), 1))
                               aria-describedby="first-list-why"
                               on:change=on_first_list
                           />
                           <output for="first-list" class="mono">{move || format!("{} s", fmt_ms(first_list(), 1))}</output>
                           <span id="first-list-why" class="sr-only">
                               "How long the informer's first LIST takes to reach its store: a cluster-wide informer lists every ConfigMap in the cluster."
                           </span>
                       </div>
                   })}
                   { let gate = main("controller.naming"); move || gate.get().then(|| view! {
                       <fieldset class="control naming">
                           <legend>"Names"</legend>
                           <label>
                               <input
                                   type="radio"
                                   name="naming"
                                   prop:checked=move || naming() == Naming::Deterministic
                                   on:change=move |_| set_naming(Naming::Deterministic)
                               />
                               "Deterministic names"
                           </label>
                           <label>
                               <input
                                   type="radio"
                                   name="naming"
                                   prop:checked=move || naming() == Naming::Generate
                                   on:change=move |_| set_naming(Naming::Generate)
                               />
                               "GenerateName"
                           </label>
                       </fieldset>
                   })}
                   <fieldset class="control switches">
                       <legend class="sr-only">"Controller"</legend>
                       { let gate = main("controller.double_enqueue"); move || gate.get().then(|| view! {
                           <Switch label="Double enqueue" checked=Signal::derive(move || c().double_enqueue) on_toggle=toggle("controller.double_enqueue", "Double enqueue") />
                       })}
                       { let gate = main("controller.expectations"); move || gate.get().then(|| view! {
                           <Switch label="Expectations" checked=Signal::derive(move || c().expectations) on_toggle=toggle("controller.expectations", "Expectations") />
                       })}
                       { let gate = main("controller.consistency_store"); move || gate.get().then(|| view! {
                           <Switch label="Consistency store (KEP-5647)" checked=Signal::derive(move || c().consistency_store) on_toggle=toggle("controller.consistency_store", "Consistency store (KEP-5647)") />
                       })}
    { let gate = main("controller.update_status"); move || gate.get().then(|| view! {
                           <Switch label="Write status" checked=Signal::derive(move || c().update_status) on_toggle=toggle("controller.update_status", "Write status") />
                       })}
                       { let gate = main("controller.wait_for_cache_sync"); move || gate.get().then(|| view! {
                           <Switch label="Wait for cache sync" checked=Signal::derive(move || c().wait_for_cache_sync) on_toggle=move |v| restart_wait(ui, v) />
                       })}
                       { let gate = main("controller.delete_surplus"); move || gate.get().then(|| view! {
                           <Switch label="Delete surplus" checked=Signal::derive(move || c().delete_surplus) on_toggle=toggle("controller.delete_surplus", "Delete surplus") />
                       })}
                       { let gate = main("controller.owner_references"); move || gate.get().then(|| view! {
                           <Switch label="ownerReferences" checked=Signal::derive(move || c().owner_references) on_toggle=toggle("controller.owner_references", "ownerReferences") />
                       })}
                   </fieldset>
                   { let gate = action_in_main("scale"); move || gate.get().then(|| view! { <DesiredField /> })}
                   <Actions more=false />
                   {main_generic}
                   <MoreSettings in_main />
               </section>
           </details>
       }
}

/// The value a setting has, as `edit=` writes it: the scenario's, or the
/// last change the learner made to it at or before the current frame. Read
/// without tracking: the fields ask again when the settings or the changes do.
fn current_value(ui: Ui, path: &'static str) -> String {
    ui.session.with_untracked(|s| {
        let at = s.position();
        let changed = s.knob_edits().filter(|(frame, p, _)| *p == path && *frame <= at).last().map(|(_, _, v)| v);
        changed.unwrap_or_else(|| match crate::scenario::get_path(&s.scenario().to_value(), path) {
            Some(serde_json::Value::String(w)) => w.clone(),
            Some(serde_json::Value::Null) | None => String::new(),
            Some(v) => v.to_string(),
        })
    })
}

/// Change a setting from the settings table: during the run if it may change
/// then (its `Knob`: the value written into its field), else from frame 0.
fn set_setting(ui: Ui, setting: &'static Setting, raw: &str) {
    let raw = raw.trim();
    match setting.live {
        true => match setting.parse(raw) {
            Ok(v) => ui.apply(Change::Knob(setting.knob(v).expect("a live setting")), &format!("{} set to {raw}", setting.path)),
            Err(why) => ui.notice.set(super::notice::Notice::say(format!("{}: {raw:?}: {why}", setting.path))),
        },
        false => {
            let optional = matches!(setting.domain, Domain::Int { optional: true, .. } | Domain::Flag { optional: true });
            let value = if raw.is_empty() && optional { "null" } else { raw };
            ui.restart_with(setting.path, value, &format!("{} set to {}", setting.path, if raw.is_empty() { "its default" } else { raw }));
        }
    }
}

/// What a setting's field redraws on: the scenario's settings, the learner's
/// changes, and a word of the caller's.
type Revision = (Vec<(String, String)>, Vec<crate::view::session::Edit>, String);

/// One setting of the table, as a field named by its path, with its unit
/// and its help; its limits are the table's. `revision` changes when the
/// scenario's settings or the learner's changes do.
#[component]
fn SettingField(setting: &'static Setting, revision: Memo<Revision>) -> impl IntoView {
    let ui = use_ui();
    let id = format!("setting-{}", setting.path.replace(['.', '_'], "-"));
    let help_id = format!("{id}-help");
    let value = move || {
        revision.track();
        current_value(ui, setting.path)
    };
    let limits = field_limits(setting.path);
    let unit = (!setting.unit.is_empty()).then(|| view! { <span class="unit">{setting.unit}</span> });
    let field = match setting.domain {
        Domain::Int { optional, .. } => Either::Left(Either::Left(view! {
            <input
                id=id.clone()
                type="number"
                inputmode="numeric"
                min=limits.map(|l| l.min.to_string())
                max=limits.and_then(|l| l.max).map(|m| m.to_string())
                placeholder=optional.then_some("default")
                aria-describedby=help_id.clone()
                prop:value=value
                on:change=move |ev| set_setting(ui, setting, &event_target_value(&ev))
            />
        })),
        Domain::Flag { .. } => Either::Left(Either::Right(view! {
            <input
                id=id.clone()
                type="checkbox"
                aria-describedby=help_id.clone()
                prop:checked=move || {
                    let v = value();
                    v == "true" || (v.is_empty() && default_on(ui, setting.path))
                }
                on:change=move |ev| set_setting(ui, setting, if event_target_checked(&ev) { "true" } else { "false" })
            />
        })),
        Domain::Choice(words) => Either::Right(Either::Left(view! {
            <select id=id.clone() aria-describedby=help_id.clone() prop:value=value on:change=move |ev| set_setting(ui, setting, &event_target_value(&ev))>
                // Absent: its default (or its release's), as the table's default column says.
                <option value="" disabled>"default"</option>
                {words.iter().map(|w| view! { <option value=*w>{*w}</option> }).collect_view()}
            </select>
        })),
        Domain::Name => Either::Right(Either::Right(view! {
            <input id=id.clone() type="text" aria-describedby=help_id.clone() prop:value=value on:change=move |ev| set_setting(ui, setting, &event_target_value(&ev)) />
        })),
    };
    view! {
        <div class="control setting" class:live=setting.live>
            <label for=id.clone() class="mono">{setting.path}</label>
            {field}
            {unit}
            <span id=help_id class="help">{setting.help}{if setting.live { "" } else { " (from frame 0)" }}</span>
        </div>
    }
}

/// An optional flag left to its default, as it resolves (`controller.expectations`:
/// on for the ReplicaSet; what a release's profile governs: by the profile).
fn default_on(ui: Ui, path: &str) -> bool {
    ui.session.with_untracked(|s| {
        let c = &s.scenario().controller;
        match path {
            "controller.expectations" => c.expectations(),
            _ => c.governed().iter().any(|g| g.path == path && g.resolved == crate::sim::settings::Val::Flag(true)),
        }
    })
}

/// "More settings": every setting of the table that the lesson's own
/// controls do not show, each with the table's limits. Drawn only while
/// open, and redrawn when a setting changes, never on a played frame.
#[component]
fn MoreSettings(in_main: fn(&ControlsView, &str) -> bool) -> impl IntoView {
    let ui = use_ui();
    let open = RwSignal::new(false);
    let revision = Memo::new(move |_| {
        let edits = ui.session.with(|s| s.edits().to_vec());
        (ui.settings.get(), edits, ui.session.with(|s| s.scenario().name.clone()))
    });
    let rest = Memo::new(move |_| {
        ui.controls.with(|c| SETTINGS.iter().filter(|x| !in_main(c, x.path) && c.shown.offers(x.path)).map(|x| x.path).collect::<Vec<_>>())
    });
    view! {
        <details class="more-settings" on:toggle=move |ev| {
            let el: web_sys::HtmlDetailsElement = event_target(&ev);
            open.set(el.open());
        }>
            <summary>"More settings"</summary>
            {move || open.get().then(|| view! {
                <div class="more-settings-body">
                    {move || (!ui.controls.with(|c| c.is_declared("scale"))).then(|| view! { <DesiredField /> })}
                    <Actions more=true />
                    <label class="switch">
                        <input
                            type="checkbox"
                            prop:checked=move || !ui.controls.with(|c| c.hide_gc)
                            on:change=move |ev| ui.set_hide_gc(!event_target_checked(&ev))
                        />
                        "GC steps"
                    </label>
                    <For
                        each=move || rest.get()
                        key=|p| *p
                        children=move |p: &'static str| {
                            crate::scenario::settings::setting(p).map(|setting| view! { <SettingField setting revision /> })
                        }
                    />
                </div>
            })}
        </details>
    }
}

/// The owner's voices or replicas: a `kubectl scale` once it exists, else
/// what it will be created with (the run recomputed from frame 0).
#[component]
fn DesiredField() -> impl IntoView {
    let ui = use_ui();
    let controls = ui.controls;
    let desired = move || controls.with(|c| c.desired);
    // The owner's desired count as its spec field names it: "Voices", "Replicas".
    let desired_label = move || {
        let field = controls.with(|c| c.spec.desired_field).unwrap_or("replicas");
        field[..1].to_uppercase() + &field[1..]
    };
    let desired_error = RwSignal::new(None::<String>);
    let on_desired = move |ev| {
        let raw = event_target_value(&ev);
        let owner = controls.with_untracked(|c| c.spec.owner).unwrap_or(Kind::ReplicaSet);
        let max = crate::scenario::settings::desired_max(owner);
        let over_budget = |n: u32| {
            ui.session.with_untracked(|s| {
                let (kind, key) = crate::view::session::owner_of(s.scenario())?;
                s.scenario().check_budget_with_scale(kind, &key.name, n).err()
            })
        };
        match raw.trim().parse::<u32>() {
            Ok(n) if u64::from(n) <= max && over_budget(n).is_some() => {
                desired_error.set(over_budget(n).map(|e| format!("{}: {n}: {}", desired_label(), e.message)));
            }
            Ok(n) if u64::from(n) <= max => {
                desired_error.set(None);
                let (exists, path) = controls.with_untracked(|c| (c.owner_exists, c.desired_path.clone()));
                match (exists, path) {
                    // Not created yet: change what it will be created with.
                    (false, Some(path)) => ui.restart_with(&path, &n.to_string(), &format!("{} set to {n}", desired_label())),
                    // kubectl's request is the next frame: step to it, so the field and the cluster show it.
                    _ => {
                        ui.apply(Change::Action(UiAction::Scale(n)), &format!("Scaled to {n} (kubectl scale)"));
                        ui.step_forward();
                    }
                }
            }
            _ => desired_error.set(Some(format!("{}: {raw:?} is not a whole number from 0 to {max}", desired_label()))),
        }
    };
    move || {
        desired().is_some().then(|| view! {
        <div class="control desired">
                           <label for="desired">{desired_label}</label>
                           <input
                               id="desired"
                               type="number"
                               min="0"
                               inputmode="numeric"
                               prop:value=move || desired().unwrap_or(0).to_string()
                               aria-invalid=move || desired_error.get().is_some().to_string()
                               aria-describedby="desired-error"
                               on:change=on_desired
                               on:keydown=move |e: leptos::ev::KeyboardEvent| {
                                   // Enter applies what was typed, as leaving the field does.
                                   if e.key() == "Enter" {
                                       let input: web_sys::HtmlInputElement = event_target(&e);
                                       let _ = input.blur();
                                   }
                               }
                           />
                           {move || desired_error.get().map(|e| view! { <span id="desired-error" class="field-error" role="alert">{e}</span> })}
                       </div>
    })
    }
}

/// The page's actions on the run. `more`: those the lesson does not declare
/// (under "More settings"); else those it does (all, when it declares none).
#[component]
fn Actions(more: bool) -> impl IntoView {
    let ui = use_ui();
    let controls = ui.controls;
    let c = move || controls.get();
    let shown = move || controls.with(|c| c.shown);
    let here = move |what: &str| controls.with(|c| c.is_declared(what)) != more;
    view! {
        <div class="control actions" role="group" aria-label=if more { "More actions" } else { "Actions" }>
                       { let gate = Memo::new(move |_| c().can_delete_pod && here("delete_pod")); move || gate.get().then(|| view! {
                           <button on:click=move |_| ui.apply(Change::Action(UiAction::DeletePod), "A pod deleted")>"Delete a pod"</button>
                       })}
                       { let gate = Memo::new(move |_| c().can_delete_owner && here("delete_owner")); move || gate.get().then(|| view! {
                           <button on:click=move |_| ui.apply(Change::Action(UiAction::DeleteOwner(Propagation::Background)), "Owner deleted")>
                               {move || format!("Delete the {}", controls.with(|c| c.spec.owner).map_or_else(|| "owner".to_string(), |k| k.to_string()))}
                           </button>
                           <select
                               aria-label="Delete the owner with another cascade"
                               on:change=move |ev| {
                                   let (p, what) = match event_target_value(&ev).as_str() {
                                       "foreground" => (Propagation::Foreground, "Owner deleted in the foreground"),
                                       "orphan" => (Propagation::Orphan, "Owner deleted, its children orphaned"),
                                       _ => return,
                                   };
                                   ui.apply(Change::Action(UiAction::DeleteOwner(p)), what);
                                   let select: web_sys::HtmlSelectElement = event_target(&ev);
                                   select.set_value("");
                               }
                           >
                               <option value="">"Delete with --cascade…"</option>
                               <option value="foreground">"foreground: after its children"</option>
                               <option value="orphan">"orphan: leave its children"</option>
                           </select>
                       })}
                       { let gate = Memo::new(move |_| shown().faults && here("drop_next_event")); move || gate.get().then(|| view! {
                           <button on:click=move |_| ui.apply(Change::Action(UiAction::DropNextEvent), "Next watch event will be dropped")>"Drop next watch event"</button>
                       })}
                       { let gate = Memo::new(move |_| shown().faults && here("restart_controller")); move || gate.get().then(|| view! {
                           <button on:click=move |_| ui.apply(Change::Action(UiAction::RestartController), "Controller restarted")>"Restart controller"</button>
                       })}
                       { let gate = Memo::new(move |_| shown().faults && here("pause_controller")); move || gate.get().then(|| view! {
                           <button
                               title="A 30 s stop-the-world pause: with two replicas, the other takes the lease once it lapses"
                               on:click=move |_| ui.apply(Change::Action(UiAction::PauseController(PAUSE_MS)), "The leader is frozen for 30 s")
                           >
                               "Freeze the leader 30 s"
                           </button>
                       })}
                       { let gate = Memo::new(move |_| shown().faults && here("fail_next_create")); move || gate.get().then(|| view! {
                           <select
                               aria-label="Fail the next create"
                               on:change=move |ev| {
                                   let (mode, what) = match event_target_value(&ev).as_str() {
                                       "500" => (FailMode::InternalError, "The next create will fail with 500"),
                                       "timeout" => (FailMode::Timeout, "The next create will time out"),
                                       "timeout_committed" => (FailMode::TimeoutCommitted, "The next create will time out, committed"),
                                       _ => return,
                                   };
                                   ui.apply(Change::Action(UiAction::FailNextCreate(mode)), what);
                                   let select: web_sys::HtmlSelectElement = event_target(&ev);
                                   select.set_value("");
                               }
                           >
                               <option value="">"Fail the next create…"</option>
                               <option value="500">"500 InternalError"</option>
                               <option value="timeout">"504 Timeout, nothing written"</option>
                               <option value="timeout_committed">"504 Timeout, but written"</option>
                           </select>
                       })}
                           </div>
    }
}

/// A setting that has a control of its own in the settings bar, and whether
/// that control acts on this scenario's controller.
fn special(shown: &crate::view::snapshot::Shown, path: &str) -> Option<bool> {
    Some(match path {
        "cluster.watch_lag_ms" => true,
        "controller.wait_for_cache_sync" => shown.client_go,
        "cluster.initial_list_ms" => shown.first_list,
        "controller.naming" => shown.naming,
        "controller.double_enqueue" => shown.double_enqueue,
        "controller.expectations" => shown.expectations,
        "controller.consistency_store" => shown.consistency_store,
        "controller.update_status" => shown.update_status,
        "controller.delete_surplus" => shown.delete_surplus,
        "controller.owner_references" => shown.owner_references,
        _ => return None,
    })
}

/// The setting shows in the settings bar (else under "More settings"): a
/// control of its own that acts on this controller, when the scenario
/// declares nothing; what it declares, when it does.
fn in_main(c: &ControlsView, path: &str) -> bool {
    match (c.declared.is_empty(), special(&c.shown, path)) {
        (true, applies) => applies.unwrap_or(false),
        (false, applies) => c.is_declared(path) && applies.unwrap_or(true),
    }
}

fn restart_wait(ui: Ui, v: bool) {
    ui.restart_with(
        "controller.wait_for_cache_sync",
        if v { "true" } else { "false" },
        if v { "Wait for cache sync on" } else { "Wait for cache sync off" },
    );
}

/// A labelled checkbox bound to a flag of the current world.
#[component]
fn Switch(label: &'static str, checked: Signal<bool>, on_toggle: impl Fn(bool) + 'static) -> impl IntoView {
    view! {
        <label class="switch">
            <input type="checkbox" prop:checked=move || checked.get() on:change=move |ev| on_toggle(event_target_checked(&ev)) />
            {label}
        </label>
    }
}

/// Play, step, reset, speed and the scrubber, with the frame counter and the clock.
#[component]
pub fn Transport() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    let position = move || snap.with(|s| s.position);
    let now_ms = move || snap.with(|s| s.now_ms);
    // The marks on the scrubber, redrawn when they change, not with every frame.
    let forks = part_of(snap, |s, h| std::hash::Hash::hash(&s.forks, h));
    let held = part_of(snap, |s, h| std::hash::Hash::hash(&s.held, h));
    let faults = part_of(snap, |s, h| std::hash::Hash::hash(&s.faults, h));
    let at_end = move || ui.ended.get() && position() >= ui.known.get();
    let speed_label = move || format!("×{}", url::format_speed(url::speed_of_step(ui.speed_step.get())));
    view! {
        <section class="transport" aria-label="Transport">
            <div class="buttons">
                <button on:click=move |_| ui.reset() aria-keyshortcuts="R" title="Reset to frame 0 (R)">"Reset"</button>
                <button on:click=move |_| ui.step_back() aria-keyshortcuts="ArrowLeft" title="Step back (←)" aria-label="Step back">"◀"</button>
                <button class="play" id="play" on:click=move |_| ui.toggle_play() aria-keyshortcuts="Space" title="Play / pause (Space)">
                    {move || if ui.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button on:click=move |_| ui.step_forward() aria-keyshortcuts="ArrowRight" title="Step forward (→)" aria-label="Step forward">"▶"</button>
                <button on:click=move |_| ui.step_to_next_reconcile() aria-keyshortcuts="Shift+ArrowRight" title="Step to next reconcile (Shift+→)" aria-label="Step to next reconcile">"▶▶"</button>
            </div>
            <div class="clock">
                <span class="frame mono">{move || format!("Frame {}", position())}</span>
                <span class="time mono">{move || format!("t = {} s", fmt_ms(now_ms(), 3))}</span>
                <span class="end">{move || if at_end() { "End of run" } else { "" }}</span>
                {move || ui.computing.get().map(|c| view! {
                    <span class="computing mono" role="status">
                        {format!("Computing frame {} of {}…", crate::narrate::units::thousands(c.done as u64), crate::narrate::units::thousands(c.target as u64))}
                    </span>
                    <button class="stop-computing" on:click=move |_| ui.stop_computing()>"Stop"</button>
                })}
            </div>
            <div class="scrub">
                <input
                    type="range"
                    aria-label="Timeline scrubber"
                    min="0"
                    max=move || ui.known.get().max(1).to_string()
                    prop:value=move || position().to_string()
                    aria-valuetext=move || format!("frame {} of {}", position(), ui.known.get())
                    on:input=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                            ui.seek(n);
                        }
                    }
                />
                <div class="forks" aria-hidden="true">
                    {move || {
                        let known = ui.known.get().max(1) as f64;
                        let _ = forks.get();
                        snap.with_untracked(|s| s.forks.clone())
                            .into_iter()
                            .map(|f| view! { <span class="fork" style:left=super::panels::percent(f as f64 / known)></span> })
                            .collect_view()
                    }}
                </div>
                <div class="held-marks">
                    {move || {
                        let known = ui.known.get().max(1) as f64;
                        let _ = held.get();
                        snap.with_untracked(|s| s.held.clone())
                            .into_iter()
                            .map(|(f, ms)| {
                                let what = format!("Frame {f}: an event held back {} arrives", crate::narrate::units::secs(ms));
                                view! {
                                    <button
                                        class="held-mark"
                                        style:left=super::panels::percent(f as f64 / known)
                                        title=what.clone()
                                        aria-label=what
                                        on:click=move |_| ui.seek(f)
                                    ></button>
                                }
                            })
                            .collect_view()
                    }}
                    {move || {
                        let known = ui.known.get().max(1) as f64;
                        let _ = faults.get();
                        snap.with_untracked(|s| s.faults.clone())
                            .into_iter()
                            .map(|(f, what)| {
                                view! {
                                    <button
                                        class="held-mark fault-mark"
                                        style:left=super::panels::percent(f as f64 / known)
                                        title=what.clone()
                                        aria-label=what
                                        on:click=move |_| ui.seek(f)
                                    ></button>
                                }
                            })
                            .collect_view()
                    }}
                </div>
            </div>
            <div class="speed">
                <label for="speed">"Speed"</label>
                <input
                    id="speed"
                    type="range"
                    min=url::MIN_SPEED_STEP
                    max=url::MAX_SPEED_STEP
                    step="1"
                    prop:value=move || ui.speed_step.get().to_string()
                    aria-valuetext=speed_label
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<i32>() {
                            ui.speed_step.set(v.clamp(url::MIN_SPEED_STEP, url::MAX_SPEED_STEP));
                        }
                    }
                />
                <output for="speed" class="mono">{speed_label}</output>
            </div>
        </section>
    }
}
