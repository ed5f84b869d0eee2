//! Mirror selection: Maven Resolver's `DefaultMirrorSelector` (identical in 1.6.3, 1.9 and 2.x)
//! and the mirror repository that replaces a mirrored one (spec §4.1, §4.2).
//!
//! Rules reproduced exactly:
//! - pass 1: the first mirror (settings order) whose whole `mirrorOf` equals the repository id
//!   and whose `mirrorOfLayouts` accept the repository layout; pass 2: the first mirror whose
//!   `mirrorOf` pattern matches (and layouts accept);
//! - `mirrorOf` is split on `,` WITHOUT trimming (Java `String.split`, trailing empty tokens
//!   dropped); the scan stops at the first exact id (match) or `!id` (no match); `*`,
//!   `external:*` and `external:http:*` only set a tentative match a later `!id` can cancel;
//! - `external:*`: only the exact hosts `localhost` and `127.0.0.1` and the `file` protocol are
//!   local; `external:http:*`: protocol `http`, `dav`, `dav:http` or `dav+http` and not local;
//! - `mirrorOfLayouts` uses the same scan (empty or `*` accepts all).
//!
//! Besides the decision, [`MirrorSelector::select`] says which token matched and
//! [`MirrorSelector::rejections`] why every other mirror did not apply, for `m2r explain`.
//! This module does not attach proxies or credentials (see [`super::proxy`], [`super::auth`]).

use super::model::RemoteRepository;
use super::url::{self, RepositoryUrl};
use crate::settings::{Mirror, Origin};
use std::fmt;

/// One settings mirror as the selector keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorDef {
    /// Mirror id (becomes the repository id, hence the server id for credentials).
    pub id: String,
    /// Mirror URL (`""` when the settings had none), parsed once for every repository it
    /// mirrors.
    pub url: RepositoryUrl,
    /// Layout of the mirror repository (`""` keeps the mirrored repository's).
    pub layout: String,
    /// Blocked mirror: downloads through it fail.
    pub blocked: bool,
    /// `mirrorOf` as written; `None` never matches.
    pub mirror_of: Option<String>,
    /// `mirrorOfLayouts` as written.
    pub mirror_of_layouts: String,
    /// Where the mirror was written.
    pub origin: Origin,
}

impl From<&Mirror> for MirrorDef {
    fn from(m: &Mirror) -> Self {
        MirrorDef {
            id: m.id.clone(),
            url: RepositoryUrl::new(m.url.clone().unwrap_or_default()),
            layout: m.layout.clone(),
            blocked: m.blocked,
            mirror_of: m.mirror_of.clone(),
            mirror_of_layouts: m.mirror_of_layouts.clone(),
            origin: m.origin.clone(),
        }
    }
}

/// Why a mirror's `mirrorOf` matched a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatchReason {
    /// Pass 1: the whole `mirrorOf` equals the repository id.
    ExactId,
    /// Pass 2: the whole `mirrorOf` is `*`.
    Wildcard,
    /// Pass 2: a token of the list equals the repository id (the scan stopped there).
    IdToken,
    /// Pass 2: a `*` token (no later `!id` cancelled it).
    WildcardToken,
    /// Pass 2: an `external:*` token and the repository is not local.
    External,
    /// Pass 2: an `external:http:*` token and the repository is plain HTTP and not local.
    ExternalHttp,
}

impl fmt::Display for MatchReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MatchReason::ExactId => "mirrorOf is exactly the repository id",
            MatchReason::Wildcard => "mirrorOf is `*`",
            MatchReason::IdToken => "a mirrorOf token is the repository id",
            MatchReason::WildcardToken => "a `*` token",
            MatchReason::External => {
                "`external:*` and the repository is not on localhost/127.0.0.1/file:"
            }
            MatchReason::ExternalHttp => {
                "`external:http:*` and the repository uses plain HTTP on a non-local host"
            }
        })
    }
}

/// The mirror chosen for a repository and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorMatch {
    /// Index of the mirror in the selector's list (settings order after de-duplication).
    pub index: usize,
    /// The mirror id.
    pub mirror_id: String,
    /// The rule that matched.
    pub reason: MatchReason,
    /// The `mirrorOf` token that decided (the whole value for pass 1 and `*`).
    pub token: String,
}

/// Why one mirror does not serve a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkipReason {
    /// The mirror has no `mirrorOf`.
    NoMirrorOf,
    /// A `!id` token excluded the repository (the scan stopped there).
    Excluded {
        /// The token, e.g. `!central`.
        token: String,
    },
    /// No token matched; `hints` explain near misses (untrimmed spaces, local hosts, https).
    NoTokenMatched {
        /// Human-readable hints, possibly empty.
        hints: Vec<String>,
    },
    /// `mirrorOf` matched but `mirrorOfLayouts` does not accept the repository layout.
    LayoutNotAccepted {
        /// The repository layout.
        layout: String,
        /// The mirror's `mirrorOfLayouts`.
        mirror_of_layouts: String,
    },
    /// It matches by pattern, but another mirror names the repository id exactly (pass 1 wins).
    OutrankedByExactId {
        /// The mirror that won.
        winner: String,
    },
    /// It matches, but an earlier mirror of the same pass matched first.
    ShadowedBy {
        /// The mirror that won.
        winner: String,
    },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::NoMirrorOf => f.write_str("it has no <mirrorOf>"),
            SkipReason::Excluded { token } => write!(f, "token `{token}` excludes it"),
            SkipReason::NoTokenMatched { hints } => {
                f.write_str("no mirrorOf token matches")?;
                for h in hints {
                    write!(f, "; {h}")?;
                }
                Ok(())
            }
            SkipReason::LayoutNotAccepted {
                layout,
                mirror_of_layouts,
            } => write!(
                f,
                "layout `{layout}` is not accepted by mirrorOfLayouts `{mirror_of_layouts}`"
            ),
            SkipReason::OutrankedByExactId { winner } => write!(
                f,
                "it matches by pattern, but mirror `{winner}` names the repository id exactly and exact ids win"
            ),
            SkipReason::ShadowedBy { winner } => {
                write!(f, "it matches, but mirror `{winner}` comes first")
            }
        }
    }
}

/// A mirror that was not chosen, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorRejection {
    /// Index of the mirror in the selector's list.
    pub index: usize,
    /// The mirror id.
    pub mirror_id: String,
    /// Why it does not apply.
    pub reason: SkipReason,
}

/// Java `String.split(",")`: trailing empty strings removed, but `""` gives `[""]`.
fn java_split_comma(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return vec![""];
    }
    let mut parts: Vec<&str> = s.split(',').collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// What the pattern scan needs to know about a repository, computed once per repository.
struct RepoFacts<'a> {
    id: &'a str,
    url: &'a str,
    external: std::cell::OnceCell<(bool, bool)>,
}

impl<'a> RepoFacts<'a> {
    fn new(repo: &'a RemoteRepository) -> Self {
        RepoFacts {
            id: &repo.id,
            url: repo.url.as_written(),
            external: std::cell::OnceCell::new(),
        }
    }

    fn externals(&self) -> (bool, bool) {
        *self
            .external
            .get_or_init(|| (is_external(self.url), is_external_http(self.url)))
    }
}

/// A mirror's `mirrorOf` and `mirrorOfLayouts`, split once.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CompiledMirror {
    mirror_of: Option<(String, Vec<String>)>,
    layouts: (String, Vec<String>),
}

impl CompiledMirror {
    fn new(def: &MirrorDef) -> Self {
        CompiledMirror {
            mirror_of: def.mirror_of.as_ref().map(|p| (p.clone(), split_owned(p))),
            layouts: (
                def.mirror_of_layouts.clone(),
                split_owned(&def.mirror_of_layouts),
            ),
        }
    }
}

fn is_local_host(host: &str) -> bool {
    host == "localhost" || host == "127.0.0.1"
}

/// `DefaultMirrorSelector.isExternalRepo`.
pub fn is_external(repo_url: &str) -> bool {
    let p = url::parse(repo_url);
    !(is_local_host(p.host) || p.protocol.eq_ignore_ascii_case("file"))
}

/// `DefaultMirrorSelector.isExternalHttpRepo`.
pub fn is_external_http(repo_url: &str) -> bool {
    let p = url::parse(repo_url);
    ["http", "dav", "dav:http", "dav+http"]
        .iter()
        .any(|x| p.protocol.eq_ignore_ascii_case(x))
        && !is_local_host(p.host)
}

/// Result of the pattern scan: matched with which token/reason, or not and why.
enum PatternOutcome {
    Match(MatchReason, String),
    Excluded(String),
    NoMatch,
}

fn scan_pattern(repo: &RepoFacts<'_>, pattern: &str, tokens: &[String]) -> PatternOutcome {
    if pattern == "*" {
        return PatternOutcome::Match(MatchReason::Wildcard, pattern.to_string());
    }
    if pattern == repo.id {
        return PatternOutcome::Match(MatchReason::ExactId, pattern.to_string());
    }
    let mut result: Option<(MatchReason, &str)> = None;
    for tok in tokens {
        let tok = tok.as_str();
        if tok.len() > 1 && tok.starts_with('!') {
            if &tok[1..] == repo.id {
                return PatternOutcome::Excluded(tok.to_string());
            }
        } else if tok == repo.id {
            return PatternOutcome::Match(MatchReason::IdToken, tok.to_string());
        } else if result.is_some() {
            // a wildcard already matched: only an exact id or `!id` can still change the answer
        } else if tok == "external:*" && repo.externals().0 {
            result = Some((MatchReason::External, tok));
        } else if tok == "external:http:*" && repo.externals().1 {
            result = Some((MatchReason::ExternalHttp, tok));
        } else if tok == "*" {
            result = Some((MatchReason::WildcardToken, tok));
        }
    }
    match result {
        Some((reason, tok)) => PatternOutcome::Match(reason, tok.to_string()),
        None => PatternOutcome::NoMatch,
    }
}

fn split_owned(s: &str) -> Vec<String> {
    java_split_comma(s)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `DefaultMirrorSelector.matchPattern`: does `pattern` (a `mirrorOf` value) match `repo`?
///
/// ```
/// use m2resolver::repository::{mirror::match_pattern, RemoteRepository};
/// let central = RemoteRepository::new("central", "https://repo.maven.apache.org/maven2");
/// assert!(match_pattern(&central, "*"));
/// assert!(!match_pattern(&central, "*,!central"));
/// assert!(match_pattern(&central, "*, !central")); // ` !central` is not an exclusion
/// ```
#[cfg(test)]
pub fn match_pattern(repo: &RemoteRepository, pattern: &str) -> bool {
    matches!(
        scan_pattern(&RepoFacts::new(repo), pattern, &split_owned(pattern)),
        PatternOutcome::Match(..)
    )
}

/// `DefaultMirrorSelector.matchesType`: does `mirror_types` (`mirrorOfLayouts`) accept `repo_type`?
#[cfg(test)]
pub fn matches_type(repo_type: &str, mirror_types: &str) -> bool {
    matches_type_tokens(repo_type, mirror_types, &split_owned(mirror_types))
}

fn matches_type_tokens(repo_type: &str, mirror_types: &str, tokens: &[String]) -> bool {
    if mirror_types.is_empty() || mirror_types == "*" || mirror_types == repo_type {
        return true;
    }
    let mut result = false;
    for tok in tokens {
        if tok.len() > 1 && tok.starts_with('!') {
            if &tok[1..] == repo_type {
                return false;
            }
        } else if tok == repo_type {
            return true;
        } else if tok == "*" {
            result = true;
        }
    }
    result
}

/// Hints for a `mirrorOf` that matched nothing: near misses users actually make.
fn near_miss_hints(repo: &RemoteRepository, pattern: &str) -> Vec<String> {
    let mut hints = Vec::new();
    for tok in java_split_comma(pattern) {
        let trimmed = tok.trim();
        if trimmed != tok {
            let meaning =
                if trimmed == "*" || trimmed == repo.id || trimmed.starts_with("external:") {
                    Some("match")
                } else if trimmed.strip_prefix('!') == Some(repo.id.as_str()) {
                    Some("exclude")
                } else {
                    None
                };
            if let Some(m) = meaning {
                hints.push(format!(
                    "token `{tok}` has spaces (Maven does not trim mirrorOf), so it does not {m} `{}`",
                    repo.id
                ));
            }
        } else if tok.eq_ignore_ascii_case(&repo.id) && tok != repo.id {
            hints.push(format!(
                "token `{tok}` differs from `{}` only in case; ids are case-sensitive",
                repo.id
            ));
        } else if tok == "external:*" {
            hints.push(format!(
                "`external:*` does not apply: `{}` is local (localhost, 127.0.0.1 or file:)",
                repo.url
            ));
        } else if tok == "external:http:*" {
            hints.push(format!(
                "`external:http:*` does not apply: `{}` is not plain HTTP on a non-local host",
                repo.url
            ));
        }
    }
    hints
}

/// The mirror selector, filled from settings mirrors in order (first mirror per id wins, as
/// Maven's request population de-duplicates).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MirrorSelector {
    mirrors: Vec<MirrorDef>,
    compiled: Vec<CompiledMirror>,
}

impl MirrorSelector {
    /// A selector over settings mirrors (document order; later mirrors with an id already seen
    /// are dropped, as `MavenExecutionRequest.addMirror` does).
    pub fn new(mirrors: &[Mirror]) -> Self {
        Self::from_defs(mirrors.iter().map(MirrorDef::from).collect())
    }

    /// A selector over already converted mirror definitions (same de-duplication).
    pub fn from_defs(defs: Vec<MirrorDef>) -> Self {
        let mut mirrors: Vec<MirrorDef> = Vec::with_capacity(defs.len());
        let mut seen = std::collections::HashSet::new();
        for d in defs {
            if seen.insert(d.id.clone()) {
                mirrors.push(d);
            }
        }
        let compiled = mirrors.iter().map(CompiledMirror::new).collect();
        MirrorSelector { mirrors, compiled }
    }

    fn layouts_accept(&self, index: usize, layout: &str) -> bool {
        let (raw, tokens) = &self.compiled[index].layouts;
        matches_type_tokens(layout, raw, tokens)
    }

    /// The mirrors in selection order.
    pub fn mirrors(&self) -> &[MirrorDef] {
        &self.mirrors
    }

    /// Maven's `findMirror`: the mirror for `repo` and why, or `None`.
    pub fn select(&self, repo: &RemoteRepository) -> Option<MirrorMatch> {
        for (index, m) in self.mirrors.iter().enumerate() {
            if m.mirror_of.as_deref() == Some(repo.id.as_str())
                && self.layouts_accept(index, &repo.layout)
            {
                return Some(MirrorMatch {
                    index,
                    mirror_id: m.id.clone(),
                    reason: MatchReason::ExactId,
                    token: repo.id.clone(),
                });
            }
        }
        let facts = RepoFacts::new(repo);
        for (index, c) in self.compiled.iter().enumerate() {
            let Some((pattern, tokens)) = &c.mirror_of else {
                continue;
            };
            if let PatternOutcome::Match(reason, token) = scan_pattern(&facts, pattern, tokens) {
                if self.layouts_accept(index, &repo.layout) {
                    return Some(MirrorMatch {
                        index,
                        mirror_id: self.mirrors[index].id.clone(),
                        reason,
                        token,
                    });
                }
            }
        }
        None
    }

    /// Why each mirror other than the chosen one does not serve `repo` (settings order).
    pub fn rejections(&self, repo: &RemoteRepository) -> Vec<MirrorRejection> {
        let chosen = self.select(repo);
        let facts = RepoFacts::new(repo);
        let mut out = Vec::new();
        for (index, m) in self.mirrors.iter().enumerate() {
            if chosen.as_ref().is_some_and(|c| c.index == index) {
                continue;
            }
            let reason = match &self.compiled[index].mirror_of {
                None => SkipReason::NoMirrorOf,
                Some((pattern, tokens)) => match scan_pattern(&facts, pattern, tokens) {
                    PatternOutcome::Excluded(token) => SkipReason::Excluded { token },
                    PatternOutcome::NoMatch => SkipReason::NoTokenMatched {
                        hints: near_miss_hints(repo, pattern),
                    },
                    PatternOutcome::Match(reason, _) => {
                        if !self.layouts_accept(index, &repo.layout) {
                            SkipReason::LayoutNotAccepted {
                                layout: repo.layout.clone(),
                                mirror_of_layouts: m.mirror_of_layouts.clone(),
                            }
                        } else {
                            let winner = chosen
                                .as_ref()
                                .map(|c| c.mirror_id.clone())
                                .unwrap_or_default();
                            let chosen_exact = chosen
                                .as_ref()
                                .is_some_and(|c| c.reason == MatchReason::ExactId);
                            if chosen_exact && reason != MatchReason::ExactId {
                                SkipReason::OutrankedByExactId { winner }
                            } else {
                                SkipReason::ShadowedBy { winner }
                            }
                        }
                    }
                },
            };
            out.push(MirrorRejection {
                index,
                mirror_id: m.id.clone(),
                reason,
            });
        }
        out
    }
}

/// The repository that replaces `original` behind `mirror` (spec §4.2): mirror id and url,
/// mirror layout if non-empty (else the original's), policies copied from the original,
/// `repositoryManager` false, `blocked` from the mirror, mirrored = `[original]`, no proxy or
/// credentials yet.
pub fn mirror_repository(mirror: &MirrorDef, original: &RemoteRepository) -> RemoteRepository {
    let mut repo = RemoteRepository::new(mirror.id.clone(), mirror.url.clone());
    repo.layout = if mirror.layout.is_empty() {
        original.layout.clone()
    } else {
        mirror.layout.clone()
    };
    repo.releases = original.releases.clone();
    repo.snapshots = original.snapshots.clone();
    repo.blocked = mirror.blocked;
    repo.repository_manager = false;
    repo.mirrored_repositories = vec![original.clone()];
    repo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(id: &str, url: &str) -> RemoteRepository {
        RemoteRepository::new(id, url)
    }

    fn mirror(id: &str, of: &str) -> Mirror {
        Mirror {
            id: id.into(),
            mirror_of: Some(of.into()),
            url: Some(format!("http://mirror/{id}")),
            ..Mirror::default()
        }
    }

    #[test]
    fn match_pattern_table() {
        let central = repo("central", "https://repo.maven.apache.org/maven2");
        let foo = repo("foo", "https://foo.example/");
        let local = repo("loc", "http://localhost:8081/repo");
        let upper_local = repo("loc", "http://LOCALHOST/repo");
        let file = repo("f", "file:///tmp/repo");
        let http = repo("h", "http://plain.example/");
        let dav = repo("d", "dav:http://plain.example/");
        let davs = repo("d", "dav:https://plain.example/");
        let ipv6 = repo("v6", "http://[::1]:8080/");
        // (repo, pattern, expected) — from spec §4.1 (VERIFIED rows marked in the spec).
        let cases: Vec<(&RemoteRepository, &str, bool)> = vec![
            (&central, "*", true),
            (&central, "central", true),
            (&central, "central,!central", true),
            (&central, "!central,central", false),
            (&central, "*,!central", false),
            (&foo, "*,!central", true),
            (&central, "!central,*", false),
            (&foo, "!central,*", true),
            (&foo, "*, !foo", true),  // ` !foo` is not an exclusion
            (&foo, "!foo, *", false), // ` *` is not a wildcard
            (&central, "!foo, *", false),
            (&central, "Central", false),
            (&central, "a,central", true),
            (&central, "a, central", false),
            (&central, "external:*", true),
            (&local, "external:*", false),
            (&upper_local, "external:*", true),
            (&file, "external:*", false),
            (&ipv6, "external:*", true),
            (&http, "external:http:*", true),
            (&central, "external:http:*", false),
            (&dav, "external:http:*", true),
            (&davs, "external:http:*", false),
            (&local, "external:http:*", false),
            (&central, "external:*,!central", false),
            (&central, "!", false),
            (&central, "", false),
            (&central, ",,", false),
        ];
        for (r, pattern, want) in cases {
            assert_eq!(
                match_pattern(r, pattern),
                want,
                "repo {} pattern {pattern:?}",
                r.id
            );
        }
    }

    #[test]
    fn trailing_empty_tokens_are_dropped_like_java_split() {
        let empty_id = repo("", "http://x/");
        assert!(!match_pattern(&empty_id, "a,"));
        assert!(match_pattern(&empty_id, "a,,b"));
        assert!(match_pattern(&empty_id, ""));
    }

    #[test]
    fn matches_type_table() {
        let cases = [
            ("default", "default,legacy", true),
            ("legacy", "default,legacy", true),
            ("p2", "default,legacy", false),
            ("p2", "", true),
            ("p2", "*", true),
            ("p2", "*,!p2", false),
            ("p2", "!p2,*", false),
            ("default", "!p2,*", true),
            ("p2", "default, p2", false),
            ("p2", "p2", true),
        ];
        for (t, m, want) in cases {
            assert_eq!(matches_type(t, m), want, "type {t} mirrorOfLayouts {m}");
        }
    }

    #[test]
    fn pass_one_exact_id_beats_earlier_wildcard() {
        let sel = MirrorSelector::new(&[mirror("all", "*"), mirror("c", "central")]);
        let m = sel.select(&repo("central", "https://r/")).unwrap();
        assert_eq!((m.index, m.reason), (1, MatchReason::ExactId));
        let rej = sel.rejections(&repo("central", "https://r/"));
        assert_eq!(
            rej,
            vec![MirrorRejection {
                index: 0,
                mirror_id: "all".into(),
                reason: SkipReason::OutrankedByExactId { winner: "c".into() }
            }]
        );
        let m = sel.select(&repo("other", "https://r/")).unwrap();
        assert_eq!(
            (m.mirror_id.as_str(), m.reason),
            ("all", MatchReason::Wildcard)
        );
    }

    #[test]
    fn exact_id_respects_layouts_in_pass_one() {
        let mut c = mirror("c", "central");
        c.mirror_of_layouts = "default".into();
        let sel = MirrorSelector::new(&[c, mirror("all", "*")]);
        let mut legacy = repo("central", "https://r/");
        legacy.layout = "legacy".into();
        let m = sel.select(&legacy).unwrap();
        assert_eq!(m.mirror_id, "all");
        let rej = sel.rejections(&legacy);
        assert!(matches!(
            rej[0].reason,
            SkipReason::LayoutNotAccepted { .. }
        ));
    }

    #[test]
    fn reasons_for_tokens() {
        let sel = MirrorSelector::new(&[mirror("m", "a,external:*,!b")]);
        let m = sel.select(&repo("x", "https://x/")).unwrap();
        assert_eq!(
            (m.reason, m.token.as_str()),
            (MatchReason::External, "external:*")
        );
        let m = sel.select(&repo("a", "http://localhost/")).unwrap();
        assert_eq!(m.reason, MatchReason::IdToken);
        assert!(sel.select(&repo("b", "https://x/")).is_none());
        assert_eq!(
            sel.rejections(&repo("b", "https://x/"))[0].reason,
            SkipReason::Excluded { token: "!b".into() }
        );
        let sel = MirrorSelector::new(&[mirror("m", "x,*")]);
        let m = sel.select(&repo("y", "https://x/")).unwrap();
        assert_eq!(
            (m.reason, m.token.as_str()),
            (MatchReason::WildcardToken, "*")
        );
    }

    #[test]
    fn hints_explain_whitespace_and_local_hosts() {
        let sel = MirrorSelector::new(&[mirror("m", "!foo, *"), mirror("n", "external:*")]);
        let rej = sel.rejections(&repo("bar", "http://localhost/x"));
        let SkipReason::NoTokenMatched { hints } = &rej[0].reason else {
            panic!("unexpected {:?}", rej[0]);
        };
        assert!(hints[0].contains("` *`"), "{hints:?}");
        let SkipReason::NoTokenMatched { hints } = &rej[1].reason else {
            panic!("unexpected {:?}", rej[1]);
        };
        assert!(hints[0].contains("local"), "{hints:?}");
    }

    #[test]
    fn duplicate_mirror_ids_first_wins_and_none_mirror_of_never_matches() {
        let mut none = mirror("z", "*");
        none.mirror_of = None;
        let sel = MirrorSelector::new(&[none, mirror("a", "x"), mirror("a", "*")]);
        assert_eq!(sel.mirrors().len(), 2);
        assert!(sel.select(&repo("y", "https://y/")).is_none());
        assert_eq!(
            sel.rejections(&repo("y", "https://y/"))[0].reason,
            SkipReason::NoMirrorOf
        );
    }

    #[test]
    fn mirror_repository_copies_policies_and_takes_mirror_layout() {
        let mut original = repo("central", "https://r/");
        original.layout = "legacy".into();
        original.releases.update_policy = "always".into();
        original.snapshots.enabled = false;
        let mut def = MirrorDef::from(&mirror("m", "*"));
        def.blocked = true;
        let m = mirror_repository(&def, &original);
        assert_eq!(m.id, "m");
        assert_eq!(m.url, "http://mirror/m");
        assert_eq!(m.layout, "default");
        assert!(m.blocked && !m.repository_manager);
        assert_eq!(m.releases, original.releases);
        assert_eq!(m.snapshots, original.snapshots);
        assert_eq!(m.mirrored_repositories, vec![original.clone()]);
        def.layout.clear();
        assert_eq!(mirror_repository(&def, &original).layout, "legacy");
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_matches_type() {
        use crate::repository::mirror::matches_type;
        assert!(matches_type("legacy", "default,legacy"));
        assert!(!matches_type("p2", "default"));
        assert!(matches_type("p2", "*,!legacy"));
    }

    #[test]
    fn doc_select() {
        use crate::repository::{
            mirror::{MatchReason, MirrorSelector},
            RemoteRepository,
        };
        use crate::settings::Mirror;
        let all = Mirror {
            id: "all".into(),
            mirror_of: Some("*".into()),
            url: Some("http://m/".into()),
            ..Mirror::default()
        };
        let c = Mirror {
            id: "c".into(),
            mirror_of: Some("central".into()),
            url: Some("http://c/".into()),
            ..Mirror::default()
        };
        let sel = MirrorSelector::new(&[all, c]);
        let m = sel
            .select(&RemoteRepository::new("central", "https://repo1/"))
            .unwrap();
        assert_eq!(
            (m.mirror_id.as_str(), m.reason),
            ("c", MatchReason::ExactId)
        );
    }
}
