//! The Reconcile panel: the controller's pseudo-code, the step the current
//! frame lit with the values it read, and where the other workers wait.

use crate::narrate::panels::step_value;
use crate::sim::apiserver::ControllerKind;
use crate::sim::controllers::{self, Note, Step};
use crate::sim::frame::{Event, Frame};
use crate::sim::world::World;

/// One line of pseudo-code as the Reconcile panel draws it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodeLine {
    pub step: Step,
    pub text: std::borrow::Cow<'static, str>,
    /// The current frame is this step of a reconcile: the line is lit.
    pub lit: bool,
    /// The step does not run with this run's settings (a guard it does not
    /// keep, a write it does not make): drawn off, and said so.
    pub off: bool,
    /// What the step just read or did, on the lit line: `len(children) = 0 · the cache has 0, the cluster 4`.
    pub value: Option<String>,
    /// Busy workers paused on this line (waiting for a response or a timer).
    pub waiting: Vec<u32>,
}

/// The Reconcile panel: the controller's pseudo-code, the line the current
/// frame acted on lit with the values it read, and where other workers wait.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReconcileView {
    pub lines: Vec<CodeLine>,
    /// The worker and reconcile number the lit line belongs to.
    pub lit_by: Option<(u32, u64)>,
    /// Whose code it is, when controllers run beside the recipe
    /// (`controller.alongside`): the panel follows the frame's controller.
    pub controller: Option<&'static str>,
}

/// The step of a reconcile the frame is, with the worker and reconcile number, if it is one.
pub fn frame_step(kind: ControllerKind, frame: &Frame) -> Option<(Step, Option<(u32, u64)>)> {
    match &frame.event {
        Event::ReconcileStarted { worker, n, .. } => Some((kind.spec().first_step, Some((*worker, *n)))),
        Event::ReconcileNote { worker, n, step, .. } => Some((*step, Some((*worker, *n)))),
        Event::ApiRequest { step: Some(step), .. } => Some((*step, None)),
        Event::ReconcileFinished { worker, n, .. } => Some((kind.spec().last_step, Some((*worker, *n)))),
        Event::ControllerExited { .. } => Some((Step::Exit, None)),
        _ => None,
    }
}

pub fn reconcile(world: &World, frame: Option<&Frame>) -> ReconcileView {
    let (controller, process) = world.process(frame.and_then(|f| f.beside));
    let kind = controller.kind;
    let current = frame.and_then(|f| frame_step(kind, f));
    let value = frame.and_then(|f| step_value(kind, f));
    let lines = controllers::pseudo_code(controller)
        .into_iter()
        .map(|(step, text)| {
            let lit = current.is_some_and(|(s, _)| s == step);
            CodeLine {
                step,
                text,
                lit,
                off: !controllers::step_applies(controller, step),
                value: if lit { value.clone() } else { None },
                waiting: process
                    .workers
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.busy.as_ref().is_some_and(|b| b.step == step))
                    .map(|(i, _)| i as u32)
                    .collect(),
            }
        })
        .collect();
    let name = (!world.beside.is_empty()).then(|| controller.spec().name());
    ReconcileView { lines, lit_by: current.and_then(|(_, by)| by), controller: name }
}

/// Is this frame's note one of the stale reads the learner should notice?
pub(crate) fn is_stale_read(frame: &Frame) -> bool {
    matches!(&frame.event, Event::ReconcileNote { note: Note::Counted { unseen, .. }, .. } if *unseen > 0)
        || matches!(&frame.event, Event::ReconcileNote { note: Note::CacheMiss { .. }, .. })
}

#[cfg(test)]
mod tests {
    use super::super::testing::at_reconcile_2;
    use super::*;

    #[test]
    fn reconcile_view_lights_the_stale_read_with_what_it_read() {
        let s = at_reconcile_2("generate");
        let r = reconcile(s.world(), s.last_frame());
        let lit: Vec<&CodeLine> = r.lines.iter().filter(|l| l.lit).collect();
        assert_eq!(lit.len(), 1);
        assert_eq!(lit[0].step, Step::ListChildren);
        assert!(lit[0].text.contains("r.List(ctx, &children"), "controller-runtime's client: {}", lit[0].text);
        assert_eq!(lit[0].value.as_deref(), Some("len(children) = 0 · the cache has 0, the cluster 4"));
        assert_eq!(r.lit_by, Some((0, 2)));
        assert_eq!(lit[0].waiting, vec![0], "the worker is paused on the line it read");
        // This operator keeps neither expectations nor the consistency store, and deletes no surplus: those lines are off.
        let off: Vec<Step> = r.lines.iter().filter(|l| l.off).map(|l| l.step).collect();
        assert_eq!(off, vec![Step::EnsureReady, Step::CheckExpectations, Step::Delete]);
    }
}
