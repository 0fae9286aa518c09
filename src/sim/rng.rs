//! The world's one random number generator.
//!
//! PCG-32 (via `rand_pcg`) gives the same stream on every platform for the same
//! seed, which is what makes a trace reproducible between the native runner and
//! the browser. Nothing in the core draws randomness from anywhere else.

use rand_core::{Rng as _, SeedableRng};
use rand_pcg::Pcg32;

/// A seeded generator with the two draws the simulation needs.
#[derive(Debug, Clone)]
pub struct Rng(Pcg32);

/// `Pcg32` does not implement `Hash`: its next draw, on a copy, stands for its
/// state (two different states drawing the same 64 bits is a 2^-64 chance,
/// the same as any fingerprint collision).
impl std::hash::Hash for Rng {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.0.clone().next_u64());
    }
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(Pcg32::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n` (0 when `n` is 0). Lemire's multiply-shift:
    /// the bias is below n / 2^64, far under anything a scenario can observe.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let x = self.0.next_u64();
        ((u128::from(x) * u128::from(n)) >> 64) as u64
    }

    /// A uniform integer in `0..=max`.
    pub fn up_to(&mut self, max: u64) -> u64 {
        if max == u64::MAX {
            return self.0.next_u64();
        }
        self.below(max + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..32).map(|_| a.below(1000)).collect();
        let ys: Vec<u64> = (0..32).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
        let mut c = Rng::new(8);
        let zs: Vec<u64> = (0..32).map(|_| c.below(1000)).collect();
        assert_ne!(xs, zs);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut seen = [false; 27];
        for _ in 0..2000 {
            let v = r.below(27) as usize;
            assert!(v < 27);
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s), "every value of 0..27 drawn in 2000 tries");
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn its_hash_is_its_state() {
        use std::hash::BuildHasher;
        let h = |r: &Rng| std::hash::BuildHasherDefault::<crate::sim::hash::Fnv64>::default().hash_one(r);
        let mut a = Rng::new(7);
        assert_eq!(h(&a), h(&Rng::new(7)));
        assert_ne!(h(&a), h(&Rng::new(8)));
        let before = h(&a);
        a.below(10);
        assert_ne!(h(&a), before, "a draw moves it");
    }
}
