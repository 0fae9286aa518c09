//! The controller's API client: client-go's client-side rate limiter, which
//! every request the controller sends (its informers' LISTs too, where they
//! share its client: `ControllerSpec::informers_share_client`) waits on.

/// client-go's client-side rate limiter: `flowcontrol.NewTokenBucketRateLimiter(qps, burst)`,
/// which every request of a rest client waits on (`Wait`, a reservation of
/// golang.org/x/time/rate). The bucket starts full; tokens are counted in
/// thousandths, so a refill of `qps` tokens a second is `qps` a millisecond.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenBucket {
    qps: u32,
    burst: u32,
    /// Thousandths of a token; negative once requests have reserved the future.
    milli_tokens: i64,
    last_ms: u64,
}

impl TokenBucket {
    pub fn new(qps: u32, burst: u32, now_ms: u64) -> Self {
        TokenBucket { qps, burst, milli_tokens: i64::from(burst) * 1000, last_ms: now_ms }
    }

    /// Take a token at `now_ms`: how long the request must wait for it (0 when
    /// the bucket has one, always 0 with no limit).
    pub(crate) fn reserve(&mut self, now_ms: u64) -> u64 {
        if self.qps == 0 {
            return 0;
        }
        let elapsed = now_ms.saturating_sub(self.last_ms) as i64;
        self.last_ms = self.last_ms.max(now_ms);
        self.milli_tokens = (self.milli_tokens + elapsed * i64::from(self.qps)).min(i64::from(self.burst) * 1000);
        self.milli_tokens -= 1000;
        if self.milli_tokens >= 0 {
            0
        } else {
            let owed = -self.milli_tokens as u64;
            owed.div_ceil(u64::from(self.qps))
        }
    }
}

/// client-go logs a throttled request once it has waited this long
/// (`longThrottleLatency`, `rest/request.go`).
pub const LONG_THROTTLE_LATENCY_MS: u64 = 50;
