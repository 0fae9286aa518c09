//! Benchmark figures: placeholder until implemented below.
pub fn run(out: &mut dyn std::io::Write) { let _ = out; }
