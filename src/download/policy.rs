//! Update policies (spec §8.6): `always`, `daily` (since local midnight, not "24 h ago"),
//! `interval:N` minutes, `never`, and the [`Clock`] they are evaluated against, injectable so
//! tests can move time.
//!
//! Policies decide when cached metadata is re-fetched and when a cached "not found"
//! (`*.lastUpdated`, `resolver-status.properties`) is retried; an artifact present locally is never
//! re-checked.

use chrono::{Local, TimeZone};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The time source of the downloader.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Now.
    fn now(&self) -> SystemTime;
    /// The last local midnight at or before `t`.
    fn local_midnight(&self, t: SystemTime) -> SystemTime;
}

/// The system clock and time zone.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
    fn local_midnight(&self, t: SystemTime) -> SystemTime {
        let dt: chrono::DateTime<Local> = t.into();
        let midnight = dt
            .date_naive()
            .and_hms_opt(0, 0, 0)
            .and_then(|n| Local.from_local_datetime(&n).earliest());
        match midnight {
            Some(m) => m.into(),
            // A zone without a 00:00 that day (DST at midnight): fall back to 24 h ago.
            None => t - Duration::from_secs(86_400),
        }
    }
}

/// A clock that stands still until moved, in a fixed UTC offset (for tests and replays).
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<SystemTime>,
    utc_offset_secs: i64,
}

impl ManualClock {
    /// A clock at `now`, whose local time is UTC + `utc_offset_secs`.
    pub fn new(now: SystemTime, utc_offset_secs: i64) -> Self {
        ManualClock {
            now: Mutex::new(now),
            utc_offset_secs,
        }
    }
    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        if let Ok(mut n) = self.now.lock() {
            *n += by;
        }
    }
    /// Sets the clock.
    pub fn set(&self, to: SystemTime) {
        if let Ok(mut n) = self.now.lock() {
            *n = to;
        }
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        self.now.lock().map(|n| *n).unwrap_or(UNIX_EPOCH)
    }
    fn local_midnight(&self, t: SystemTime) -> SystemTime {
        let secs = t
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let local = secs + self.utc_offset_secs;
        let midnight_local = local - local.rem_euclid(86_400);
        let utc = midnight_local - self.utc_offset_secs;
        UNIX_EPOCH + Duration::from_secs(utc.max(0) as u64)
    }
}

/// A parsed `updatePolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdatePolicy {
    /// Check every time.
    Always,
    /// Check when the last check was before local midnight today.
    Daily,
    /// Check when the last check is older than this many minutes.
    Interval(u64),
    /// Never check again.
    Never,
}

impl UpdatePolicy {
    /// Parses like Resolver's `DefaultUpdatePolicyAnalyzer`: `interval` + any separator + minutes;
    /// an unparsable interval counts as `interval:1440`, an unknown value as `never` (both with a
    /// warning returned as the second value).
    pub fn parse(s: &str) -> (UpdatePolicy, Option<String>) {
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "always" => (UpdatePolicy::Always, None),
            "daily" => (UpdatePolicy::Daily, None),
            "never" => (UpdatePolicy::Never, None),
            p if p.starts_with("interval") => {
                match p
                    .get("interval".len() + 1..)
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    Some(n) => (UpdatePolicy::Interval(n), None),
                    None => (
                        UpdatePolicy::Interval(1440),
                        Some(format!(
                            "Non-parseable repository update policy '{s}', assuming 'interval:1440'"
                        )),
                    ),
                }
            }
            _ => (
                UpdatePolicy::Never,
                Some(format!(
                    "Unknown repository update policy '{s}', assuming 'never'"
                )),
            ),
        }
    }

    /// Whether a check is due, given when the last one happened (`None` = never checked).
    pub fn is_update_required(&self, last_checked: Option<SystemTime>, clock: &dyn Clock) -> bool {
        let Some(last) = last_checked else {
            return true;
        };
        let now = clock.now();
        match self {
            UpdatePolicy::Always => true,
            UpdatePolicy::Daily => last < clock.local_midnight(now),
            UpdatePolicy::Interval(min) => {
                last < now
                    .checked_sub(Duration::from_secs(min * 60))
                    .unwrap_or(UNIX_EPOCH)
            }
            UpdatePolicy::Never => false,
        }
    }
}

/// Milliseconds since the epoch (the value Resolver stores in tracking files).
pub fn to_millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Inverse of [`to_millis`].
pub fn from_millis(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 86_400;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn parse_table() {
        let cases = [
            ("always", UpdatePolicy::Always, false),
            ("ALWAYS", UpdatePolicy::Always, false),
            ("daily", UpdatePolicy::Daily, false),
            ("never", UpdatePolicy::Never, false),
            ("interval:5", UpdatePolicy::Interval(5), false),
            ("interval-5", UpdatePolicy::Interval(5), false),
            ("interval:x", UpdatePolicy::Interval(1440), true),
            ("interval", UpdatePolicy::Interval(1440), true),
            ("", UpdatePolicy::Never, true),
            ("hourly", UpdatePolicy::Never, true),
        ];
        for (s, want, warns) in cases {
            let (p, w) = UpdatePolicy::parse(s);
            assert_eq!(p, want, "{s}");
            assert_eq!(w.is_some(), warns, "{s}");
        }
    }

    #[test]
    fn daily_means_since_local_midnight() {
        // 10:00 local (UTC+2) on day 10; last check 23:30 local the day before = 1 h ago... no: 10.5 h ago.
        let clock = ManualClock::new(at(10 * DAY + 8 * 3600), 2 * 3600);
        let before_midnight = at(10 * DAY - 2 * 3600 - 1800); // 23:30 local previous day
        let after_midnight = at(10 * DAY - 2 * 3600 + 60); // 00:01 local today
        assert!(UpdatePolicy::Daily.is_update_required(Some(before_midnight), &clock));
        assert!(!UpdatePolicy::Daily.is_update_required(Some(after_midnight), &clock));
        assert!(UpdatePolicy::Daily.is_update_required(None, &clock));
    }

    #[test]
    fn interval_always_never() {
        let clock = ManualClock::new(at(100 * DAY), 0);
        let ten_min_ago = at(100 * DAY - 600);
        assert!(UpdatePolicy::Interval(5).is_update_required(Some(ten_min_ago), &clock));
        assert!(!UpdatePolicy::Interval(15).is_update_required(Some(ten_min_ago), &clock));
        assert!(UpdatePolicy::Always.is_update_required(Some(clock.now()), &clock));
        assert!(!UpdatePolicy::Never.is_update_required(Some(at(0)), &clock));
        assert!(UpdatePolicy::Never.is_update_required(None, &clock));
    }

    #[test]
    fn manual_clock_midnight_negative_offset() {
        // 01:00 UTC on day 5 is 20:00 local on day 4 at UTC-5: midnight = day 4 05:00 UTC.
        let c = ManualClock::new(at(5 * DAY + 3600), -5 * 3600);
        assert_eq!(c.local_midnight(c.now()), at(4 * DAY + 5 * 3600));
    }

    #[test]
    fn system_clock_midnight_is_within_a_day() {
        let now = SystemTime::now();
        let m = SystemClock.local_midnight(now);
        assert!(m <= now && now.duration_since(m).unwrap() <= Duration::from_secs(DAY + 3600));
        assert_eq!(from_millis(to_millis(at(5))), at(5));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_manual_clock() {
        use crate::download::policy::{Clock, ManualClock};
        use std::time::{Duration, UNIX_EPOCH};
        let c = ManualClock::new(UNIX_EPOCH + Duration::from_secs(86_400 + 3_600), 0);
        assert_eq!(
            c.local_midnight(c.now()),
            UNIX_EPOCH + Duration::from_secs(86_400)
        );
        c.advance(Duration::from_secs(60));
        assert_eq!(c.now(), UNIX_EPOCH + Duration::from_secs(86_400 + 3_660));
    }

    #[test]
    fn doc_parse() {
        use crate::download::policy::UpdatePolicy;
        assert_eq!(
            UpdatePolicy::parse("interval:30").0,
            UpdatePolicy::Interval(30)
        );
        assert_eq!(UpdatePolicy::parse("daily"), (UpdatePolicy::Daily, None));
        assert!(UpdatePolicy::parse("weekly").1.is_some());
    }
}
