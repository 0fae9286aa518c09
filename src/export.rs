//! A run taken home: `cachescope export go` writes, from a scenario up to
//! its breaking frame (or its end), a Go test for controller-runtime's fake
//! client (`sigs.k8s.io/controller-runtime/pkg/client/fake`) whose
//! interceptor functions (`pkg/client/interceptor`) answer each reconcile's
//! List from what its informer cache held at that moment of the run. It calls
//! `Reconcile` in the run's order and checks the run's invariants after each
//! call, so it fails against the reconciler the scenario describes and passes
//! once that is fixed.
//!
//! Pure: a scenario in, Go text out, the same on every run. The text is
//! `gofmt`-clean as written (`tests/export.rs` holds every incident's export to
//! `gofmt -l` and to its golden file). What the run modelled and a unit test
//! cannot replay is said at the top of the file, never left out in silence.

use crate::scenario::{Scenario, ScenarioError};
use crate::sim::apiserver::{Actor, Verb};
use crate::sim::frame::Event;
use crate::sim::invariants::Rule;
use crate::sim::object::{child_kind, child_label, Kind, Object};
use crate::sim::settings::word;
use crate::sim::world::World;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A Go test file: its suggested name and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct GoTest {
    pub file_name: String,
    pub text: String,
    /// The reconciles it replays (a skeleton: none).
    pub reconciles: usize,
}

/// An object of the run as the test's seed, and how the test's caches name
/// it: seeded objects by name, created ones by the order of their creates.
struct Seed {
    api_version: String,
    kind: Kind,
    namespace: String,
    name: String,
    uid: u64,
    labels: Vec<(String, String)>,
    owner: Option<(String, Kind, String, u64)>,
    desired: Option<(&'static str, u32)>,
}

/// One reconcile of the run, as the test replays it.
struct Step {
    key: (String, String),
    at_ms: u64,
    synced: bool,
    /// Per cached kind: seeded names and created ordinals it held.
    caches: BTreeMap<&'static str, (Vec<String>, Vec<u32>)>,
}

/// What the test checks after each reconcile.
enum Check {
    /// An owner's active children at most its desired count (`children_within_desired`, `all_pods_within_replicas`).
    AtMostDesired { name: String, owner: Kind, child: Kind },
    /// At most a fixed count (`AtMost`).
    AtMost { name: String, owner: Kind, child: Kind, count: u32 },
    /// At least a count, after a reconcile that deleted (`AtLeast`).
    AtLeast { name: String, owner: Kind, child: Kind, count: u32 },
    /// Every object of a kind keeps a label (`HasLabel`).
    HasLabel { name: String, kind: Kind, label: String },
    /// Once every reconcile ran, each owner has its desired count (`Converged`).
    Converged { name: String, owner: Kind, child: Kind },
    /// No delete before the caches synced, nor of an object the cache lacked.
    Deletes { before_sync: bool, uncached: bool },
}

/// The `apiVersion` the test gives a kind. A kind the scenario declares
/// takes its group from its resource (`rayclusters.ray.io`: `ray.io`) and
/// `v1`, which the file says it assumed.
fn api_version(kind: Kind) -> String {
    match kind {
        Kind::ConfigMap | Kind::Pod => "v1".to_string(),
        Kind::ReplicaSet => "apps/v1".to_string(),
        _ => match kind.resource().split_once('.') {
            Some((_, group)) => format!("{group}/v1"),
            None => "v1".to_string(),
        },
    }
}

fn seed(o: &Object) -> Seed {
    let kind = o.kind();
    Seed {
        api_version: api_version(kind),
        kind,
        namespace: o.namespace.to_string(),
        name: o.name.to_string(),
        uid: o.uid,
        labels: o.labels.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        owner: o.controller_ref().map(|r| (api_version(r.kind), r.kind, r.name.to_string(), r.uid)),
        desired: kind.desired_field().and_then(|f| o.spec.desired().map(|d| (f, d))),
    }
}

/// `over-create` → `TestOverCreate`.
fn test_name(name: &str) -> String {
    let camel: String = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next().map(|c| c.to_ascii_uppercase().to_string() + cs.as_str()).unwrap_or_default()
        })
        .collect();
    format!("Test{camel}")
}

fn go_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

fn go_strings(v: &[String]) -> String {
    v.iter().map(|s| go_string(s)).collect::<Vec<_>>().join(", ")
}

/// Export `s` as a Go test, its reconciles replayed up to `frame` (absent:
/// the first frame that broke an invariant, else the run's end).
pub fn go_test(s: &Scenario, frame: Option<u64>) -> Result<GoTest, ScenarioError> {
    let mut world = World::new(s.world_init());
    // The cluster as the first reconcile found it, less what the controllers made.
    let mut seeds: Option<Vec<Seed>> = None;
    let cached_kinds: Vec<Kind> = s.world_init().kinds.into_iter().filter(|&k| world.controller_informer(k).is_some()).collect();
    let mut created: BTreeMap<&'static str, BTreeMap<String, u32>> = BTreeMap::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut end = None;
    let mut broke = None;
    let mut actions = 0usize;
    let mut last = 0;
    while let Some(f) = world.step() {
        // Frame 0 is the run before its first step: nothing of it is replayed.
        if let Some(want) = frame.filter(|&w| f.n > w) {
            end = Some(want);
            break;
        }
        last = f.n;
        match &f.event {
            Event::ApiRequest { entry, .. } => {
                if matches!(entry.actor, Actor::Controller(_)) && entry.verb == Verb::Create && entry.status.is_success() {
                    let of = created.entry(entry.kind.as_str()).or_default();
                    let n = of.len() as u32 + 1;
                    of.insert(entry.name.to_string(), n);
                }
                if entry.actor == Actor::Kubectl && seeds.is_some() {
                    actions += 1;
                }
            }
            Event::ReconcileStarted { key, .. } => {
                if seeds.is_none() {
                    let mut v: Vec<&Object> = world
                        .api
                        .objects()
                        .map(|o| &**o)
                        .filter(|o| !created.get(o.kind().as_str()).is_some_and(|c| c.contains_key(o.name.as_str())))
                        .collect();
                    v.sort_by_key(|o| o.creation_rv);
                    seeds = Some(v.into_iter().map(seed).collect());
                }
                let (namespace, name) = key.split_once('/').unwrap_or(("", key));
                let mut caches = BTreeMap::new();
                for &k in &cached_kinds {
                    let inf = world.controller_informer(k).expect("a cached kind has an informer");
                    let (mut seeded, mut made) = (Vec::new(), Vec::new());
                    for o in inf.list() {
                        match created.get(k.as_str()).and_then(|c| c.get(o.name.as_str())) {
                            Some(&n) => made.push(n),
                            None => seeded.push(o.name.to_string()),
                        }
                    }
                    seeded.sort();
                    made.sort_unstable();
                    caches.insert(k.as_str(), (seeded, made));
                }
                steps.push(Step {
                    key: (namespace.to_string(), name.to_string()),
                    at_ms: f.at_ms,
                    synced: world.controller_synced(),
                    caches,
                });
            }
            _ => {}
        }
        if broke.is_none() {
            broke = f.broke.first().map(|v| (v.invariant.to_string(), f.n, f.at_ms));
        }
        if Some(f.n) == frame || frame.is_none() && broke.is_some() {
            end = Some(f.n);
            break;
        }
    }
    if let (Some(want), None) = (frame, end) {
        return Err(ScenarioError::new("--frame", Some(want.to_string()), format!("the run ends at frame {last}")));
    }
    if steps.is_empty() {
        return Err(ScenarioError::new(
            "--frame",
            Some(end.unwrap_or(last).to_string()),
            "no reconcile has started by then: there is nothing to replay",
        ));
    }
    let end = end.unwrap_or(last);
    let seeds = seeds.unwrap_or_default();
    let (checks, unchecked) = checks(&world, broke.as_ref().map(|b| b.0.as_str()));
    Ok(GoTest {
        file_name: format!("{}_cachescope_test.go", s.name.replace('-', "_")),
        text: write(s, &seeds, &steps, &checks, &unchecked, broke, end, actions),
        reconciles: steps.len(),
    })
}

/// The checks the test makes: the invariant the run broke, or, where none
/// broke, each of the run's; and those it cannot make, with why.
fn checks(world: &World, broke: Option<&str>) -> (Vec<Check>, Vec<(String, &'static str)>) {
    let (mut checks, mut unchecked) = (Vec::new(), Vec::new());
    let (mut before_sync, mut uncached) = (false, false);
    let owner = world.spec.owner;
    for inv in world.invariants.list.iter().filter(|i| broke.is_none_or(|b| b == i.name)) {
        let name = inv.name.to_string();
        match (inv.rule, inv.name) {
            (Some(Rule::AtMost { count, owner }), _) => {
                checks.push(Check::AtMost { name, owner, child: child_kind(owner).unwrap_or(world.spec.child), count })
            }
            (Some(Rule::AtLeast { count, owner }), _) => {
                checks.push(Check::AtLeast { name, owner, child: child_kind(owner).unwrap_or(world.spec.child), count })
            }
            (Some(Rule::HasLabel { kind, label }), _) => checks.push(Check::HasLabel { name, kind, label: label.to_string() }),
            (Some(Rule::Converged { owner, .. }), _) => {
                checks.push(Check::Converged { name, owner, child: child_kind(owner).unwrap_or(world.spec.child) })
            }
            (None, "children_within_desired") => match owner {
                Some(o) if child_label(o).is_some() && o.desired_field().is_some() => {
                    checks.push(Check::AtMostDesired { name, owner: o, child: world.spec.child })
                }
                _ => unchecked.push((name, "this controller has no owner kind with a desired count")),
            },
            (None, "all_pods_within_replicas") => {
                if owner == Some(Kind::ReplicaSet) {
                    checks.push(Check::AtMostDesired { name, owner: Kind::ReplicaSet, child: Kind::Pod })
                }
            }
            (None, "no_delete_before_sync") => before_sync = true,
            (None, "no_delete_of_uncached") => uncached = true,
            (None, "no_orphans") => unchecked.push((name, "the test's cluster runs no garbage collector")),
            (None, _) => unchecked.push((name, "it has no Go form here yet")),
        }
    }
    if before_sync || uncached {
        checks.push(Check::Deletes { before_sync, uncached });
    }
    (checks, unchecked)
}

#[allow(clippy::too_many_arguments)]
fn write(
    s: &Scenario,
    seeds: &[Seed],
    steps: &[Step],
    checks: &[Check],
    unchecked: &[(String, &'static str)],
    broke: Option<(String, u64, u64)>,
    end: u64,
    actions: usize,
) -> String {
    let mut g = String::new();
    let kube = s
        .controller
        .kubernetes
        .map_or_else(|| "the labs' defaults, no release profile".to_string(), |k| format!("the Kubernetes {} profile", word(k)));
    let cr = s.controller.controller_runtime.map_or("0.22", |v| word(v));
    let _ = writeln!(g, "// Code generated by cachescope export go from the scenario {}", go_string(&s.name));
    let _ = writeln!(g, "// (seed {}), then yours to wire to your reconciler and edit.", s.seed);
    g.push_str("//\n");
    match &broke {
        Some((inv, n, _)) => {
            let _ = writeln!(g, "// The run broke {inv} at frame {n}, in reconcile {} of {}. This test", steps.len(), steps.len());
            g.push_str("// replays those reconciles against controller-runtime's fake client, each\n");
            g.push_str("// one's List answered from what its informer cache held at that moment of\n");
            g.push_str("// the run, and checks the invariant after each: it fails against the\n");
            g.push_str("// reconciler the scenario describes, and passes once that is fixed.\n");
        }
        None => {
            let _ = writeln!(g, "// No invariant broke up to frame {end}. This test replays the run's {}", steps.len());
            g.push_str("// reconciles against controller-runtime's fake client, each one's List\n");
            g.push_str("// answered from what its informer cache held at that moment of the run,\n");
            g.push_str("// and checks the run's invariants after each: a guard against regressions.\n");
        }
    }
    g.push_str("//\n");
    let _ = writeln!(g, "// Written for sigs.k8s.io/controller-runtime v{cr} (pkg/client/fake,");
    let _ = writeln!(g, "// pkg/client/interceptor); the run followed {kube}.");
    g.push_str("//\n");
    g.push_str("// What cachescope modelled that this test cannot:\n");
    g.push_str("//   - the watch itself: here a cache is a filter over the fake client's\n");
    g.push_str("//     objects, fixed for each reconcile; an event arriving during one, and\n");
    g.push_str("//     the events' timing, are not replayed;\n");
    g.push_str("//   - an object present but old (a version behind): Gets are answered by the\n");
    g.push_str("//     fake client as it holds them now, as upstream's StaleRead cannot either;\n");
    g.push_str("//   - informer event handlers (ControllerExpectations' observations, the\n");
    g.push_str("//     consistency store's): the fake client has no informers;\n");
    if actions > 0 {
        let _ = writeln!(g, "//   - the scenario's own {actions} kubectl request(s) before frame {end};");
    }
    if s.injects_faults() {
        g.push_str("//   - injected failures and lost events (fail_next, drops): not replayed;\n");
    }
    for (name, why) in unchecked {
        let _ = writeln!(g, "//   - the invariant {name}: {why};");
    }
    if seeds.iter().any(|o| matches!(o.kind, Kind::Declared(_) | Kind::Ensemble)) {
        g.push_str("//   - your CRDs' versions: each kind of your own is given its resource's\n");
        g.push_str("//     group and v1 here.\n");
    }
    g.push_str("//\n");
    g.push_str("// Wire it by defining, in this package:\n");
    g.push_str("//\n");
    g.push_str("//\tfunc newReconciler(c client.Client) reconcile.Reconciler\n");
    g.push_str("//\tfunc testScheme() *runtime.Scheme // with your kinds registered\n");
    g.push_str("package controllers\n\n");
    g.push_str(IMPORTS);
    g.push_str(HELPERS);
    let _ = writeln!(g, "func {}(t *testing.T) {{", test_name(&s.name));
    g.push_str(if seeds.is_empty() { "\tobjects := []client.Object{" } else { "\tobjects := []client.Object{\n" });
    for o in seeds {
        let labels = if o.labels.is_empty() {
            "nil".to_string()
        } else {
            let pairs: Vec<String> = o.labels.iter().map(|(k, v)| format!("{}: {}", go_string(k), go_string(v))).collect();
            format!("map[string]string{{{}}}", pairs.join(", "))
        };
        let owner = match &o.owner {
            Some((av, k, name, uid)) => format!(
                "&metav1.OwnerReference{{APIVersion: {}, Kind: {}, Name: {}, UID: {}, Controller: &yes}}",
                go_string(av),
                go_string(k.as_str()),
                go_string(name),
                go_string(&format!("uid-{uid}"))
            ),
            None => "nil".to_string(),
        };
        let spec = match o.desired {
            Some((field, n)) => format!("map[string]any{{{}: int64({n})}}", go_string(field)),
            None => "nil".to_string(),
        };
        let _ = writeln!(
            g,
            "\t\tobject({}, {}, {}, {}, {}, {labels}, {owner}, {spec}),",
            go_string(&o.api_version),
            go_string(o.kind.as_str()),
            go_string(&o.namespace),
            go_string(&o.name),
            go_string(&format!("uid-{}", o.uid))
        );
    }
    g.push_str(if seeds.is_empty() { "}\n" } else { "\t}\n" });
    g.push_str("\t// Each reconcile of the run: its request, whether its caches had synced,\n");
    g.push_str("\t// and what each cached kind held when it ran.\n");
    g.push_str("\tsteps := []step{\n");
    for st in steps {
        let caches: Vec<String> = st
            .caches
            .iter()
            .map(|(k, (seeded, made))| {
                let mut parts = Vec::new();
                if !seeded.is_empty() {
                    parts.push(format!("seeded: []string{{{}}}", go_strings(seeded)));
                }
                if !made.is_empty() {
                    parts.push(format!("created: []int{{{}}}", made.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")));
                }
                format!("{}: {{{}}}", go_string(k), parts.join(", "))
            })
            .collect();
        let _ = writeln!(g, "\t\t// at {} ms", st.at_ms);
        let _ = writeln!(
            g,
            "\t\t{{key: types.NamespacedName{{Namespace: {}, Name: {}}}, synced: {}, caches: map[string]cached{{{}}}}},",
            go_string(&st.key.0),
            go_string(&st.key.1),
            st.synced,
            caches.join(", ")
        );
    }
    g.push_str("\t}\n");
    g.push_str("\trun := replay(t, steps, objects)\n");
    g.push_str("\trun.each(func(at int) {\n");
    let mut at_end = Vec::new();
    for c in checks {
        match c {
            Check::AtMostDesired { name, owner, child } => {
                let field = owner.desired_field().unwrap_or("replicas");
                let _ = writeln!(
                    g,
                    "\t\trun.atMost(at, {}, {}, {}, {}, {}, {}, func(o *unstructured.Unstructured) int64 {{ return desired(o, {}) }})",
                    go_string(name),
                    go_string(&api_version(*owner)),
                    go_string(owner.as_str()),
                    go_string(&api_version(*child)),
                    go_string(child.as_str()),
                    go_string(child_label(*owner).unwrap_or("")),
                    go_string(field)
                );
            }
            Check::AtMost { name, owner, child, count } => {
                let _ = writeln!(
                    g,
                    "\t\trun.atMost(at, {}, {}, {}, {}, {}, {}, func(*unstructured.Unstructured) int64 {{ return {count} }})",
                    go_string(name),
                    go_string(&api_version(*owner)),
                    go_string(owner.as_str()),
                    go_string(&api_version(*child)),
                    go_string(child.as_str()),
                    go_string(child_label(*owner).unwrap_or(""))
                );
            }
            Check::AtLeast { name, owner, child, count } => {
                let _ = writeln!(
                    g,
                    "\t\trun.atLeastAfterDeletes(at, {}, {}, {}, {}, {}, {}, {count})",
                    go_string(name),
                    go_string(&api_version(*owner)),
                    go_string(owner.as_str()),
                    go_string(&api_version(*child)),
                    go_string(child.as_str()),
                    go_string(child_label(*owner).unwrap_or(""))
                );
            }
            Check::HasLabel { name, kind, label } => {
                let _ = writeln!(
                    g,
                    "\t\trun.hasLabel(at, {}, {}, {}, {})",
                    go_string(name),
                    go_string(&api_version(*kind)),
                    go_string(kind.as_str()),
                    go_string(label)
                );
            }
            Check::Converged { name, owner, child } => at_end.push(format!(
                "\trun.converged({}, {}, {}, {}, {}, {}, {})\n",
                go_string(name),
                go_string(&api_version(*owner)),
                go_string(owner.as_str()),
                go_string(&api_version(*child)),
                go_string(child.as_str()),
                go_string(child_label(*owner).unwrap_or("")),
                go_string(owner.desired_field().unwrap_or("replicas"))
            )),
            Check::Deletes { before_sync, uncached } => {
                let _ = writeln!(g, "\t\trun.deletes(at, {before_sync}, {uncached})");
            }
        }
    }
    g.push_str("\t})\n");
    for line in at_end {
        g.push_str(&line);
    }
    g.push_str("}\n");
    g
}

const IMPORTS: &str = r#"import (
	"context"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

"#;

/// The test's machinery, the same in every export: the fake client, the
/// caches as filters over it, and the checks.
const HELPERS: &str = r#"var yes = true

// cached is what an informer cache held of one kind: objects the run started
// with, by name, and objects the reconciler created, by the order of their
// creates (1: the first).
type cached struct {
	seeded  []string
	created []int
}

func (c cached) has(name string, nth int) bool {
	for _, n := range c.created {
		if nth > 0 && n == nth {
			return true
		}
	}
	for _, s := range c.seeded {
		if nth == 0 && s == name {
			return true
		}
	}
	return false
}

// step is one reconcile of the run.
type step struct {
	key    types.NamespacedName
	synced bool
	caches map[string]cached
}

// replayed is the fake cluster and what the reconciler did to it.
type replayed struct {
	t       *testing.T
	ctx     context.Context
	base    client.WithWatch
	steps   []step
	at      int
	created map[string]map[string]int
	deleted []string
}

func object(apiVersion, kind, namespace, name, uid string, labels map[string]string, owner *metav1.OwnerReference, spec map[string]any) client.Object {
	o := &unstructured.Unstructured{Object: map[string]any{}}
	o.SetAPIVersion(apiVersion)
	o.SetKind(kind)
	o.SetNamespace(namespace)
	o.SetName(name)
	o.SetUID(types.UID(uid))
	o.SetLabels(labels)
	if owner != nil {
		o.SetOwnerReferences([]metav1.OwnerReference{*owner})
	}
	if spec != nil {
		o.Object["spec"] = spec
	}
	return o
}

func kindOf(c client.Client, obj runtime.Object) string {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(gvk.Kind, "List")
}

// replay builds the fake client: a create is numbered, a List of a cached
// kind keeps only what that reconcile's cache held, a delete is recorded.
func replay(t *testing.T, steps []step, objects []client.Object) *replayed {
	r := &replayed{t: t, ctx: context.Background(), steps: steps, created: map[string]map[string]int{}}
	r.base = fake.NewClientBuilder().WithScheme(testScheme()).WithObjects(objects...).WithInterceptorFuncs(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := c.Create(ctx, obj, opts...); err != nil {
				return err
			}
			kind := kindOf(c, obj)
			if r.created[kind] == nil {
				r.created[kind] = map[string]int{}
			}
			r.created[kind][obj.GetName()] = len(r.created[kind]) + 1
			return nil
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if err := c.List(ctx, list, opts...); err != nil {
				return err
			}
			kind := kindOf(c, list)
			held, ok := r.steps[r.at].caches[kind]
			if !ok {
				return nil
			}
			items, err := meta.ExtractList(list)
			if err != nil {
				return err
			}
			var kept []runtime.Object
			for _, item := range items {
				o, ok := item.(client.Object)
				if ok && held.has(o.GetName(), r.created[kind][o.GetName()]) {
					kept = append(kept, item)
				}
			}
			return meta.SetList(list, kept)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			kind := kindOf(c, obj)
			held := r.steps[r.at].caches[kind]
			if !r.steps[r.at].synced || !held.has(obj.GetName(), r.created[kind][obj.GetName()]) {
				r.deleted = append(r.deleted, fmt.Sprintf("%d %s %s uncached", r.at, kind, obj.GetName()))
			} else {
				r.deleted = append(r.deleted, fmt.Sprintf("%d %s %s", r.at, kind, obj.GetName()))
			}
			return c.Delete(ctx, obj, opts...)
		},
	}).Build()
	return r
}

// each calls Reconcile for each step in the run's order, then check.
func (r *replayed) each(check func(at int)) {
	rec := newReconciler(r.base)
	for r.at = range r.steps {
		if _, err := rec.Reconcile(r.ctx, reconcile.Request{NamespacedName: r.steps[r.at].key}); err != nil {
			r.t.Logf("reconcile %d of %s: %v", r.at+1, r.steps[r.at].key, err)
		}
		check(r.at)
	}
}

func (r *replayed) list(apiVersion, kind, namespace string) []unstructured.Unstructured {
	list := &unstructured.UnstructuredList{}
	list.SetAPIVersion(apiVersion)
	list.SetKind(kind + "List")
	var opts []client.ListOption
	if namespace != "" {
		opts = append(opts, client.InNamespace(namespace))
	}
	if err := r.base.List(r.ctx, list, opts...); err != nil {
		r.t.Fatalf("list %s: %v", kind, err)
	}
	return list.Items
}

// children counts owner's active children: controlled by it, or, with no
// controller, carrying its name in label.
func (r *replayed) children(owner *unstructured.Unstructured, apiVersion, kind, label string) int64 {
	var n int64
	for _, o := range r.list(apiVersion, kind, owner.GetNamespace()) {
		if o.GetDeletionTimestamp() != nil {
			continue
		}
		ref := metav1.GetControllerOf(&o)
		if ref != nil && ref.UID == owner.GetUID() || ref == nil && label != "" && o.GetLabels()[label] == owner.GetName() {
			n++
		}
	}
	return n
}

func desired(o *unstructured.Unstructured, field string) int64 {
	n, _, _ := unstructured.NestedInt64(o.Object, "spec", field)
	return n
}

func (r *replayed) atMost(at int, name, ownerAPIVersion, ownerKind, apiVersion, kind, label string, bound func(*unstructured.Unstructured) int64) {
	for _, o := range r.list(ownerAPIVersion, ownerKind, "") {
		if got, want := r.children(&o, apiVersion, kind, label), bound(&o); got > want {
			r.t.Errorf("%s: after reconcile %d, %s %s has %d %ss, more than %d", name, at+1, ownerKind, o.GetName(), got, kind, want)
		}
	}
}

func (r *replayed) atLeastAfterDeletes(at int, name, ownerAPIVersion, ownerKind, apiVersion, kind, label string, count int64) {
	deleted := false
	for _, d := range r.deleted {
		deleted = deleted || strings.HasPrefix(d, fmt.Sprintf("%d ", at))
	}
	if !deleted {
		return
	}
	for _, o := range r.list(ownerAPIVersion, ownerKind, "") {
		if got := r.children(&o, apiVersion, kind, label); got < count {
			r.t.Errorf("%s: after reconcile %d deleted, %s %s has %d %ss, fewer than %d", name, at+1, ownerKind, o.GetName(), got, kind, count)
		}
	}
}

func (r *replayed) hasLabel(at int, name, apiVersion, kind, label string) {
	for _, o := range r.list(apiVersion, kind, "") {
		if _, ok := o.GetLabels()[label]; !ok {
			r.t.Errorf("%s: after reconcile %d, %s %s lacks the label %s", name, at+1, kind, o.GetName(), label)
		}
	}
}

func (r *replayed) converged(name, ownerAPIVersion, ownerKind, apiVersion, kind, label, field string) {
	for _, o := range r.list(ownerAPIVersion, ownerKind, "") {
		if got, want := r.children(&o, apiVersion, kind, label), desired(&o, field); got != want {
			r.t.Errorf("%s: after the last reconcile, %s %s has %d %ss, not %d", name, ownerKind, o.GetName(), got, kind, want)
		}
	}
}

func (r *replayed) deletes(at int, beforeSync, uncached bool) {
	for _, d := range r.deleted {
		if !strings.HasPrefix(d, fmt.Sprintf("%d ", at)) || !strings.HasSuffix(d, " uncached") {
			continue
		}
		if beforeSync && !r.steps[at].synced {
			r.t.Errorf("no_delete_before_sync: reconcile %d deleted %s before its caches synced", at+1, strings.TrimSuffix(d, " uncached"))
		} else if uncached {
			r.t.Errorf("no_delete_of_uncached: reconcile %d deleted %s, which its cache did not hold", at+1, strings.TrimSuffix(d, " uncached"))
		}
	}
}

"#;

/// How the skeleton counts a kind's objects in its test: a typed
/// client-go call where `kubernetes.Interface` has the kind, else a line
/// for the author to write (the framework's invariants take a clientset).
fn typed_list(kind: Kind, namespace: &str) -> Option<String> {
    match kind {
        Kind::ConfigMap => Some(format!("c.CoreV1().ConfigMaps({})", go_string(namespace))),
        Kind::Pod => Some(format!("c.CoreV1().Pods({})", go_string(namespace))),
        Kind::ReplicaSet => Some(format!("c.AppsV1().ReplicaSets({})", go_string(namespace))),
        _ if kind.as_str() == "Node" => Some("c.CoreV1().Nodes()".to_string()),
        _ => None,
    }
}

/// `rayclusters.ray.io` → (`rayclusters`, `ray.io`); `configmaps` → (`configmaps`, ``).
fn resource_and_group(kind: Kind) -> (String, String) {
    match kind.resource().split_once('.') {
        Some((r, g)) => (r.to_string(), g.to_string()),
        None => (kind.resource().to_string(), String::new()),
    }
}

/// Export `s` as a skeleton for upstream's controller robustness framework
/// (`k8s.io/kubernetes/test/utils/robustness`, kubernetes #139657): the
/// controller's `ControllerProfile`, its safety invariant as `CountAtMost`
/// or `ObjectSatisfies`, the places to wire marked, and what cachescope's
/// own run of the same matrix cells said, cell by cell.
pub fn robustness(s: &Scenario) -> Result<GoTest, ScenarioError> {
    use crate::matrix::{self, Cell, Row, RowPlan};
    let mut world = World::new(s.world_init());
    let (owner, child) = (world.spec.owner, world.spec.child);
    let Some(owner) = owner else {
        return Err(ScenarioError::new(
            "controller",
            Some(
                s.controller
                    .recipe
                    .as_ref()
                    .map_or_else(|| "the pruner".to_string(), |r| r.name.as_deref().unwrap_or("your controller").to_string()),
            ),
            "the robustness framework's ControllerProfile needs a root object: this controller has no owner kind",
        ));
    };
    // The root: the first owner the run makes.
    let mut root: Option<Seed> = None;
    while let Some(_f) = world.step() {
        if let Some(o) = world.api.objects_of(owner).min_by_key(|o| o.creation_rv) {
            root = Some(seed(o));
            break;
        }
    }
    let Some(root) = root else {
        return Err(ScenarioError::new("objects", Some(owner.to_string()), format!("no {owner} is ever made: there is no root object")));
    };
    let sites = matrix::sites(s);
    let plan = RowPlan { row: Row::AsWritten, settings: Vec::new(), scenario: Ok(s.clone()) };
    let cells = matrix::run_row(&plan, &Cell::ALL, matrix::WORST_BUDGET).cells;
    let (root_resource, root_group) = resource_and_group(owner);
    let (child_resource, child_group) = resource_and_group(child);
    let label = child_label(owner).unwrap_or("");
    let desired = root.desired.map_or(0, |(_, n)| n);
    let world_end = {
        let mut w = World::new(s.world_init());
        while w.step().is_some() {}
        w
    };
    let (checks, mut unchecked) = checks(&world_end, None);

    let mut g = String::new();
    let _ = writeln!(g, "// Code generated by cachescope export robustness from the scenario {}", go_string(&s.name));
    let _ = writeln!(g, "// (seed {}): a skeleton for upstream's controller robustness framework", s.seed);
    g.push_str("// (k8s.io/kubernetes/test/utils/robustness, kubernetes #139657), for a\n");
    g.push_str("// controller that framework can reach. Wire the places marked \"wire:\";\n");
    g.push_str("// the suite then runs StandardChaosMatrix's six cells against it.\n");
    g.push_str("//\n");
    g.push_str("// cachescope ran the same cells over this scenario, as written:\n");
    for c in &cells {
        let facts = crate::narrate::matrix::CellFacts {
            cell: c.cell,
            row: Row::AsWritten,
            verdict: c.verdict,
            broke: c.broke.as_ref(),
            liveness: c.liveness.as_ref(),
            faults: &c.faults,
            searched: c.searched.as_ref(),
        };
        let own = if c.cell.upstream() { "" } else { " (cachescope's own cell: this framework cannot express it)" };
        let _ = writeln!(g, "//   - {}: {}{own}", c.cell.name(), crate::narrate::matrix::cell_words(&facts));
    }
    g.push_str("//\n");
    g.push_str("// What this skeleton does not express:\n");
    g.push_str("//   - an object present but old: the framework's StaleRead serves an\n");
    g.push_str("//     absent object or a short list, not an old version;\n");
    for c in &checks {
        if let Check::AtLeast { name, .. } = c {
            unchecked.push((
                name.clone(),
                "it holds only after a controller delete, and the framework's invariants read state, not who changed it",
            ));
        }
        if let Check::Deletes { .. } = c {
            unchecked.push((
                "no_delete_before_sync / no_delete_of_uncached".to_string(),
                "a delete's reason is not state an invariant can read",
            ));
        }
    }
    for (name, why) in &unchecked {
        let _ = writeln!(g, "//   - the invariant {name}: {why};");
    }
    let _ = writeln!(g, "//   - the run's own actions: the trigger below makes the root, as its first apply did.");
    g.push_str("package controllers\n\n");
    let head = std::mem::take(&mut g);
    let _ = writeln!(g, "func {}RobustnessMatrix(t *testing.T) {{", test_name(&s.name));
    g.push_str("\tprofile := robustness.ControllerProfile{\n");
    let controller = s
        .controller
        .recipe
        .as_ref()
        .and_then(|r| r.name.as_deref())
        .map_or_else(|| format!("{}-controller", owner.as_str().to_lowercase()), str::to_string);
    let fields = [
        ("Name", go_string(&controller)),
        (
            "Root",
            format!(
                "robustness.ResourceRef{{Group: {}, Resource: {}, Namespace: {}, Name: {}}}",
                go_string(&root_group),
                go_string(&root_resource),
                go_string(&root.namespace),
                go_string(&root.name)
            ),
        ),
        ("WritesRoot", sites.owner_updates.to_string()),
        ("WritesRootStatus", (sites.owner_updates && owner == Kind::ReplicaSet).to_string()),
        (
            "Child",
            format!(
                "&robustness.ChildResource{{Group: {}, Resource: {}, CacheName: {}, CreatedByController: {}}}",
                go_string(&child_group),
                go_string(&child_resource),
                go_string(&child_resource),
                sites.child_creates
            ),
        ),
        ("UsesExpectations", sites.expectations.to_string()),
    ];
    let width = fields.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 1;
    for (k, v) in fields {
        let _ = writeln!(g, "\t\t{:<width$} {v},", format!("{k}:"));
    }
    g.push_str("\t}\n");
    g.push_str("\tsuite := robustness.NewTestSuite(t, profile)\n");
    g.push_str("\tsuite.SetControllerSetup(func(fixture *robustness.RobustnessTestFixture) {\n");
    let _ = writeln!(g, "\t\tt.Fatal(\"wire: start {controller} here, on fixture.ClientSet() and the fixture's wrapped informers and queue (fixture.WrapIndexer, fixture.WrapQueue)\")");
    g.push_str("\t})\n");
    g.push_str("\tsuite.SetScenarioAction(func(ctx context.Context, fixture *robustness.RobustnessTestFixture) error {\n");
    let want = root.desired.map_or(String::new(), |(f, n)| format!(" with {f} {n}"));
    let _ = writeln!(
        g,
        "\t\treturn fmt.Errorf(\"wire: create the {owner} {}/{}{want}, as the run's first apply did\")",
        root.namespace, root.name
    );
    g.push_str("\t})\n");
    // The children, counted as the invariants count them: active, carrying the root's name.
    g.push_str("\t// The root's active children, by the label that carries its name.\n");
    g.push_str("\tcountChildren := func(ctx context.Context, c clientset.Interface) (int, error) {\n");
    match typed_list(child, &root.namespace) {
        Some(list) => {
            let _ = writeln!(
                g,
                "\t\tlist, err := {list}.List(ctx, metav1.ListOptions{{LabelSelector: {}}})",
                go_string(&format!("{label}={}", root.name))
            );
            g.push_str("\t\tif err != nil {\n\t\t\treturn 0, err\n\t\t}\n");
            g.push_str("\t\tn := 0\n\t\tfor _, o := range list.Items {\n\t\t\tif o.DeletionTimestamp == nil {\n\t\t\t\tn++\n\t\t\t}\n\t\t}\n\t\treturn n, nil\n");
        }
        None => {
            let _ = writeln!(
                g,
                "\t\treturn 0, fmt.Errorf(\"wire: count the active {child}s labelled {label}={} with your typed client\")",
                root.name
            );
        }
    }
    g.push_str("\t}\n");
    let mut wrote = false;
    for c in &checks {
        match c {
            Check::AtMostDesired { name, .. } => {
                let _ = writeln!(
                    g,
                    "\tsuite.AddSafetyInvariant({}, robustness.CountAtMost({desired}, {}, countChildren))",
                    go_string(name),
                    go_string(child.as_str())
                );
                wrote = true;
            }
            Check::AtMost { name, count, .. } => {
                let _ = writeln!(
                    g,
                    "\tsuite.AddSafetyInvariant({}, robustness.CountAtMost({count}, {}, countChildren))",
                    go_string(name),
                    go_string(child.as_str())
                );
                wrote = true;
            }
            Check::Converged { name, .. } => {
                let _ = writeln!(
                    g,
                    "\tsuite.AddLivenessInvariant({}, robustness.ObjectSatisfies(countChildren, func(n int) error {{",
                    go_string(name)
                );
                let _ = writeln!(
                    g,
                    "\t\tif n != {desired} {{\n\t\t\treturn fmt.Errorf(\"%d {}s, want {desired}\", n)\n\t\t}}\n\t\treturn nil\n\t}}))",
                    child
                );
                wrote = true;
            }
            Check::HasLabel { name, kind, label } => {
                let list = typed_list(*kind, &root.namespace);
                let _ = writeln!(g, "\tsuite.AddSafetyInvariant({}, robustness.ObjectSatisfies(func(ctx context.Context, c clientset.Interface) ([]metav1.ObjectMeta, error) {{", go_string(name));
                match list {
                    Some(list) => {
                        let _ = writeln!(g, "\t\tlist, err := {list}.List(ctx, metav1.ListOptions{{}})");
                        g.push_str("\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\tvar metas []metav1.ObjectMeta\n\t\tfor _, o := range list.Items {\n\t\t\tmetas = append(metas, o.ObjectMeta)\n\t\t}\n\t\treturn metas, nil\n");
                    }
                    None => {
                        let _ = writeln!(g, "\t\treturn nil, fmt.Errorf(\"wire: list the {kind}s with your typed client\")");
                    }
                }
                g.push_str("\t}, func(metas []metav1.ObjectMeta) error {\n\t\tfor _, m := range metas {\n");
                let _ = writeln!(g, "\t\t\tif _, ok := m.Labels[{}]; !ok {{\n\t\t\t\treturn fmt.Errorf(\"{kind} %s lacks the label {label}\", m.Name)\n\t\t\t}}", go_string(label));
                g.push_str("\t\t}\n\t\treturn nil\n\t}))\n");
                wrote = true;
            }
            Check::AtLeast { .. } | Check::Deletes { .. } => {}
        }
    }
    if !wrote {
        let _ = writeln!(
            g,
            "\tsuite.AddSafetyInvariant(\"children_within_desired\", robustness.CountAtMost({desired}, {}, countChildren))",
            go_string(child.as_str())
        );
    }
    g.push_str("\tsuite.Run()\n}\n");
    // Only what the body uses: Go refuses an unused import.
    let metav1 = if g.contains("metav1.") { "\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n" } else { "" };
    let imports = format!("import (\n\t\"context\"\n\t\"fmt\"\n\t\"testing\"\n\n{metav1}\tclientset \"k8s.io/client-go/kubernetes\"\n\t\"k8s.io/kubernetes/test/utils/robustness\"\n)\n\n");
    Ok(GoTest { file_name: format!("{}_robustness_test.go", s.name.replace('-', "_")), text: format!("{head}{imports}{g}"), reconciles: 0 })
}
