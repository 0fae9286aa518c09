//! How a reflector paces itself after its watch ends: client-go's
//! `Reflector.Run` is `wait.BackoffUntil(ListAndWatch, backoffManager, true)`
//! with `wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)`
//! (`tools/cache/reflector.go`). A watch that ends with `410 Expired` makes
//! `ListAndWatch` return; the next one, a LIST, waits the manager's next
//! backoff: 800 ms, doubling to 30 s, back to 800 ms once two minutes pass
//! without one, each stretched by up to 100 % jitter.

use super::rng::Rng;

/// `wait.exponentialBackoffManagerImpl`, in simulated milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExponentialBackoff {
    initial_ms: u64,
    cap_ms: u64,
    reset_ms: u64,
    factor: u64,
    jitter: Jitter,
    /// `Backoff.Duration`: the next step before jitter.
    duration_ms: u64,
    /// `Backoff.Steps == 0`: the cap was reached; every step is the cap.
    capped: bool,
    last_start_ms: u64,
}

/// A backoff's jitter factor, as `wait.Jitter` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Jitter {
    /// 0.0: every step is its duration.
    None,
    /// `Jitter(d, 1.0)`: `d` plus up to `d` more, drawn from the run's RNG.
    Full,
}

/// The reflector's: `NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)`.
pub(crate) const REFLECTOR_INITIAL_BACKOFF_MS: u64 = 800;
pub(crate) const REFLECTOR_MAX_BACKOFF_MS: u64 = 30_000;
pub(crate) const REFLECTOR_BACKOFF_RESET_MS: u64 = 120_000;

impl ExponentialBackoff {
    /// `NewExponentialBackoffManager(initial, max, reset, factor, jitter)`,
    /// created at `now_ms` (its clock's `Now()`).
    pub fn new(initial_ms: u64, cap_ms: u64, reset_ms: u64, factor: u64, jitter: Jitter, now_ms: u64) -> Self {
        ExponentialBackoff { initial_ms, cap_ms, reset_ms, factor, jitter, duration_ms: initial_ms, capped: false, last_start_ms: now_ms }
    }

    /// The reflector's manager, as `NewReflectorWithOptions` builds it.
    pub fn reflector(now_ms: u64) -> Self {
        Self::new(REFLECTOR_INITIAL_BACKOFF_MS, REFLECTOR_MAX_BACKOFF_MS, REFLECTOR_BACKOFF_RESET_MS, 2, Jitter::Full, now_ms)
    }

    /// `getNextBackoff`: reset if the last backoff began more than the reset
    /// duration ago, then `Backoff.Step()`.
    pub fn next(&mut self, now_ms: u64, rng: &mut Rng) -> u64 {
        if now_ms.saturating_sub(self.last_start_ms) > self.reset_ms {
            self.duration_ms = self.initial_ms;
            self.capped = false;
        }
        self.last_start_ms = now_ms;
        let duration = self.duration_ms;
        if !self.capped {
            self.duration_ms = self.duration_ms.saturating_mul(self.factor);
            if self.cap_ms > 0 && self.duration_ms > self.cap_ms {
                self.duration_ms = self.cap_ms;
                self.capped = true;
            }
        }
        if self.jitter == Jitter::Full {
            duration + rng.below(duration)
        } else {
            duration
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestExponentialBackoffManagerGetNextBackoff`
    /// (`apimachinery/pkg/util/wait/wait_test.go`): 1, 2, 4, 8, then the cap;
    /// after the reset duration, the initial backoff again.
    #[test]
    #[allow(non_snake_case)]
    fn TestExponentialBackoffManagerGetNextBackoff() {
        let mut rng = Rng::new(1);
        let mut now = 0;
        let mut backoff = ExponentialBackoff::new(1, 10, 10, 2, Jitter::None, now);
        let durations: Vec<u64> = (0..7).map(|_| backoff.next(now, &mut rng)).collect();
        assert_eq!(durations, [1, 2, 4, 8, 10, 10, 10]);
        now += 11;
        assert_eq!(backoff.next(now, &mut rng), 1, "after reset, backoff should be 1");
    }

    /// The reflector's own numbers: 800 ms doubling to 30 s, each stretched by
    /// at most 100 %, back to 800 ms after two quiet minutes.
    #[test]
    fn the_reflector_backs_off_from_800_ms_to_30_s() {
        let mut rng = Rng::new(7);
        let mut b = ExponentialBackoff::reflector(0);
        let bases = [800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000];
        for (i, base) in bases.iter().enumerate() {
            let got = b.next(i as u64 * 1_000, &mut rng);
            assert!((*base..2 * base).contains(&got), "step {i}: {got} not in {base}..{}", 2 * base);
        }
        let got = b.next(7_000 + 120_001, &mut rng);
        assert!((800..1_600).contains(&got), "reset: {got}");
    }
}
