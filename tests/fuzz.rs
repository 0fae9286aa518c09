//! A short `make fuzz` in every `make test`: each harness, from its committed
//! seed corpus, finds no panic, no hang and no accepted input over the budget.

use cachescope::fuzz::{run, HARNESSES};
use std::path::Path;

#[test]
fn every_harness_survives_a_few_thousand_mutated_inputs() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for harness in HARNESSES {
        let o = run(harness, 3_000, 7, &corpus);
        assert_eq!(o.failure, None, "{harness}");
        assert_eq!(o.inputs, 3_000, "{harness}");
        // The corpus breeds: mutated inputs are accepted too, not only the seeds.
        assert!(o.accepted > 20, "{harness}: only {} accepted", o.accepted);
    }
}
