//! Retry rules: which failures are worth another attempt and how long to wait before it
//! (bounded exponential backoff). Pure functions; the loop that uses them is in
//! [`crate::transport::client`].
//!
//! Resolver retries I/O errors 3 times (`aether.connector.http.retryHandler.count`) and backs off on
//! 429/503 (spec §8.9); we retry timeouts, connection errors, resets and 5xx/429 the same bounded way.

use std::time::Duration;

/// How often and how patiently to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (Resolver's default count is 3).
    pub retries: u32,
    /// Wait before the first retry; doubles each time.
    pub base: Duration,
    /// Upper bound of one wait.
    pub max: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: 3,
            base: Duration::from_millis(200),
            max: Duration::from_secs(3),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (1-based): `base * 2^(attempt-1)`, capped at `max`.
    ///
    /// ```
    /// use m2resolver::transport::RetryPolicy;
    /// use std::time::Duration;
    /// let p = RetryPolicy { retries: 5, base: Duration::from_millis(100), max: Duration::from_millis(300) };
    /// assert_eq!(p.delay(1), Duration::from_millis(100));
    /// assert_eq!(p.delay(2), Duration::from_millis(200));
    /// assert_eq!(p.delay(3), Duration::from_millis(300));
    /// ```
    pub fn delay(&self, attempt: u32) -> Duration {
        let factor = 1u32
            .checked_shl(attempt.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.max)
    }

    /// `Retry-After` seconds, if the server sent a small one, win over the computed delay (bounded
    /// by `max`).
    pub fn delay_with_hint(&self, attempt: u32, retry_after: Option<u64>) -> Duration {
        match retry_after {
            Some(s) => Duration::from_secs(s).min(self.max),
            None => self.delay(attempt),
        }
    }
}

/// The wait a `Retry-After` header asks for, in seconds: delay-seconds (`120`) or an HTTP-date
/// (`Fri, 31 Dec 1999 23:59:59 GMT`, counted from `now`; a date in the past is no wait).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use m2resolver::transport::parse_retry_after;
/// let now = UNIX_EPOCH + Duration::from_secs(946_684_790); // 1999-12-31T23:59:50Z
/// assert_eq!(parse_retry_after(" 7 ", now), Some(7));
/// assert_eq!(parse_retry_after("Fri, 31 Dec 1999 23:59:59 GMT", now), Some(9));
/// assert_eq!(parse_retry_after("Fri, 31 Dec 1999 23:00:00 GMT", now), Some(0));
/// assert_eq!(parse_retry_after("soon", now), None);
/// ```
pub fn parse_retry_after(value: &str, now: std::time::SystemTime) -> Option<u64> {
    let value = value.trim();
    if let Ok(s) = value.parse::<u64>() {
        return Some(s);
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let now = chrono::DateTime::<chrono::Utc>::from(now);
    Some(u64::try_from((at.timestamp() - now.timestamp()).max(0)).unwrap_or(0))
}

/// True for statuses that a later attempt may fix: 408, 429 and 5xx except 501/505.
pub fn status_is_retryable(status: u16) -> bool {
    matches!(status, 408 | 429) || ((500..600).contains(&status) && !matches!(status, 501 | 505))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retryable_statuses() {
        for (s, want) in [
            (200, false),
            (404, false),
            (401, false),
            (407, false),
            (408, true),
            (429, true),
            (500, true),
            (501, false),
            (502, true),
            (503, true),
            (504, true),
            (505, false),
        ] {
            assert_eq!(status_is_retryable(s), want, "{s}");
        }
    }

    #[test]
    fn delay_is_bounded() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay(1), Duration::from_millis(200));
        assert_eq!(p.delay(40), Duration::from_secs(3));
        assert_eq!(p.delay_with_hint(1, Some(100)), Duration::from_secs(3));
        assert_eq!(p.delay_with_hint(1, Some(1)), Duration::from_secs(1));
    }
}
