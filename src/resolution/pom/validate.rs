//! Maven 3.8.7's `DefaultModelValidator` at the two levels that matter here: minimal (0, what
//! Maven uses for the POMs of dependencies, parents and BOMs) and Maven 3.0 (30, a project file).
//!
//! What makes a dependency POM invalid (ERROR or FATAL) at the minimal level: a parent without
//! groupId, artifactId or version, or with the POM's own groupId:artifactId; no `modelVersion`;
//! a groupId or artifactId that is missing or has characters other than `A-Za-z0-9_-.`; an
//! empty packaging or version; modules in a POM whose packaging is not `pom`; a dependency
//! without a valid groupId/artifactId, a type or a version; a `system` dependency without an
//! absolute `systemPath`; a `systemPath` on any other scope. Everything else is at most a
//! warning there. A project file also gets the checks of levels 20 and 30 (duplicates, unknown
//! scopes as warnings, expressions left in versions, repository ids, plugins, ...).

use super::model::{Dependency, KnownEntries, Model, Repository};
use super::problem::ModelProblem;
use super::xml::XNode;
use crate::settings::Severity;
use crate::xml::Pos;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Validation level of dependency POMs (`VALIDATION_LEVEL_MINIMAL`).
pub const MINIMAL: u32 = 0;
/// Validation level of `VALIDATION_LEVEL_MAVEN_2_0`: strict parsing starts here.
pub const MAVEN_2_0: u32 = 20;
/// Validation level of project files (`VALIDATION_LEVEL_MAVEN_3_0`).
pub const MAVEN_3_0: u32 = 30;

struct V<'a> {
    level: u32,
    source: &'a str,
    out: Vec<ModelProblem>,
}

impl V<'_> {
    fn add(
        &mut self,
        severity: Severity,
        field: &str,
        hint: Option<&str>,
        message: &str,
        pos: Pos,
    ) {
        let mut m = format!("'{field}'");
        if let Some(h) = hint {
            m.push_str(&format!(" for {h}"));
        }
        m.push(' ');
        m.push_str(message);
        self.out
            .push(ModelProblem::new(severity, self.source, m).at(Some(pos)));
    }

    /// `getSeverity(request, threshold)`: ERROR from that level on, WARNING below.
    fn err_on(&self, threshold: u32) -> Severity {
        if self.level < threshold {
            Severity::Warning
        } else {
            Severity::Error
        }
    }

    fn not_empty(
        &mut self,
        sev: Severity,
        field: &str,
        hint: Option<&str>,
        v: Option<&str>,
        pos: Pos,
    ) -> bool {
        if present(v) {
            return true;
        }
        self.add(sev, field, hint, "is missing.", pos);
        false
    }

    fn id(
        &mut self,
        sev: Severity,
        field: &str,
        hint: Option<&str>,
        v: Option<&str>,
        pos: Pos,
    ) -> bool {
        if !self.not_empty(sev, field, hint, v, pos) {
            return false;
        }
        let v = v.unwrap_or_default();
        if !valid_id(v) {
            self.add(
                sev,
                field,
                hint,
                &format!("with value '{v}' does not match a valid id pattern."),
                pos,
            );
            return false;
        }
        true
    }

    fn id_wildcards(&mut self, field: &str, hint: Option<&str>, v: Option<&str>, pos: Pos) {
        if !self.not_empty(Severity::Warning, field, hint, v, pos) {
            return;
        }
        let v = v.unwrap_or_default();
        if !v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '?' | '*'))
        {
            self.add(
                Severity::Warning,
                field,
                hint,
                &format!("with value '{v}' does not match a valid id pattern."),
                pos,
            );
        }
    }

    fn boolean(
        &mut self,
        sev: Severity,
        field: &str,
        hint: Option<&str>,
        v: Option<&str>,
        pos: Pos,
    ) {
        if let Some(s) = v.filter(|s| !s.is_empty()) {
            if !s.eq_ignore_ascii_case("true") && !s.eq_ignore_ascii_case("false") {
                self.add(
                    sev,
                    field,
                    hint,
                    &format!("must be 'true' or 'false' but is '{s}'."),
                    pos,
                );
            }
        }
    }

    fn one_of(
        &mut self,
        sev: Severity,
        field: &str,
        hint: Option<&str>,
        v: Option<&str>,
        values: &[&str],
        pos: Pos,
    ) {
        if let Some(s) = v.filter(|s| !s.is_empty()) {
            if !values.contains(&s) {
                self.add(
                    sev,
                    field,
                    hint,
                    &format!("must be one of [{}] but is '{s}'.", values.join(", ")),
                    pos,
                );
            }
        }
    }

    fn banned(
        &mut self,
        sev: Severity,
        field: &str,
        hint: Option<&str>,
        v: Option<&str>,
        pos: Pos,
    ) -> bool {
        if let Some(c) = v.and_then(|s| s.chars().rev().find(|c| "\\/:\"<>|?*".contains(*c))) {
            self.add(
                sev,
                field,
                hint,
                &format!("must not contain any of these characters \\/:\"<>|?* but found {c}"),
                pos,
            );
            return false;
        }
        true
    }

    fn version(
        &mut self,
        sev: Severity,
        field: &str,
        hint: Option<&str>,
        v: Option<&str>,
        pos: Pos,
    ) -> bool {
        let Some(s) = v.filter(|s| !s.is_empty()) else {
            return true;
        };
        if s.contains("${") {
            self.add(
                sev,
                field,
                hint,
                &format!("must be a valid version but is '{s}'."),
                pos,
            );
            return false;
        }
        self.banned(sev, field, hint, Some(s), pos)
    }
}

/// What [`V::not_empty`] accepts.
fn present(v: Option<&str>) -> bool {
    v.is_some_and(|s| !s.is_empty())
}

/// What [`V::id`] accepts besides presence: Maven's `[A-Za-z0-9_\-.]+`.
fn valid_id(v: &str) -> bool {
    v.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn clean(s: Option<&str>) -> &str {
    s.map(str::trim).unwrap_or("")
}

/// `validateRawModel`: checks of the model as read. Returns the problems found.
pub fn validate_raw(m: &Model, level: u32, source: &str) -> Vec<ModelProblem> {
    let mut v = V {
        level,
        source,
        out: Vec::new(),
    };
    if let Some(p) = &m.parent {
        v.not_empty(
            Severity::Fatal,
            "parent.groupId",
            None,
            p.group_id.as_deref(),
            p.pos,
        );
        v.not_empty(
            Severity::Fatal,
            "parent.artifactId",
            None,
            p.artifact_id.as_deref(),
            p.pos,
        );
        v.not_empty(
            Severity::Fatal,
            "parent.version",
            None,
            p.version.as_deref(),
            p.pos,
        );
        if clean(p.group_id.as_deref()) == clean(m.group_id.as_deref())
            && clean(p.artifact_id.as_deref()) == clean(m.artifact_id.as_deref())
        {
            v.add(
                Severity::Fatal,
                "parent.artifactId",
                None,
                "must be changed, the parent element cannot have the same groupId:artifactId as the project.",
                p.pos,
            );
        }
        if matches!(clean(p.version.as_deref()), "LATEST" | "RELEASE") {
            v.add(
                Severity::Warning,
                "parent.version",
                None,
                "is either LATEST or RELEASE (both of them are being deprecated)",
                p.pos,
            );
        }
    }
    if level < MAVEN_2_0 {
        return v.out;
    }
    let top = Pos { line: 1, column: 1 };
    v.not_empty(
        Severity::Error,
        "modelVersion",
        None,
        m.model_version.as_deref(),
        top,
    );
    if let Some(mv) = m.model_version.as_deref().filter(|s| !s.is_empty()) {
        if mv != "4.0.0" {
            let cmp = compare_model_versions("4.0.0", mv);
            let (sev, msg) = match cmp {
                Some(std::cmp::Ordering::Less) => (Severity::Fatal, format!("of '{mv}' is newer than the versions supported by this version of Maven: [4.0.0]. Building this project requires a newer version of Maven.")),
                Some(std::cmp::Ordering::Greater) => (Severity::Fatal, format!("of '{mv}' is older than the versions supported by this version of Maven: [4.0.0]. Building this project requires an older version of Maven.")),
                _ => (Severity::Error, format!("must be one of [4.0.0] but is '{mv}'.")),
            };
            v.add(sev, "modelVersion", None, &msg, top);
        }
    }
    let has_expr = |s: Option<&str>| s.is_some_and(|s| s.contains("${"));
    if has_expr(m.group_id.as_deref()) {
        v.add(
            Severity::Warning,
            "groupId",
            None,
            "contains an expression but should be a constant.",
            top,
        );
    }
    if m.parent.is_none() {
        v.not_empty(Severity::Fatal, "groupId", None, m.group_id.as_deref(), top);
    }
    if has_expr(m.artifact_id.as_deref()) {
        v.add(
            Severity::Warning,
            "artifactId",
            None,
            "contains an expression but should be a constant.",
            top,
        );
    }
    v.not_empty(
        Severity::Fatal,
        "artifactId",
        None,
        m.artifact_id.as_deref(),
        top,
    );
    if let Some(ver) = m.version.as_deref() {
        let ci_only = expressions(ver)
            .iter()
            .all(|e| matches!(e.as_str(), "revision" | "sha1" | "changelist"));
        if ver.contains("${") && !ci_only {
            v.add(
                Severity::Warning,
                "version",
                None,
                "contains an expression but should be a constant.",
                top,
            );
        }
    }
    if m.parent.is_none() {
        v.not_empty(Severity::Fatal, "version", None, m.version.as_deref(), top);
    }
    raw_dependencies(&mut v, &m.base.dependencies, "dependencies.dependency.", "");
    let model_key = format!(
        "{}:{}:{}",
        m.group_id.as_deref().unwrap_or("null"),
        m.artifact_id.as_deref().unwrap_or("null"),
        m.version.as_deref().unwrap_or("null")
    );
    for d in &m.base.dependencies {
        let key = d.display_id();
        if key == model_key {
            v.add(
                Severity::Fatal,
                &format!("dependencies.dependency[{key}]"),
                Some(&key),
                "is referencing itself.",
                d.origin.pos,
            );
        }
    }
    if let Some(dm) = &m.base.dependency_management {
        raw_dependencies(
            &mut v,
            dm,
            "dependencyManagement.dependencies.dependency.",
            "",
        );
    }
    raw_repositories(&mut v, &m.base.repositories, "repositories.repository.", "");
    if let Some(build) = m.extra("build") {
        raw_plugins(&mut v, build, "build.plugins.plugin.");
    }
    let mut ids = HashSet::new();
    for p in &m.profiles {
        let prefix = format!("profiles.profile[{}].", p.id);
        if !ids.insert(p.id.clone()) {
            let sev = v.err_on(30);
            v.add(
                sev,
                "profiles.profile.id",
                None,
                &format!(
                    "must be unique but found duplicate profile with id {}",
                    p.id
                ),
                p.pos,
            );
        }
        if let Some(f) = p.activation.as_ref().and_then(|a| a.file.as_ref()) {
            let (path, missing) = match (f.exists.as_deref(), f.missing.as_deref()) {
                (Some(e), _) if !e.is_empty() => (Some(e), false),
                (_, Some(mi)) if !mi.is_empty() => (Some(mi), true),
                _ => (None, false),
            };
            if let Some(path) = path {
                let field = format!(
                    "{prefix}activation{}",
                    if missing {
                        ".file.missing"
                    } else {
                        ".file.exists"
                    }
                );
                if path.contains("${project.basedir}") {
                    v.add(Severity::Warning, &field, None, &format!("Failed to interpolate file location {path} for profile {}: ${{project.basedir}} expression not supported during profile activation, use ${{basedir}} instead", p.id), p.pos);
                } else if path.contains("${project.") {
                    v.add(Severity::Warning, &field, None, &format!("Failed to interpolate file location {path} for profile {}: ${{project.*}} expressions are not supported during profile activation", p.id), p.pos);
                }
            }
        }
        raw_dependencies(
            &mut v,
            &p.base.dependencies,
            &prefix,
            "dependencies.dependency.",
        );
        if let Some(dm) = &p.base.dependency_management {
            raw_dependencies(
                &mut v,
                dm,
                &prefix,
                "dependencyManagement.dependencies.dependency.",
            );
        }
        raw_repositories(
            &mut v,
            &p.base.repositories,
            &prefix,
            "repositories.repository.",
        );
        if let Some(b) = &p.build {
            raw_plugins(&mut v, b, &format!("{prefix}plugins.plugin."));
        }
    }
    v.out
}

/// The `${...}` expressions of a text (`\$\{(.+?)\}`).
fn expressions(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        let after = &rest[i + 2..];
        match after.get(1..).and_then(|t| t.find('}')).map(|j| j + 1) {
            Some(j) => {
                out.push(after[..j].to_string());
                rest = &after[j + 1..];
            }
            None => break,
        }
    }
    out
}

fn compare_model_versions(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    let pa: Vec<&str> = a.split('.').filter(|s| !s.is_empty()).collect();
    let pb: Vec<&str> = b.split('.').filter(|s| !s.is_empty()).collect();
    for (x, y) in pa.iter().zip(&pb) {
        let (x, y) = (x.parse::<i64>().ok()?, y.parse::<i64>().ok()?);
        if x != y {
            return Some(x.cmp(&y));
        }
    }
    Some(pb.len().cmp(&pa.len()))
}

fn raw_dependencies(v: &mut V<'_>, deps: &[Arc<Dependency>], prefix: &str, prefix2: &str) {
    let mut index: HashMap<String, &Dependency> = HashMap::new();
    for d in deps {
        let key = d.management_key();
        let field = |f: &str| format!("{prefix}{prefix2}{f}");
        match d.scope.as_deref() {
            Some("import") => {
                if d.type_ != "pom" {
                    v.add(
                        Severity::Warning,
                        &field("type"),
                        Some(&key),
                        "must be 'pom' to import the managed dependencies.",
                        d.origin.pos,
                    );
                } else if d.classifier.as_deref().is_some_and(|c| !c.is_empty()) {
                    let sev = v.err_on(30);
                    v.add(
                        sev,
                        &field("classifier"),
                        Some(&key),
                        "must be empty, imported POM cannot have a classifier.",
                        d.origin.pos,
                    );
                }
            }
            Some("system") => {
                if v.level >= 31 {
                    v.add(
                        Severity::Warning,
                        &field("scope"),
                        Some(&key),
                        "declares usage of deprecated 'system' scope ",
                        d.origin.pos,
                    );
                }
                if let Some(sp) = d.system_path.as_deref().filter(|s| !s.is_empty()) {
                    if !sp.contains("${") {
                        v.add(
                            Severity::Warning,
                            &field("systemPath"),
                            Some(&key),
                            &format!("should use a variable instead of a hard-coded path {sp}"),
                            d.origin.pos,
                        );
                    } else if sp.contains("${basedir}") || sp.contains("${project.basedir}") {
                        v.add(Severity::Warning, &field("systemPath"), Some(&key), &format!("should not point at files within the project directory, {sp} will be unresolvable by dependent projects"), d.origin.pos);
                    }
                }
            }
            _ => {}
        }
        if matches!(clean(d.version.as_deref()), "LATEST" | "RELEASE") {
            v.add(
                Severity::Warning,
                &field("version"),
                Some(&key),
                "is either LATEST or RELEASE (both of them are being deprecated)",
                d.origin.pos,
            );
        }
        match index.get(&key) {
            Some(existing) => {
                let msg = if existing.version == d.version {
                    format!(
                        "duplicate declaration of version {}",
                        d.version.as_deref().unwrap_or("(?)")
                    )
                } else {
                    format!(
                        "version {} vs {}",
                        existing.version.as_deref().unwrap_or("(?)"),
                        d.version.as_deref().unwrap_or("(?)")
                    )
                };
                let sev = v.err_on(31);
                v.add(
                    sev,
                    &field("(groupId:artifactId:type:classifier)"),
                    None,
                    &format!("must be unique: {key} -> {msg}"),
                    d.origin.pos,
                );
            }
            None => {
                index.insert(key, &**d);
            }
        }
    }
}

fn raw_repositories(v: &mut V<'_>, repos: &[Repository], prefix: &str, prefix2: &str) {
    let mut index: HashMap<Option<String>, &Repository> = HashMap::new();
    for r in repos {
        let pos = r.origin.pos;
        v.not_empty(
            Severity::Error,
            &format!("{prefix}{prefix2}id"),
            None,
            r.id.as_deref(),
            pos,
        );
        v.not_empty(
            Severity::Error,
            &format!(
                "{prefix}{prefix2}[{}].url",
                r.id.as_deref().unwrap_or("null")
            ),
            None,
            r.url.as_deref(),
            pos,
        );
        match index.get(&r.id) {
            Some(existing) => {
                let sev = v.err_on(30);
                v.add(
                    sev,
                    &format!("{prefix}{prefix2}id"),
                    None,
                    &format!(
                        "must be unique: {} -> {} vs {}",
                        r.id.as_deref().unwrap_or("null"),
                        existing.url.as_deref().unwrap_or("null"),
                        r.url.as_deref().unwrap_or("null")
                    ),
                    pos,
                );
            }
            None => {
                index.insert(r.id.clone(), r);
            }
        }
    }
}

fn plugin_key(p: &XNode) -> String {
    format!(
        "{}:{}",
        p.child_text("groupId")
            .unwrap_or("org.apache.maven.plugins"),
        p.child_text("artifactId").unwrap_or("null")
    )
}

fn raw_plugins(v: &mut V<'_>, build: &XNode, prefix: &str) {
    let lists = [
        (build.child("plugins"), prefix.to_string()),
        (
            build
                .child("pluginManagement")
                .and_then(|pm| pm.child("plugins")),
            prefix.replace("plugins.plugin.", "pluginManagement.plugins.plugin."),
        ),
    ];
    for (list, prefix) in lists {
        let Some(list) = list else { continue };
        let mut seen = HashSet::new();
        for p in &list.children {
            let field = format!("{prefix}(groupId:artifactId)");
            if p.child_text("groupId").is_some_and(|g| g.trim().is_empty()) {
                v.add(
                    Severity::Fatal,
                    &field,
                    None,
                    "groupId of a plugin must be defined. ",
                    p.pos,
                );
            }
            if p.child_text("artifactId")
                .is_none_or(|a| a.trim().is_empty())
            {
                v.add(
                    Severity::Fatal,
                    &field,
                    None,
                    "artifactId of a plugin must be defined. ",
                    p.pos,
                );
            }
            if p.child_text("version").is_some_and(|s| s.trim().is_empty()) {
                v.add(
                    Severity::Fatal,
                    &field,
                    None,
                    "version of a plugin must be defined. ",
                    p.pos,
                );
            }
            let key = plugin_key(p);
            if !seen.insert(key.clone()) {
                let sev = v.err_on(31);
                v.add(
                    sev,
                    &field,
                    None,
                    &format!("must be unique but found duplicate declaration of plugin {key}"),
                    p.pos,
                );
            }
            let mut exec_ids = HashSet::new();
            for e in p
                .child("executions")
                .map(|e| e.children.as_slice())
                .unwrap_or_default()
            {
                let id = e.child_text("id").unwrap_or("default").to_string();
                if !exec_ids.insert(id.clone()) {
                    v.add(
                        Severity::Error,
                        &format!("{prefix}[{key}].executions.execution.id"),
                        None,
                        &format!("must be unique but found duplicate execution with id {id}"),
                        e.pos,
                    );
                }
            }
        }
    }
}

/// `validateEffectiveModel`: checks of the finished model.
#[cfg(test)]
pub fn validate_effective(m: &Model, level: u32, source: &str) -> Vec<ModelProblem> {
    validate_effective_sharing(m, level, source, None)
}

/// [`validate_effective`], told which dependency management entries are known to pass
/// ([`management_entry_valid`] at `level`; a parent's management that every child inherits):
/// they are not checked again.
pub(crate) fn validate_effective_sharing(
    m: &Model,
    level: u32,
    source: &str,
    valid: Option<KnownEntries<'_>>,
) -> Vec<ModelProblem> {
    let mut v = V {
        level,
        source,
        out: Vec::new(),
    };
    let top = Pos { line: 1, column: 1 };
    v.not_empty(
        Severity::Error,
        "modelVersion",
        None,
        m.model_version.as_deref(),
        top,
    );
    v.id(Severity::Error, "groupId", None, m.group_id.as_deref(), top);
    v.id(
        Severity::Error,
        "artifactId",
        None,
        m.artifact_id.as_deref(),
        top,
    );
    v.not_empty(Severity::Error, "packaging", None, Some(&m.packaging), top);
    if !m.base.modules.is_empty() {
        if m.packaging != "pom" {
            v.add(
                Severity::Error,
                "packaging",
                None,
                &format!(
                    "with value '{}' is invalid. Aggregator projects require 'pom' as packaging.",
                    m.packaging
                ),
                top,
            );
        }
        for (i, module) in m.base.modules.iter().enumerate() {
            if module.trim().is_empty() {
                v.add(
                    Severity::Error,
                    &format!("modules.module[{i}]"),
                    None,
                    "has been specified without a path to the project directory.",
                    top,
                );
            }
        }
    }
    v.not_empty(Severity::Error, "version", None, m.version.as_deref(), top);
    let model_key = format!(
        "{}:{}:{}",
        m.group_id.as_deref().unwrap_or("null"),
        m.artifact_id.as_deref().unwrap_or("null"),
        m.version.as_deref().unwrap_or("null")
    );
    for d in &m.base.dependencies {
        effective_dependency(&mut v, d, false, "dependencies.dependency.");
        if level >= MAVEN_2_0 {
            let key = d.management_key();
            let sev = v.err_on(30);
            v.boolean(
                sev,
                "dependencies.dependency.optional",
                Some(&key),
                d.optional.as_deref(),
                d.origin.pos,
            );
            v.version(
                sev,
                "dependencies.dependency.version",
                Some(&key),
                d.version.as_deref(),
                d.origin.pos,
            );
            v.one_of(
                Severity::Warning,
                "dependencies.dependency.scope",
                Some(&key),
                d.scope.as_deref(),
                &["provided", "compile", "runtime", "test", "system"],
                d.origin.pos,
            );
            let id = d.display_id();
            if id == model_key {
                v.add(
                    Severity::Fatal,
                    &format!("dependencies.dependency.[{id}]"),
                    Some(&id),
                    "is referencing itself.",
                    d.origin.pos,
                );
            }
        }
    }
    let whole = valid.is_some_and(|valid| valid.whole_management);
    if let Some(dm) = m.base.dependency_management.as_ref().filter(|_| !whole) {
        for d in dm {
            if !valid.is_some_and(|valid| valid.entries.contains(d)) {
                management_entry(&mut v, d);
            }
        }
    }
    if level < MAVEN_2_0 {
        return v.out;
    }
    let mut modules = HashSet::new();
    for (i, module) in m.base.modules.iter().enumerate() {
        if !modules.insert(module) {
            v.add(
                Severity::Error,
                &format!("modules.module[{i}]"),
                None,
                &format!("specifies duplicate child module {module}"),
                top,
            );
        }
    }
    let sev31 = v.err_on(31);
    v.banned(sev31, "version", None, m.version.as_deref(), top);
    if let Some(ver) = m.version.as_deref() {
        if ver.ends_with("SNAPSHOT") && !ver.ends_with("-SNAPSHOT") {
            v.add(
                sev31,
                "version",
                None,
                "uses an unsupported snapshot version format, should be '*-SNAPSHOT' instead.",
                top,
            );
        }
    }
    for build in m.extra_layers("build") {
        effective_build(&mut v, build);
    }
    for reporting in m.extra_layers("reporting") {
        for p in reporting
            .child("plugins")
            .map(|p| p.children.as_slice())
            .unwrap_or_default()
        {
            v.not_empty(
                Severity::Error,
                "reporting.plugins.plugin.artifactId",
                None,
                p.child_text("artifactId"),
                p.pos,
            );
            v.not_empty(
                Severity::Error,
                "reporting.plugins.plugin.groupId",
                None,
                Some(
                    p.child_text("groupId")
                        .unwrap_or("org.apache.maven.plugins"),
                ),
                p.pos,
            );
        }
    }
    for r in &m.base.repositories {
        effective_repository(
            &mut v,
            r.id.as_deref(),
            &r.layout,
            "repositories.repository.",
            r.origin.pos,
        );
    }
    if let Some(dm) = &m.base.distribution_management {
        if dm.child("status").is_some() {
            v.add(
                Severity::Error,
                "distributionManagement.status",
                None,
                "must not be specified.",
                dm.pos,
            );
        }
        for (name, prefix) in [
            ("repository", "distributionManagement.repository."),
            (
                "snapshotRepository",
                "distributionManagement.snapshotRepository.",
            ),
        ] {
            if let Some(r) = dm.child(name) {
                effective_repository(
                    &mut v,
                    r.child_text("id"),
                    r.child_text("layout").unwrap_or("default"),
                    prefix,
                    r.pos,
                );
            }
        }
    }
    v.out
}

/// Whether the checks of a dependency management entry in an effective model find nothing at
/// `level`, whatever the model. An entry with a system path is never said to pass: whether
/// its file exists is looked up each time.
pub(crate) fn management_entry_valid(d: &Dependency, level: u32) -> bool {
    if d.system_path.is_some() || d.scope.as_deref() == Some("system") {
        return false;
    }
    let mut v = V {
        level,
        source: "",
        out: Vec::new(),
    };
    management_entry(&mut v, d);
    v.out.is_empty()
}

/// The checks of one dependency management entry of an effective model.
fn management_entry(v: &mut V<'_>, d: &Dependency) {
    let prefix = "dependencyManagement.dependencies.dependency.";
    effective_dependency(v, d, true, prefix);
    if v.level >= MAVEN_2_0 {
        let key = d.management_key();
        let sev = v.err_on(30);
        v.boolean(
            sev,
            &format!("{prefix}optional"),
            Some(&key),
            d.optional.as_deref(),
            d.origin.pos,
        );
        v.one_of(
            Severity::Warning,
            &format!("{prefix}scope"),
            Some(&key),
            d.scope.as_deref(),
            &["provided", "compile", "runtime", "test", "system", "import"],
            d.origin.pos,
        );
    }
}

fn effective_dependency(v: &mut V<'_>, d: &Dependency, management: bool, prefix: &str) {
    // Every POM's effective model carries its parents' management: messages (and the key they
    // name) are only built for a check that fails.
    let key = std::cell::OnceCell::new();
    let key = || key.get_or_init(|| d.management_key()).clone();
    let pos = d.origin.pos;
    let id_ok = |s: Option<&str>| present(s) && valid_id(s.unwrap_or_default());
    if !id_ok(d.artifact_id.as_deref()) {
        v.id(
            Severity::Error,
            &format!("{prefix}artifactId"),
            Some(&key()),
            d.artifact_id.as_deref(),
            pos,
        );
    }
    if !id_ok(d.group_id.as_deref()) {
        v.id(
            Severity::Error,
            &format!("{prefix}groupId"),
            Some(&key()),
            d.group_id.as_deref(),
            pos,
        );
    }
    if !management {
        if !present(Some(&d.type_)) {
            v.not_empty(
                Severity::Error,
                &format!("{prefix}type"),
                Some(&key()),
                Some(&d.type_),
                pos,
            );
        }
        if !present(d.version.as_deref()) {
            v.not_empty(
                Severity::Error,
                &format!("{prefix}version"),
                Some(&key()),
                d.version.as_deref(),
                pos,
            );
        }
    }
    let system_path = d.system_path.as_deref().filter(|s| !s.is_empty());
    if d.scope.as_deref() == Some("system") {
        match system_path {
            None => v.add(
                Severity::Error,
                &format!("{prefix}systemPath"),
                Some(&key()),
                "is missing.",
                pos,
            ),
            Some(p) if !std::path::Path::new(p).is_absolute() => v.add(
                Severity::Error,
                &format!("{prefix}systemPath"),
                Some(&key()),
                &format!("must specify an absolute path but is {p}"),
                pos,
            ),
            Some(p) if !std::path::Path::new(p).is_file() => v.add(
                Severity::Warning,
                &format!("{prefix}systemPath"),
                Some(&key()),
                &format!("refers to a non-existing file {p}"),
                pos,
            ),
            Some(_) => {}
        }
    } else if system_path.is_some() {
        v.add(
            Severity::Error,
            &format!("{prefix}systemPath"),
            Some(&key()),
            "must be omitted. This field may only be specified for a dependency with system scope.",
            pos,
        );
    }
    if v.level >= MAVEN_2_0 {
        for e in &d.exclusions {
            if v.level < MAVEN_3_0 {
                v.id(
                    Severity::Warning,
                    &format!("{prefix}exclusions.exclusion.groupId"),
                    Some(&key()),
                    e.group_id.as_deref(),
                    pos,
                );
                v.id(
                    Severity::Warning,
                    &format!("{prefix}exclusions.exclusion.artifactId"),
                    Some(&key()),
                    e.artifact_id.as_deref(),
                    pos,
                );
            } else {
                v.id_wildcards(
                    &format!("{prefix}exclusions.exclusion.groupId"),
                    Some(&key()),
                    e.group_id.as_deref(),
                    pos,
                );
                v.id_wildcards(
                    &format!("{prefix}exclusions.exclusion.artifactId"),
                    Some(&key()),
                    e.artifact_id.as_deref(),
                    pos,
                );
            }
        }
    }
}

fn effective_repository(v: &mut V<'_>, id: Option<&str>, layout: &str, prefix: &str, pos: Pos) {
    let sev31 = v.err_on(31);
    v.banned(sev31, &format!("{prefix}id"), None, id, pos);
    if id == Some("local") {
        v.add(sev31, &format!("{prefix}id"), None, "must not be 'local', this identifier is reserved for the local repository, using it for other repositories will corrupt your repository metadata.", pos);
    }
    if layout == "legacy" {
        v.add(
            Severity::Warning,
            &format!("{prefix}layout"),
            id,
            "uses the unsupported value 'legacy', artifact resolution might fail.",
            pos,
        );
    }
}

fn effective_build(v: &mut V<'_>, build: &XNode) {
    let sev30 = v.err_on(30);
    for p in build
        .child("plugins")
        .map(|p| p.children.as_slice())
        .unwrap_or_default()
    {
        let key = plugin_key(p);
        v.not_empty(
            Severity::Error,
            "build.plugins.plugin.artifactId",
            None,
            p.child_text("artifactId"),
            p.pos,
        );
        v.not_empty(
            Severity::Error,
            "build.plugins.plugin.groupId",
            None,
            Some(
                p.child_text("groupId")
                    .unwrap_or("org.apache.maven.plugins"),
            ),
            p.pos,
        );
        if let Some(ver) = p.child_text("version") {
            if v.version(
                sev30,
                "build.plugins.plugin.version",
                Some(&key),
                Some(ver),
                p.pos,
            ) && (ver.is_empty() || ver == "RELEASE" || ver == "LATEST")
            {
                v.add(
                    sev30,
                    "build.plugins.plugin.version",
                    Some(&key),
                    &format!("must be a valid version but is '{ver}'."),
                    p.pos,
                );
            }
        }
        v.boolean(
            sev30,
            "build.plugins.plugin.inherited",
            Some(&key),
            p.child_text("inherited"),
            p.pos,
        );
        v.boolean(
            sev30,
            "build.plugins.plugin.extensions",
            Some(&key),
            p.child_text("extensions"),
            p.pos,
        );
        let prefix = format!("build.plugins.plugin[{key}].dependencies.dependency.");
        for d in p
            .child("dependencies")
            .map(|d| d.children.as_slice())
            .unwrap_or_default()
        {
            let dk = format!(
                "{}:{}:{}{}",
                d.child_text("groupId").unwrap_or("null"),
                d.child_text("artifactId").unwrap_or("null"),
                d.child_text("type").unwrap_or("jar"),
                d.child_text("classifier")
                    .map(|c| format!(":{c}"))
                    .unwrap_or_default()
            );
            v.id(
                Severity::Error,
                &format!("{prefix}artifactId"),
                Some(&dk),
                d.child_text("artifactId"),
                d.pos,
            );
            v.id(
                Severity::Error,
                &format!("{prefix}groupId"),
                Some(&dk),
                d.child_text("groupId"),
                d.pos,
            );
            v.not_empty(
                Severity::Error,
                &format!("{prefix}type"),
                Some(&dk),
                Some(d.child_text("type").unwrap_or("jar")),
                d.pos,
            );
            v.not_empty(
                Severity::Error,
                &format!("{prefix}version"),
                Some(&dk),
                d.child_text("version"),
                d.pos,
            );
            v.version(
                sev30,
                &format!("{prefix}version"),
                Some(&dk),
                d.child_text("version"),
                d.pos,
            );
            v.one_of(
                sev30,
                &format!("{prefix}scope"),
                Some(&dk),
                Some(d.child_text("scope").unwrap_or("compile")),
                &["compile", "runtime", "system"],
                d.pos,
            );
        }
    }
    for (list, prefix) in [
        ("resources", "build.resources.resource."),
        ("testResources", "build.testResources.testResource."),
    ] {
        for r in build
            .child(list)
            .map(|r| r.children.as_slice())
            .unwrap_or_default()
        {
            v.not_empty(
                Severity::Error,
                &format!("{prefix}directory"),
                None,
                r.child_text("directory"),
                r.pos,
            );
            v.boolean(
                sev30,
                &format!("{prefix}filtering"),
                r.child_text("directory"),
                r.child_text("filtering"),
                r.pos,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::pom::model::from_xnode;
    use crate::resolution::pom::problem::has_errors;
    use crate::resolution::pom::xml::read_pom;

    fn model(xml: &str) -> Model {
        from_xnode(read_pom(xml.as_bytes()).unwrap().root, "t")
    }

    #[test]
    fn minimal_level_verdicts() {
        let ok = "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>";
        let cases = [
            ("<dependencies/>", false),
            ("<dependencies><dependency><groupId>g</groupId><artifactId>b</artifactId></dependency></dependencies>", true),
            ("<dependencies><dependency><groupId>g x</groupId><artifactId>b</artifactId><version>1</version></dependency></dependencies>", true),
            ("<dependencies><dependency><groupId>g</groupId><artifactId>b</artifactId><version>1</version><scope>system</scope><systemPath>lib/x.jar</systemPath></dependency></dependencies>", true),
            ("<dependencies><dependency><groupId>g</groupId><artifactId>b</artifactId><version>1</version><scope>system</scope><systemPath>/nonexistent/x.jar</systemPath></dependency></dependencies>", false),
            ("<dependencies><dependency><groupId>g</groupId><artifactId>b</artifactId><version>1</version><systemPath>/x.jar</systemPath></dependency></dependencies>", true),
            ("<modules><module>m</module></modules>", true),
            ("<dependencies><dependency><groupId>g</groupId><artifactId>b</artifactId><version>1</version><scope>bogus</scope><optional>maybe</optional></dependency></dependencies>", false),
        ];
        for (body, invalid) in cases {
            let m = model(&format!("{ok}{body}</project>"));
            let p = validate_effective(&m, MINIMAL, "t");
            assert_eq!(has_errors(&p), invalid, "{body}: {p:?}");
        }
        let m = model(
            "<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>",
        );
        assert!(
            has_errors(&validate_effective(&m, MINIMAL, "t")),
            "modelVersion is required"
        );
        let m = model("<project><parent><groupId>g</groupId><artifactId>a</artifactId></parent><groupId>g</groupId><artifactId>a</artifactId></project>");
        let p = validate_raw(&m, MINIMAL, "t");
        assert_eq!(
            p.iter().filter(|p| p.severity == Severity::Fatal).count(),
            2,
            "{p:?}"
        );
    }

    #[test]
    fn project_level_is_stricter() {
        let m = model("<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>\
            <dependencies><dependency><groupId>g</groupId><artifactId>b</artifactId><version>${v}</version><optional>maybe</optional></dependency></dependencies>\
            <repositories><repository><id>r</id><url>u</url></repository><repository><id>r</id><url>v</url></repository></repositories></project>");
        assert!(has_errors(&validate_effective(&m, MAVEN_3_0, "t")));
        assert!(has_errors(&validate_raw(&m, MAVEN_3_0, "t")));
        assert!(!has_errors(&validate_raw(&m, MINIMAL, "t")));
        assert_eq!(expressions("${a}-${b.c}"), ["a", "b.c"]);
    }
}
