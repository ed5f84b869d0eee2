//! Repository policies: Maven's conversion of settings/POM policies into Resolver policies and
//! Resolver's merge of the policies of several repositories behind one mirror.
//!
//! - [`from_settings`] is `ArtifactDescriptorUtils.toRepositoryPolicy` — an absent element is
//!   enabled/`daily`/`warn`; a missing `updatePolicy` is `daily`, a missing `checksumPolicy` `warn`.
//! - [`effective_checksum_policy`] is `DefaultChecksumPolicyProvider.getEffectiveChecksumPolicy`
//!   (the less strict wins; unknown strings count as `warn`).
//! - [`effective_update_policy`] is `DefaultUpdatePolicyAnalyzer.getEffectiveUpdatePolicy`
//!   (the more frequent wins; ties go to the second argument).
//! - [`merge`] is `DefaultRemoteRepositoryManager.merge(session, p1, p2, globalPolicy=false)`.
//!
//! Session overrides (`-U`, `-C`, ...) applied at download time are not handled here.

use super::model::Policy;
use crate::settings::RepositoryPolicy;

/// Maven's conversion of a settings (or POM) `<releases>`/`<snapshots>` element.
pub fn from_settings(policy: Option<&RepositoryPolicy>) -> Policy {
    let mut out = Policy::default();
    if let Some(p) = policy {
        out.enabled = p.enabled;
        if let Some(u) = &p.update_policy {
            out.update_policy = u.clone();
        }
        if let Some(c) = &p.checksum_policy {
            out.checksum_policy = c.clone();
        }
    }
    out
}

fn checksum_ordinal(policy: &str) -> u8 {
    match policy {
        "fail" => 2,
        "ignore" => 0,
        _ => 1,
    }
}

/// The less strict of two checksum policies (`ignore` < `warn` < `fail`); equal strings are
/// returned as they are, anything else unknown counts as (and yields) `warn`.
pub fn effective_checksum_policy(policy1: &str, policy2: &str) -> String {
    if policy1 == policy2 {
        return policy1.to_string();
    }
    let (o1, o2) = (checksum_ordinal(policy1), checksum_ordinal(policy2));
    let pick = if o2 < o1 {
        (o2, policy2)
    } else {
        (o1, policy1)
    };
    if pick.0 == 1 {
        "warn".to_string()
    } else {
        pick.1.to_string()
    }
}

/// Java `Integer.valueOf(String)` for ASCII input: optional sign, decimal digits, no overflow.
fn java_parse_int(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i32>().ok()
}

/// Minutes between checks for an update policy: `always` 0, `daily` 1440, `interval:N` N
/// (1440 when N is not an integer), anything else (`never`, unknown, empty) `i32::MAX`.
pub fn update_policy_minutes(policy: &str) -> i32 {
    match policy {
        "daily" => 1440,
        "always" => 0,
        _ if policy.starts_with("interval") => {
            // Java: policy.substring("interval".length() + 1), any RuntimeException → 1440.
            let rest = policy.get("interval".len()..).unwrap_or("");
            let mut chars = rest.chars();
            match chars.next() {
                Some(_) => java_parse_int(chars.as_str()).unwrap_or(1440),
                None => 1440,
            }
        }
        _ => i32::MAX,
    }
}

/// The more frequent of two update policies; on a tie the second argument wins.
pub fn effective_update_policy(policy1: &str, policy2: &str) -> String {
    if update_policy_minutes(policy1) < update_policy_minutes(policy2) {
        policy1.to_string()
    } else {
        policy2.to_string()
    }
}

/// `DefaultRemoteRepositoryManager.merge(.., globalPolicy = false)`: a disabled side yields the
/// other side unchanged; two enabled sides give an enabled policy with the more frequent update
/// policy and the less strict checksum policy.
pub fn merge(policy1: &Policy, policy2: &Policy) -> Policy {
    if !policy2.enabled {
        return policy1.clone();
    }
    if !policy1.enabled {
        return policy2.clone();
    }
    Policy {
        enabled: true,
        update_policy: effective_update_policy(&policy1.update_policy, &policy2.update_policy),
        checksum_policy: effective_checksum_policy(
            &policy1.checksum_policy,
            &policy2.checksum_policy,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(enabled: bool, update: &str, checksum: &str) -> Policy {
        Policy {
            enabled,
            update_policy: update.into(),
            checksum_policy: checksum.into(),
        }
    }

    #[test]
    fn checksum_table() {
        let cases = [
            ("fail", "fail", "fail"),
            ("fail", "warn", "warn"),
            ("warn", "fail", "warn"),
            ("fail", "ignore", "ignore"),
            ("ignore", "fail", "ignore"),
            ("warn", "ignore", "ignore"),
            ("bogus", "bogus", "bogus"),
            ("bogus", "fail", "warn"),
            ("ignore", "bogus", "ignore"),
            ("", "warn", "warn"),
            ("FAIL", "fail", "warn"),
        ];
        for (a, b, want) in cases {
            assert_eq!(effective_checksum_policy(a, b), want, "{a} vs {b}");
        }
    }

    #[test]
    fn update_minutes_table() {
        let cases = [
            ("always", 0),
            ("daily", 1440),
            ("never", i32::MAX),
            ("interval:60", 60),
            ("interval:+5", 5),
            ("interval:-5", -5),
            ("interval:", 1440),
            ("interval", 1440),
            ("interval:x", 1440),
            ("interval:99999999999", 1440),
            ("intervalX30", 30),
            ("Daily", i32::MAX),
            ("", i32::MAX),
        ];
        for (policy, want) in cases {
            assert_eq!(update_policy_minutes(policy), want, "{policy:?}");
        }
    }

    #[test]
    fn update_table_ties_go_to_second() {
        let cases = [
            ("always", "daily", "always"),
            ("daily", "always", "always"),
            ("daily", "interval:1440", "interval:1440"),
            ("interval:1440", "daily", "daily"),
            ("never", "bogus", "bogus"),
            ("bogus", "never", "never"),
            ("interval:10", "interval:5", "interval:5"),
            ("never", "daily", "daily"),
        ];
        for (a, b, want) in cases {
            assert_eq!(effective_update_policy(a, b), want, "{a} vs {b}");
        }
    }

    #[test]
    fn merge_table() {
        let on = p(true, "daily", "fail");
        let off = p(false, "always", "ignore");
        assert_eq!(merge(&on, &off), on);
        assert_eq!(merge(&off, &on), on);
        assert_eq!(merge(&off, &p(false, "never", "fail")), off);
        assert_eq!(
            merge(&on, &p(true, "interval:5", "warn")),
            p(true, "interval:5", "warn")
        );
    }

    #[test]
    fn settings_conversion() {
        let rp = RepositoryPolicy {
            enabled: true,
            update_policy: None,
            checksum_policy: Some("fail".into()),
        };
        assert_eq!(from_settings(Some(&rp)), p(true, "daily", "fail"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_from_settings() {
        use crate::repository::policy::from_settings;
        use crate::settings::RepositoryPolicy;
        let p = from_settings(Some(&RepositoryPolicy {
            enabled: false,
            update_policy: Some("always".into()),
            checksum_policy: None,
        }));
        assert_eq!(
            (
                p.enabled,
                p.update_policy.as_str(),
                p.checksum_policy.as_str()
            ),
            (false, "always", "warn")
        );
        assert_eq!(from_settings(None), crate::repository::Policy::default());
    }

    #[test]
    fn doc_effective_checksum_policy() {
        use crate::repository::policy::effective_checksum_policy;
        assert_eq!(effective_checksum_policy("fail", "ignore"), "ignore");
        assert_eq!(effective_checksum_policy("fail", "bogus"), "warn");
    }

    #[test]
    fn doc_effective_update_policy() {
        use crate::repository::policy::effective_update_policy;
        assert_eq!(
            effective_update_policy("daily", "interval:60"),
            "interval:60"
        );
        assert_eq!(effective_update_policy("never", "bogus"), "bogus");
    }
}
