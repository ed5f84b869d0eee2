//! Settings profile activation: Maven 3.8.7's `DefaultProfileSelector` applied to settings
//! ("external") profiles, with its four activators (jdk, os, property, file).
//!
//! This module owns the decision which settings profiles are active and the problems that
//! decision reports (stage [`Stage::Activation`]). It does not inject the profiles' repositories or
//! properties anywhere, does not read files other than testing `<file>` activation paths for
//! existence, and does not know about POM profiles (whose `activeByDefault` rule differs).
//!
//! Rules, as Maven 3.8.7 runs them (checked against the real classes, see
//! `maven-semantics.md` §3):
//! - Profiles are returned in declaration order.
//! - An id in [`ActivationContext::inactive_profile_ids`] deactivates the profile, whatever else
//!   holds. An id in [`ActivationContext::active_profile_ids`] activates it.
//! - Otherwise the activators whose element is present (`jdk`, `os`, `property`, `file`, in that
//!   order) are all evaluated and must all match. No activator present means "not matched".
//! - Otherwise `activeByDefault` activates a settings profile unconditionally (the "only if no other
//!   profile is active" rule is for POM profiles only).
//!
//! Maven 3.8.7 specifics kept on purpose (they differ from 3.9 / 4, the oracle is 3.8.7):
//! - an unparsable jdk version range is an ERROR `Failed to determine activation for profile <id>`
//!   (a `NumberFormatException` caught by the selector) that stops the evaluation of that profile;
//! - `os` `version` has no `regex:` form and `family` knows no `winnt` (it falls back to "os.name
//!   contains the value");
//! - the file activator expands `${basedir}` only (not `${project.basedir}`);
//! - Maven 4's `packaging` and `condition` activations are ignored (3.x does not read them).

use super::interpolate::{interpolate, Pattern};
use super::model::{Activation, ActivationFile, ActivationOs, ActivationProperty, Profile};
use super::problem::{SettingsProblem, Severity, Stage};
use crate::environment::Vars;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What profile activation looks at: requested ids, properties and the project directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActivationContext {
    /// Ids to activate: settings `<activeProfiles>` followed by `-P id` ids.
    pub active_profile_ids: Vec<String>,
    /// Ids to deactivate (`-P !id` / `-P -id`); they win over everything.
    pub inactive_profile_ids: Vec<String>,
    /// JVM-style system properties: `java.version`, `os.name`, `os.arch`, `os.version`,
    /// `path.separator`, `env.*`, and every `-D` property (Maven copies them here too).
    pub system_properties: Vars,
    /// User properties (`-D`); looked up before system properties.
    pub user_properties: Vars,
    /// The project base directory (`${basedir}` and the anchor of relative `<file>` paths).
    pub project_dir: Option<PathBuf>,
    /// `os.name`, `os.arch`, `os.version` and `path.separator` as the JVM started with them,
    /// when `system_properties` may hold `-D` overrides of them: `os` activation asks plexus
    /// `Os`, which read them before any `-D` applied. Empty: `system_properties` gives them.
    pub platform: HashMap<String, String>,
}

/// The outcome of [`select_active_profiles`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActivationResult {
    /// Indices into the given profiles slice, in Maven's order (declaration order).
    pub active: Vec<usize>,
    /// Problems met while evaluating activations (stage [`Stage::Activation`], no line/column,
    /// as Maven reports none for settings profiles; the message ends with where the profile was
    /// written when that is known).
    pub problems: Vec<SettingsProblem>,
}

/// Selects the active settings profiles as Maven 3.8.7's `DefaultProfileSelector` does for
/// external profiles.
pub fn select_active_profiles(profiles: &[Profile], ctx: &ActivationContext) -> ActivationResult {
    let activated: HashSet<&str> = ctx.active_profile_ids.iter().map(String::as_str).collect();
    let deactivated: HashSet<&str> = ctx
        .inactive_profile_ids
        .iter()
        .map(String::as_str)
        .collect();
    let mut result = ActivationResult::default();
    for (index, profile) in profiles.iter().enumerate() {
        if deactivated.contains(profile.id.as_str()) {
            continue;
        }
        let is_active = activated.contains(profile.id.as_str()) || {
            let mut problems = Vec::new();
            let matched = activation_matches(profile, ctx, &mut problems);
            result
                .problems
                .extend(problems.into_iter().map(|p| into_problem(p, profile)));
            matched
        };
        let by_default = profile
            .activation
            .as_ref()
            .is_some_and(|a| a.active_by_default);
        if is_active || by_default {
            result.active.push(index);
        }
    }
    result
}

/// Why an activator could not decide; turned into [`SettingsProblem`]s with Maven's texts, never returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ActivatorError {
    /// Java's `Integer.parseInt` failed on a jdk version part (Maven lets the
    /// `NumberFormatException` escape the activator).
    #[error("not a 32-bit decimal integer")]
    NumberFormat,
    /// An expression cycle met while interpolating a file path, with plexus-interpolation's message.
    #[error("{0}")]
    InterpolationCycle(String),
}

/// A problem found by an activator, before it is tied to its profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ActivatorProblem {
    pub(crate) severity: Severity,
    pub(crate) message: String,
}

impl ActivatorProblem {
    fn error(message: String) -> Self {
        ActivatorProblem {
            severity: Severity::Error,
            message,
        }
    }
}

fn into_problem(p: ActivatorProblem, profile: &Profile) -> SettingsProblem {
    let source = profile
        .origin
        .file
        .as_ref()
        .map(|f| f.display().to_string())
        .unwrap_or_default();
    let message = match super::validate::where_written(&profile.origin, &source) {
        Some(place) => format!("{} (at {place})", p.message),
        None => p.message,
    };
    SettingsProblem::new(p.severity, Stage::Activation, source, message)
}

/// The selector's `isActive`: every present activator is evaluated (no short cut) and all must
/// match; an activator failure (Maven: a `RuntimeException`) reports an error and ends the
/// evaluation with "not active".
fn activation_matches(
    profile: &Profile,
    ctx: &ActivationContext,
    problems: &mut Vec<ActivatorProblem>,
) -> bool {
    let Some(activation) = profile.activation.as_ref() else {
        return false;
    };
    let Activation {
        jdk,
        os,
        property,
        file,
        ..
    } = activation;
    if jdk.is_none() && os.is_none() && property.is_none() && file.is_none() {
        return false;
    }
    let id = profile.id.as_str();
    let mut active = true;
    if let Some(jdk) = jdk {
        match jdk_matches(jdk, id, ctx, problems) {
            Ok(m) => active &= m,
            Err(_) => {
                problems.push(ActivatorProblem::error(format!(
                    "Failed to determine activation for profile {id}"
                )));
                return false;
            }
        }
    }
    if let Some(os) = os {
        active &= os_matches(os, &OsProperties::from_context(ctx));
    }
    if let Some(property) = property {
        active &= property_matches(property, id, ctx, problems);
    }
    if let Some(file) = file {
        active &= file_matches(file, id, ctx, problems);
    }
    active
}

// ---------------------------------------------------------------------------------------------
// jdk

/// `JdkVersionProfileActivator.isActive` for a present `<jdk>` element (also used for POM
/// profiles by the model builder).
pub(crate) fn jdk_matches(
    jdk: &str,
    id: &str,
    ctx: &ActivationContext,
    problems: &mut Vec<ActivatorProblem>,
) -> Result<bool, ActivatorError> {
    let version = match ctx.system_properties.get("java.version") {
        Some(v) if !v.is_empty() => v.as_str(),
        _ => {
            problems.push(ActivatorProblem::error(format!(
                "Failed to determine Java version for profile {id}"
            )));
            return Ok(false);
        }
    };
    jdk_version_matches(jdk, version)
}

/// The jdk rule proper: `!prefix`, a range starting with `[` or `(`, or a plain prefix.
fn jdk_version_matches(jdk: &str, version: &str) -> Result<bool, ActivatorError> {
    if let Some(prefix) = jdk.strip_prefix('!') {
        Ok(!version.starts_with(prefix))
    } else if jdk.starts_with('[') || jdk.starts_with('(') {
        in_range(version, &parse_range(jdk))
    } else {
        Ok(version.starts_with(jdk))
    }
}

/// One bound of a jdk range; an empty value is unbounded.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RangeBound {
    value: String,
    closed: bool,
}

impl RangeBound {
    fn new(value: &str, closed: bool) -> Self {
        RangeBound {
            value: java_trim(value).to_string(),
            closed,
        }
    }
}

/// Maven's `getRange`: tokens between commas; a token is a bound only when it starts with `[`/`(`
/// or ends with `]`/`)` (every such bracket character is removed) or is empty; a lone bound gets
/// the upper bound `99999999` (exclusive). Only the first two bounds are used.
fn parse_range(range: &str) -> Vec<RangeBound> {
    let mut bounds = Vec::new();
    for token in java_split(range, |c| c == ',') {
        if token.starts_with('[') {
            bounds.push(RangeBound::new(&token.replace('[', ""), true));
        } else if token.starts_with('(') {
            bounds.push(RangeBound::new(&token.replace('(', ""), false));
        } else if token.ends_with(']') {
            bounds.push(RangeBound::new(&token.replace(']', ""), true));
        } else if token.ends_with(')') {
            bounds.push(RangeBound::new(&token.replace(')', ""), false));
        } else if token.is_empty() {
            bounds.push(RangeBound::new("", false));
        }
    }
    if bounds.len() < 2 {
        bounds.push(RangeBound::new("99999999", false));
    }
    bounds
}

fn in_range(version: &str, bounds: &[RangeBound]) -> Result<bool, ActivatorError> {
    let (Some(lower), Some(upper)) = (bounds.first(), bounds.get(1)) else {
        return Ok(false);
    };
    let left = relation_order(version, lower, true)?;
    if left == 0 {
        return Ok(true);
    }
    if left < 0 {
        return Ok(false);
    }
    Ok(relation_order(version, upper, false)? <= 0)
}

/// Maven's `getRelationOrder`: compares the first three numeric parts of `java.version` (all
/// characters but `0-9 . - _` dropped, split on `. - _`) with the bound (split on `.`), parsing
/// lazily in Maven's order so that a bad token only fails when Maven would reach it.
fn relation_order(version: &str, bound: &RangeBound, is_left: bool) -> Result<i32, ActivatorError> {
    if bound.value.is_empty() {
        return Ok(if is_left { 1 } else { -1 });
    }
    let cleaned: String = version
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '_'))
        .collect();
    let mut value_tokens = java_split(&cleaned, |c| matches!(c, '.' | '-' | '_'));
    let mut bound_tokens = java_split(&bound.value, |c| c == '.');
    while value_tokens.len() < 3 {
        value_tokens.push("0");
    }
    while bound_tokens.len() < 3 {
        bound_tokens.push("0");
    }
    for i in 0..3 {
        let x = java_parse_int(value_tokens[i])?;
        let y = java_parse_int(bound_tokens[i])?;
        if x < y {
            return Ok(-1);
        }
        if x > y {
            return Ok(1);
        }
    }
    if !bound.closed {
        return Ok(if is_left { -1 } else { 1 });
    }
    Ok(0)
}

/// Java's `String.split` for a one-character separator class: no separator → the whole input;
/// trailing empty pieces removed; a leading empty piece kept.
fn java_split(s: &str, is_sep: impl Fn(char) -> bool) -> Vec<&str> {
    if !s.chars().any(&is_sep) {
        return vec![s];
    }
    let mut parts: Vec<&str> = s.split(is_sep).collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// Java's `Integer.parseInt(s)` for ASCII digits: optional sign, at least one digit, 32 bits.
fn java_parse_int(s: &str) -> Result<i32, ActivatorError> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ActivatorError::NumberFormat);
    }
    s.parse::<i32>().map_err(|_| ActivatorError::NumberFormat)
}

/// Java's `String.trim`: strips characters up to U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

// ---------------------------------------------------------------------------------------------
// os

/// The platform as plexus-utils `Os` sees it: lower-cased `os.name`/`os.arch`/`os.version` and
/// the raw `path.separator`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OsProperties {
    name: String,
    arch: String,
    version: String,
    path_separator: Option<String>,
}

impl OsProperties {
    pub(crate) fn from_context(ctx: &ActivationContext) -> Self {
        let props = if ctx.platform.is_empty() {
            &ctx.system_properties
        } else {
            &ctx.platform
        };
        let lower = |key: &str| props.get(key).map(|v| v.to_lowercase()).unwrap_or_default();
        OsProperties {
            name: lower("os.name"),
            arch: lower("os.arch"),
            version: lower("os.version"),
            path_separator: props.get("path.separator").cloned(),
        }
    }

    /// plexus-utils `Os.isFamily`.
    fn is_family(&self, family: &str) -> bool {
        let name = self.name.as_str();
        let sep = self.path_separator.as_deref();
        let is = |f: &str| java_equals_ignore_case(family, f);
        if is("windows") {
            name.contains("windows")
        } else if is("os/2") {
            name.contains("os/2")
        } else if is("netware") {
            name.contains("netware")
        } else if is("dos") {
            sep == Some(";")
                && !self.is_family("netware")
                && !self.is_family("windows")
                && !self.is_family("win9x")
        } else if is("mac") {
            name.contains("mac")
        } else if is("tandem") {
            name.contains("nonstop_kernel")
        } else if is("unix") {
            sep == Some(":")
                && !self.is_family("openvms")
                && (!self.is_family("mac") || name.ends_with('x'))
        } else if is("win9x") {
            self.is_family("windows")
                && (name.contains("95")
                    || name.contains("98")
                    || name.contains("me")
                    || name.contains("ce"))
        } else if is("z/os") {
            name.contains("z/os") || name.contains("os/390")
        } else if is("os/400") {
            name.contains("os/400")
        } else if is("openvms") {
            name.contains("openvms")
        } else {
            name.contains(family.to_lowercase().as_str())
        }
    }
}

/// `OperatingSystemProfileActivator.isActive`: every given field must match; each may be negated
/// with a leading `!`; at least one field must be given.
pub(crate) fn os_matches(os: &ActivationOs, platform: &OsProperties) -> bool {
    if os.family.is_none() && os.name.is_none() && os.arch.is_none() && os.version.is_none() {
        return false;
    }
    fn negatable(value: &str, test: impl Fn(&str) -> bool) -> bool {
        match value.strip_prefix('!') {
            Some(rest) => !test(rest),
            None => test(value),
        }
    }
    fn equals(value: &str, actual: &str) -> bool {
        value.to_lowercase() == actual
    }
    os.family
        .as_deref()
        .is_none_or(|f| negatable(f, |v| platform.is_family(v)))
        && os
            .name
            .as_deref()
            .is_none_or(|n| negatable(n, |v| equals(v, &platform.name)))
        && os
            .arch
            .as_deref()
            .is_none_or(|a| negatable(a, |v| equals(v, &platform.arch)))
        && os
            .version
            .as_deref()
            .is_none_or(|v| negatable(v, |t| equals(t, &platform.version)))
}

/// Java's `String.equalsIgnoreCase` (per character: equal, or equal upper cases, or equal lower
/// cases of the upper cases; simple one-to-one case mappings).
fn java_equals_ignore_case(a: &str, b: &str) -> bool {
    fn simple_upper(c: char) -> char {
        let mut it = c.to_uppercase();
        match (it.next(), it.next()) {
            (Some(u), None) => u,
            _ => c,
        }
    }
    fn simple_lower(c: char) -> char {
        let mut it = c.to_lowercase();
        match (it.next(), it.next()) {
            (Some(l), None) => l,
            _ => c,
        }
    }
    a.chars().count() == b.chars().count()
        && a.chars().zip(b.chars()).all(|(x, y)| {
            x == y || {
                let (ux, uy) = (simple_upper(x), simple_upper(y));
                ux == uy || simple_lower(ux) == simple_lower(uy)
            }
        })
}

// ---------------------------------------------------------------------------------------------
// property

/// `PropertyProfileActivator.isActive`.
pub(crate) fn property_matches(
    property: &ActivationProperty,
    id: &str,
    ctx: &ActivationContext,
    problems: &mut Vec<ActivatorProblem>,
) -> bool {
    let raw_name = property.name.as_deref().unwrap_or("");
    let (name, reverse_name) = match raw_name.strip_prefix('!') {
        Some(rest) => (rest, true),
        None => (raw_name, false),
    };
    if name.is_empty() {
        problems.push(ActivatorProblem::error(format!(
            "The property name is required to activate the profile {id}"
        )));
        return false;
    }
    let actual = ctx
        .user_properties
        .get(name)
        .or_else(|| ctx.system_properties.get(name))
        .map(String::as_str);
    match property.value.as_deref() {
        Some(value) if !value.is_empty() => match value.strip_prefix('!') {
            Some(rest) => actual != Some(rest),
            None => actual == Some(value),
        },
        _ => {
            let present = actual.is_some_and(|v| !v.is_empty());
            present != reverse_name
        }
    }
}

// ---------------------------------------------------------------------------------------------
// file

/// `FileProfileActivator.isActive`: `exists` wins over `missing`; the path is interpolated
/// (`${basedir}`, then user, then system properties), aligned to the project directory, and must
/// end up absolute.
fn file_matches(
    file: &ActivationFile,
    id: &str,
    ctx: &ActivationContext,
    problems: &mut Vec<ActivatorProblem>,
) -> bool {
    file_matches_with(file, id, ctx, None, problems)
}

/// [`file_matches`] with the POM's properties looked up before user and system properties, as
/// the model builder's `ProfileActivationFilePathInterpolator` does for POM profiles.
pub(crate) fn file_matches_with(
    file: &ActivationFile,
    id: &str,
    ctx: &ActivationContext,
    project_properties: Option<&HashMap<String, String>>,
    problems: &mut Vec<ActivatorProblem>,
) -> bool {
    let (path, missing) = match (file.exists.as_deref(), file.missing.as_deref()) {
        (Some(p), _) if !p.is_empty() => (p, false),
        (_, Some(p)) if !p.is_empty() => (p, true),
        _ => return false,
    };
    let basedir = ctx.project_dir.as_deref().map(absolute);
    if basedir.is_none() && path.contains("${basedir}") {
        return false;
    }
    let basedir_text = basedir.as_ref().map(|b| b.display().to_string());
    let lookup = |expr: &str| -> Option<String> {
        if expr == "basedir" {
            if let Some(b) = &basedir_text {
                return Some(b.clone());
            }
        }
        project_properties
            .and_then(|p| p.get(expr))
            .or_else(|| ctx.user_properties.get(expr))
            .or_else(|| ctx.system_properties.get(expr))
            .cloned()
    };
    let interpolated = match interpolate(path, Pattern::Plain, &lookup) {
        Ok(p) => p,
        Err(c) => {
            let cycle = ActivatorError::InterpolationCycle(format!(
                "Resolving expression: '{}': Detected the following recursive expression cycle in '{}': [{}]",
                c.whole,
                c.chain.last().map(String::as_str).unwrap_or_default(),
                c.cycle().join(", ")
            ));
            problems.push(ActivatorProblem::error(format!(
                "Failed to interpolate file location {path} for profile {id}: {cycle}"
            )));
            return false;
        }
    };
    let aligned = match &basedir {
        Some(b) => align_to_base_directory(&interpolated, b),
        None => PathBuf::from(&interpolated),
    };
    if !aligned.is_absolute() {
        return false;
    }
    let exists = java_file_exists(&aligned);
    exists != missing
}

/// `File.getAbsolutePath`: relative paths are resolved against the working directory, nothing is
/// normalised.
fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}

/// `DefaultPathTranslator.alignToBaseDirectory`: both slash kinds become the platform separator;
/// absolute paths are kept; others are resolved against `basedir` and normalised lexically (`.`
/// dropped, `x/..` removed) as `URI.normalize` does.
fn align_to_base_directory(path: &str, basedir: &Path) -> PathBuf {
    let sep = std::path::MAIN_SEPARATOR;
    let unified: String = path
        .chars()
        .map(|c| if c == '/' || c == '\\' { sep } else { c })
        .collect();
    let p = Path::new(&unified);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    if unified.starts_with(sep) {
        // Windows drive-relative path: Java's File.getAbsolutePath.
        return std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    }
    normalize_lexically(&basedir.join(p))
}

/// Removes `.` components and `name/..` pairs without touching the file system.
fn normalize_lexically(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    out.iter().collect()
}

/// `File.exists` after `new File(path)`: Java drops trailing separators, so `dir/file.txt/` exists
/// when `dir/file.txt` does.
fn java_file_exists(p: &Path) -> bool {
    let text = p.to_string_lossy();
    let trimmed = text.trim_end_matches(std::path::is_separator);
    if trimmed.is_empty() {
        return p.exists();
    }
    Path::new(trimmed).exists()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::model::Origin;

    fn props(pairs: &[(&str, &str)]) -> Vars {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn profile(id: &str, activation: Activation) -> Profile {
        Profile {
            id: id.into(),
            activation: Some(activation),
            ..Profile::default()
        }
    }

    fn ctx_with_system(pairs: &[(&str, &str)]) -> ActivationContext {
        ActivationContext {
            system_properties: props(pairs),
            ..ActivationContext::default()
        }
    }

    fn active_ids(profiles: &[Profile], ctx: &ActivationContext) -> Vec<String> {
        select_active_profiles(profiles, ctx)
            .active
            .iter()
            .map(|&i| profiles[i].id.clone())
            .collect()
    }

    // ------------------------------------------------------------------ jdk

    /// `Some(b)`: active or not; `None`: Maven's NumberFormatException (activation error).
    #[test]
    fn jdk_rules_match_maven_3_8_7() {
        let rows: &[(&str, &str, Option<bool>)] = &[
            // rows checked with the 3.8.7 oracle on java.version 17.0.15
            ("17", "17.0.15", Some(true)),
            ("1", "17.0.15", Some(true)), // plain prefix: "1" matches 17
            ("!17", "17.0.15", Some(false)),
            ("!1.8", "17.0.15", Some(true)),
            ("[11,)", "17.0.15", Some(true)),
            ("[17,18)", "17.0.15", Some(true)),
            ("(17,18)", "17.0.15", Some(true)),
            ("[17.0.15]", "17.0.15", None),   // "15]" is not a number
            ("[1.8]", "17.0.15", Some(true)), // 17 > 1 decides before "8]" is parsed
            ("(,17]", "17.0.15", Some(false)),
            ("(,17)", "17.0.15", Some(false)),
            ("[17", "17.0.15", Some(true)),
            ("(17.0.15,", "17.0.15", Some(false)),
            ("[abc,)", "17.0.15", None),
            ("[1.8,abc)", "17.0.15", None),
            ("[11,12),[17,)", "17.0.15", Some(false)), // middle token "12)" … only two bounds used
            ("1.8", "17.0.15", Some(false)),
            ("[17.0.15,17.0.15]", "17.0.15", Some(true)),
            ("(17.0.15,17.0.15]", "17.0.15", Some(false)),
            ("[,]", "17.0.15", Some(true)),
            ("[ 17 , 18 )", "17.0.15", Some(true)),
            ("", "17.0.15", Some(true)),
            // further rows from the rules
            ("1.8", "1.8.0_392", Some(true)),
            ("[1.8,11)", "1.8.0_392", Some(true)),
            ("[1.8,11)", "11.0.2", Some(false)),
            ("[1.8,11]", "11", Some(true)),
            ("(1.8,11]", "1.8", Some(false)),
            ("[9,)", "9-ea", Some(true)),
            ("[21,)", "21-ea", Some(true)),
            ("[1.8.0.392,)", "1.8.0_392", Some(true)), // only three parts compared
            ("[17,)", "abc", None),                    // no digits at all: "" is not a number
            ("!1.", "1.8", Some(false)),
            ("11", "11.0.20", Some(true)),
            ("11", "1.8", Some(false)),
        ];
        for (jdk, version, expected) in rows {
            let got = jdk_version_matches(jdk, version).ok();
            assert_eq!(got, *expected, "jdk {jdk:?} on java.version {version:?}");
        }
    }

    #[test]
    fn jdk_without_java_version_is_an_error() {
        let p = profile(
            "j",
            Activation {
                jdk: Some("17".into()),
                ..Activation::default()
            },
        );
        let result = select_active_profiles(&[p], &ActivationContext::default());
        assert!(result.active.is_empty());
        assert_eq!(result.problems.len(), 1);
        assert_eq!(result.problems[0].severity, Severity::Error);
        assert_eq!(result.problems[0].stage, Stage::Activation);
        assert_eq!(
            result.problems[0].message,
            "Failed to determine Java version for profile j"
        );
        assert_eq!(result.problems[0].line, None);
    }

    #[test]
    fn jdk_number_error_reports_and_stops_the_profile() {
        // jdk fails first, so the (also broken) property activator is never evaluated
        let p = profile(
            "bad",
            Activation {
                jdk: Some("[x,)".into()),
                property: Some(ActivationProperty::default()),
                ..Activation::default()
            },
        );
        let result = select_active_profiles(&[p], &ctx_with_system(&[("java.version", "17.0.1")]));
        assert!(result.active.is_empty());
        let messages: Vec<&str> = result.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            vec!["Failed to determine activation for profile bad"]
        );
    }

    // ------------------------------------------------------------------ os

    fn linux() -> OsProperties {
        OsProperties {
            name: "linux".into(),
            arch: "amd64".into(),
            version: "6.18.44-fc-v669".into(),
            path_separator: Some(":".into()),
        }
    }
    fn windows() -> OsProperties {
        OsProperties {
            name: "windows 10".into(),
            arch: "amd64".into(),
            version: "10.0".into(),
            path_separator: Some(";".into()),
        }
    }
    fn mac() -> OsProperties {
        OsProperties {
            name: "mac os x".into(),
            arch: "aarch64".into(),
            version: "14.1".into(),
            path_separator: Some(":".into()),
        }
    }
    fn os(
        family: Option<&str>,
        name: Option<&str>,
        arch: Option<&str>,
        version: Option<&str>,
    ) -> ActivationOs {
        ActivationOs {
            family: family.map(str::to_string),
            name: name.map(str::to_string),
            arch: arch.map(str::to_string),
            version: version.map(str::to_string),
        }
    }

    #[test]
    fn os_rules_match_plexus_utils() {
        type Row = (fn() -> OsProperties, ActivationOs, bool);
        let f = |v| os(Some(v), None, None, None);
        let rows: Vec<Row> = vec![
            // rows checked with the 3.8.7 oracle on Linux/amd64
            (linux, f("unix"), true),
            (linux, f("UNIX"), true),
            (linux, f("windows"), false),
            (linux, f("!windows"), true),
            (linux, f("mac"), false),
            (linux, f("dos"), false),
            (linux, f("lin"), true), // unknown family: os.name contains it
            (linux, f("!"), false),
            (linux, f("winnt"), false),
            (linux, os(None, Some("linux"), None, None), true),
            (linux, os(None, Some("Linux"), None, None), true),
            (linux, os(None, Some("!linux"), None, None), false),
            (linux, os(None, None, Some("amd64"), None), true),
            (linux, os(None, None, Some("!amd64"), None), false),
            (linux, os(None, None, None, Some("regex:.*")), false), // no regex: in 3.8.7
            (linux, os(None, None, None, Some("!x")), true),
            (linux, os(None, Some(""), None, None), false),
            (linux, f(""), true),
            (linux, os(None, None, None, None), false),
            // other platforms
            (windows, f("windows"), true),
            (windows, f("Windows"), true),
            (windows, f("dos"), false), // windows is excluded from dos
            (windows, f("unix"), false),
            (windows, f("win9x"), false),
            (windows, f("winnt"), false), // "windows 10" does not contain "winnt"
            (
                windows,
                os(
                    Some("windows"),
                    Some("Windows 10"),
                    Some("amd64"),
                    Some("10.0"),
                ),
                true,
            ),
            (windows, os(Some("windows"), None, Some("x86"), None), false), // AND of all fields
            (mac, f("mac"), true),
            (mac, f("unix"), true), // "mac os x" ends with x
            (mac, f("!unix"), false),
            (mac, os(None, None, Some("aarch64"), Some("14.1")), true),
            (
                || OsProperties {
                    name: "windows 98".into(),
                    path_separator: Some(";".into()),
                    ..linux()
                },
                f("win9x"),
                true,
            ),
            (
                || OsProperties {
                    name: "freedos".into(),
                    path_separator: Some(";".into()),
                    ..linux()
                },
                f("dos"),
                true,
            ),
            (
                || OsProperties {
                    name: "darwin".into(),
                    ..linux()
                },
                f("mac"),
                false, // 3.8.7 knows only "mac"
            ),
            (
                || OsProperties {
                    name: "z/os".into(),
                    ..linux()
                },
                f("z/os"),
                true,
            ),
            (
                || OsProperties {
                    name: "openvms".into(),
                    ..linux()
                },
                f("unix"),
                false,
            ),
        ];
        for (i, (platform, spec, expected)) in rows.iter().enumerate() {
            assert_eq!(
                os_matches(spec, &platform()),
                *expected,
                "row {i}: {spec:?}"
            );
        }
    }

    #[test]
    fn os_properties_are_lower_cased_from_the_context() {
        let ctx = ctx_with_system(&[
            ("os.name", "Mac OS X"),
            ("os.arch", "AArch64"),
            ("os.version", "14.1"),
            ("path.separator", ":"),
        ]);
        let platform = OsProperties::from_context(&ctx);
        assert_eq!(platform, mac());
    }

    #[test]
    fn java_equals_ignore_case_follows_java() {
        assert!(java_equals_ignore_case("WINDOWS", "windows"));
        assert!(java_equals_ignore_case("wındows", "windows")); // dotless i upper-cases to I
        assert!(!java_equals_ignore_case("window", "windows"));
    }

    // ------------------------------------------------------------------ property

    #[test]
    fn property_rules_match_maven() {
        // user foo=bar and empty=""; system sys=s and foo=system (user wins)
        let ctx = ActivationContext {
            user_properties: props(&[("foo", "bar"), ("empty", "")]),
            system_properties: props(&[("foo", "system"), ("sys", "s")]),
            ..ActivationContext::default()
        };
        // (name, value, active, error)
        let rows: &[(Option<&str>, Option<&str>, bool, bool)] = &[
            (Some("foo"), None, true, false),
            (Some("!foo"), None, false, false),
            (Some("foo"), Some("bar"), true, false),
            (Some("foo"), Some("!bar"), false, false),
            (Some("foo"), Some("baz"), false, false),
            (Some("foo"), Some("!baz"), true, false),
            (Some("!foo"), Some("bar"), true, false), // `!` on the name ignored with a value
            (Some("nope"), None, false, false),
            (Some("!nope"), None, true, false),
            (Some("nope"), Some("!x"), true, false), // absent counts as "not equal"
            (Some(""), None, false, true),
            (Some("!"), None, false, true),
            (None, Some("x"), false, true),
            (Some("empty"), None, false, false), // empty value counts as unset
            (Some("!empty"), None, true, false),
            (Some("empty"), Some("!"), false, false),
            (Some("foo"), Some("!"), true, false),
            (Some("foo"), Some("system"), false, false), // user property shadows system
            (Some("sys"), Some("s"), true, false),
            (Some("foo"), Some(""), true, false), // empty value = name-only test
            (Some("FOO"), None, false, false),    // case-sensitive names
            (Some("foo"), Some("BAR"), false, false),
        ];
        for (name, value, expected, error) in rows {
            let property = ActivationProperty {
                name: name.map(str::to_string),
                value: value.map(str::to_string),
            };
            let mut problems = Vec::new();
            let got = property_matches(&property, "p", &ctx, &mut problems);
            assert_eq!(got, *expected, "property {name:?}={value:?}");
            assert_eq!(
                !problems.is_empty(),
                *error,
                "property {name:?}={value:?}: {problems:?}"
            );
            if *error {
                assert_eq!(
                    problems[0].message,
                    "The property name is required to activate the profile p"
                );
                assert_eq!(problems[0].severity, Severity::Error);
            }
        }
    }

    // ------------------------------------------------------------------ file

    #[test]
    fn file_rules_match_maven() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        std::fs::write(base.join("present.txt"), b"x").unwrap();
        std::fs::create_dir(base.join("sub")).unwrap();
        std::fs::write(base.join("sub").join("inner.txt"), b"x").unwrap();
        let base_text = base.display().to_string();
        let ctx = ActivationContext {
            user_properties: props(&[("d", &base_text), ("r", "sub/..")]),
            system_properties: props(&[("sysdir", &base_text)]),
            project_dir: Some(base.to_path_buf()),
            ..ActivationContext::default()
        };
        let abs_present = format!("{base_text}/present.txt");
        // (exists, missing, active) — rows mirror the oracle run in a folder with the same files
        let rows: &[(Option<&str>, Option<&str>, bool)] = &[
            (Some("present.txt"), None, true),
            (Some("absent.txt"), None, false),
            (None, Some("absent.txt"), true),
            (None, Some("present.txt"), false),
            (Some("${basedir}/present.txt"), None, true),
            (Some("${project.basedir}/present.txt"), None, false), // 3.8.7: ${basedir} only
            (Some(&abs_present), None, true),
            (Some("${d}/present.txt"), None, true),
            (Some("${sysdir}/present.txt"), None, true),
            (Some("${undefined}/present.txt"), None, false),
            (Some("sub/../present.txt"), None, true),
            (Some("./present.txt"), None, true),
            (Some("${basedir}\\present.txt"), None, true), // backslashes become separators
            (Some("absent.txt"), Some("present.txt"), false), // exists wins
            (Some(""), None, false),
            (Some(""), Some("absent.txt"), true), // empty exists falls through to missing
            (Some("${.basedir}/present.txt"), None, true),
            (Some("sub/inner.txt/"), None, true),
            (Some("present.txt/"), None, true),
            (Some("${r}/present.txt"), None, true),
            (None, None, false),
            (Some("sub"), None, true), // directories exist too
        ];
        for (exists, missing, expected) in rows {
            let file = ActivationFile {
                exists: exists.map(str::to_string),
                missing: missing.map(str::to_string),
            };
            let mut problems = Vec::new();
            let got = file_matches(&file, "f", &ctx, &mut problems);
            assert_eq!(got, *expected, "file exists={exists:?} missing={missing:?}");
            assert!(problems.is_empty(), "{problems:?}");
        }
    }

    #[test]
    fn file_without_project_dir() {
        let ctx = ActivationContext::default();
        let rows: &[(&str, bool)] = &[
            ("${basedir}/x", false), // needs a project dir
            ("relative.txt", false), // relative paths never match without a base
            ("/", true),
        ];
        for (path, expected) in rows {
            let file = ActivationFile {
                exists: Some(path.to_string()),
                missing: None,
            };
            let mut problems = Vec::new();
            assert_eq!(
                file_matches(&file, "f", &ctx, &mut problems),
                *expected,
                "{path}"
            );
        }
    }

    #[test]
    fn file_interpolation_cycle_is_an_error() {
        let ctx = ActivationContext {
            user_properties: props(&[("a", "${b}"), ("b", "${a}")]),
            project_dir: Some(PathBuf::from("/")),
            ..ActivationContext::default()
        };
        let file = ActivationFile {
            exists: Some("${a}/x".into()),
            missing: None,
        };
        let mut problems = Vec::new();
        assert!(!file_matches(&file, "cyc", &ctx, &mut problems));
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "Failed to interpolate file location ${a}/x for profile cyc: Resolving expression: '${a}': \
             Detected the following recursive expression cycle in 'a': [a, b]"
        );
    }

    #[test]
    fn interpolation_follows_the_regex_interpolator() {
        let values = props(&[("a", "A"), ("nested", "${a}${a}"), ("}x", "odd")]);
        let lookup = |e: &str| values.get(e).cloned();
        let rows: &[(&str, &str)] = &[
            ("${a}", "A"),
            ("${nested}/${a}", "AA/A"),
            ("${missing}/${a}", "${missing}/A"),
            ("${}", "${}"),
            ("${}x}", "odd"), // lazy `.+?` needs one character, which may be `}`
            ("${.a}", "A"),
            ("$a {a}", "$a {a}"),
            ("${a\n}", "${a\n}"),
        ];
        for (input, expected) in rows {
            assert_eq!(
                interpolate(input, Pattern::Plain, &lookup).unwrap(),
                *expected,
                "{input:?}"
            );
        }
    }

    #[test]
    fn lexical_normalisation() {
        let rows: &[(&str, &str)] = &[
            ("/a/b/../c", "/a/c"),
            ("/a/./b", "/a/b"),
            ("/a/b/../../..", "/.."),
        ];
        for (input, expected) in rows {
            assert_eq!(
                normalize_lexically(Path::new(input)),
                PathBuf::from(expected),
                "{input}"
            );
        }
    }

    // ------------------------------------------------------------------ selection

    #[test]
    fn selection_order_default_and_explicit_ids() {
        // Same as the oracle case: activeByDefault settings profiles are always active.
        let by_default = Activation {
            active_by_default: true,
            ..Activation::default()
        };
        let by_prop = |name: &str| Activation {
            property: Some(ActivationProperty {
                name: Some(name.into()),
                value: None,
            }),
            ..Activation::default()
        };
        let profiles = vec![
            profile("def", by_default.clone()),
            profile("prop", by_prop("foo")),
            profile(
                "def2",
                Activation {
                    active_by_default: true,
                    ..by_prop("nope")
                },
            ),
            Profile {
                id: "expl".into(),
                ..Profile::default()
            },
            profile("off", by_prop("bar")),
        ];
        let base = ActivationContext {
            active_profile_ids: vec!["expl".into()],
            user_properties: props(&[("foo", "1")]),
            ..ActivationContext::default()
        };
        assert_eq!(
            active_ids(&profiles, &base),
            vec!["def", "prop", "def2", "expl"]
        );

        let deactivated = ActivationContext {
            inactive_profile_ids: vec!["def".into(), "expl".into()],
            ..base.clone()
        };
        assert_eq!(active_ids(&profiles, &deactivated), vec!["prop", "def2"]);

        let both = ActivationContext {
            active_profile_ids: vec!["off".into()],
            inactive_profile_ids: vec!["off".into()],
            ..base.clone()
        };
        assert_eq!(active_ids(&profiles, &both), vec!["def", "prop", "def2"]);

        let explicit_off = ActivationContext {
            active_profile_ids: vec!["off".into()],
            ..base
        };
        assert_eq!(
            active_ids(&profiles, &explicit_off),
            vec!["def", "prop", "def2", "off"]
        );
    }

    #[test]
    fn all_present_activators_must_match() {
        let ctx = ActivationContext {
            user_properties: props(&[("foo", "1")]),
            system_properties: props(&[
                ("java.version", "17.0.2"),
                ("os.name", "Linux"),
                ("os.arch", "amd64"),
                ("os.version", "6.1"),
                ("path.separator", ":"),
            ]),
            ..ActivationContext::default()
        };
        let prop = Some(ActivationProperty {
            name: Some("foo".into()),
            value: None,
        });
        let rows: Vec<(Activation, bool)> = vec![
            (
                Activation {
                    jdk: Some("17".into()),
                    property: prop.clone(),
                    ..Activation::default()
                },
                true,
            ),
            (
                Activation {
                    jdk: Some("11".into()),
                    property: prop.clone(),
                    ..Activation::default()
                },
                false,
            ),
            (
                Activation {
                    os: Some(os(Some("unix"), None, None, None)),
                    property: prop.clone(),
                    ..Activation::default()
                },
                true,
            ),
            (
                Activation {
                    os: Some(os(Some("windows"), None, None, None)),
                    property: prop.clone(),
                    ..Activation::default()
                },
                false,
            ),
            (
                Activation {
                    file: Some(ActivationFile::default()),
                    property: prop,
                    ..Activation::default()
                },
                false, // an empty <file/> is present and never matches
            ),
            (Activation::default(), false),
            (
                Activation {
                    packaging: Some("jar".into()),
                    condition: Some("true".into()),
                    ..Activation::default()
                },
                false, // Maven 4 only, ignored by 3.8.7
            ),
        ];
        for (i, (activation, expected)) in rows.into_iter().enumerate() {
            let profiles = [profile("x", activation)];
            let got = !select_active_profiles(&profiles, &ctx).active.is_empty();
            assert_eq!(got, expected, "row {i}");
        }
    }

    #[test]
    fn every_activator_is_evaluated_so_all_problems_are_reported() {
        // property fails first (error) but the jdk problem is reported too: Maven uses `&=`.
        let p = Profile {
            origin: Origin {
                file: Some(std::sync::Arc::from(std::path::Path::new("settings.xml"))),
                line: 7,
                column: 5,
                ..Origin::default()
            },
            ..profile(
                "both",
                Activation {
                    jdk: Some("17".into()),
                    property: Some(ActivationProperty::default()),
                    ..Activation::default()
                },
            )
        };
        let result = select_active_profiles(&[p], &ActivationContext::default());
        let messages: Vec<&str> = result.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "Failed to determine Java version for profile both (at settings.xml:7:5)",
                "The property name is required to activate the profile both (at settings.xml:7:5)",
            ]
        );
        assert!(result
            .problems
            .iter()
            .all(|p| p.line.is_none() && p.source == "settings.xml"));
    }

    #[test]
    fn explicitly_activated_profiles_skip_activator_evaluation() {
        let p = profile(
            "x",
            Activation {
                property: Some(ActivationProperty::default()),
                ..Activation::default()
            },
        );
        let ctx = ActivationContext {
            active_profile_ids: vec!["x".into()],
            ..ActivationContext::default()
        };
        let result = select_active_profiles(&[p], &ctx);
        assert_eq!(result.active, vec![0]);
        assert!(result.problems.is_empty());
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_select_active_profiles() {
        use crate::settings::profiles::{select_active_profiles, ActivationContext};
        use crate::settings::{Activation, ActivationProperty, Profile};

        let by_property = Profile {
            id: "ci".into(),
            activation: Some(Activation {
                property: Some(ActivationProperty {
                    name: Some("env.CI".into()),
                    value: None,
                }),
                ..Activation::default()
            }),
            ..Profile::default()
        };
        let mut ctx = ActivationContext::default();
        ctx.system_properties.insert("env.CI".into(), "true".into());
        let result = select_active_profiles(&[by_property], &ctx);
        assert_eq!(result.active, vec![0]);
        assert!(result.problems.is_empty());
    }
}
