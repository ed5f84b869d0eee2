//! Model interpolation as Maven 3.8.7's `StringVisitorModelInterpolator` does it: every string
//! of the effective model (coordinates, properties, dependencies, repositories, profiles,
//! configuration DOMs, ...) goes through plexus-interpolation's `StringSearchInterpolator`.
//!
//! Expressions `${x}` are looked up in this order, first hit wins (Maven's
//! `AbstractStringBasedModelInterpolator.createValueSources`):
//!
//! 1. for a project file only: `basedir`/`project.basedir`, `project.baseUri`,
//!    `maven.build.timestamp`;
//! 2. `project.*` / `pom.*`: the model's own fields (`${project.version}`, `${pom.parent.groupId}`,
//!    `${project.build.directory}`, ...);
//! 3. user properties (`-D`; empty for dependency POMs, whose `-D`s count as system properties);
//! 4. the model's `<properties>` (inherited and from active profiles);
//! 5. system properties, then `env.` + the expression among them;
//! 6. the model's fields without prefix (`${version}`, `${parent.version}`).
//!
//! Values are interpolated recursively; an expression that resolves to a text containing
//! itself is skipped in favour of a later source, and a cycle (`a` → `${b}` → `${a}`) is an
//! ERROR that leaves the field empty (`Resolving expression: '${a}': Detected the following
//! recursive expression cycle in 'a': [a, b]`). Unresolved expressions stay as written.

use super::model::{Dependency, ExpressionUse, KnownEntries, Model, ModelBase, Origin, Resolution};
use super::problem::ModelProblem;
use super::xml::XNode;
use crate::settings::Severity;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// The expressions whose values are paths aligned to the project directory
/// (`PathTranslatingPostProcessor`).
const TRANSLATED_PATHS: [&str; 7] = [
    "build.directory",
    "build.outputDirectory",
    "build.testOutputDirectory",
    "build.sourceDirectory",
    "build.testSourceDirectory",
    "build.scriptSourceDirectory",
    "reporting.outputDirectory",
];

/// Upper bound on nested lookups for one field: guards against inputs that expand forever.
const MAX_DEPTH: usize = 200;

/// How many resolutions one field's explanation records (beyond, the explanation is cut).
const MAX_RECORDED: usize = 64;

/// Upper bound on the length of one interpolated value (`a=${b}${b}`, `b=${c}${c}`, ... doubles
/// at every level): Maven would run out of memory; this refuses the POM instead.
const MAX_VALUE_BYTES: usize = 1 << 20;

/// Where the answer to one expression came from.
#[derive(Debug, Clone)]
enum Answer {
    Model,
    Property(Origin),
    User,
    System,
    Environment,
    Builtin,
}

impl Answer {
    fn describe(&self) -> String {
        match self {
            Answer::Model => "the model".into(),
            Answer::Property(o) => format!("property defined in {}", o.describe()),
            Answer::User => "user property (-D)".into(),
            Answer::System => "system property".into(),
            Answer::Environment => "environment variable".into(),
            Answer::Builtin => "the build".into(),
        }
    }
}

/// Inputs of one interpolation besides the model.
pub struct Context<'a> {
    /// User properties (`-D` of a project build; empty for dependency POMs).
    pub user_properties: &'a HashMap<String, String>,
    /// System properties (for dependency POMs: the session's system and user properties).
    pub system_properties: &'a HashMap<String, String>,
    /// The project directory, for a project file.
    pub project_dir: Option<&'a Path>,
    /// How problems name the POM (its file); the model's coordinates when empty.
    pub source: &'a str,
}

struct Interpolator<'a> {
    model: &'a Model,
    /// The model's properties as the interpolation has left them so far: Maven rewrites the
    /// live `Properties` in place, in Java's order (`java_order`), and the fields visited
    /// after a property read its new value.
    properties: HashMap<String, (String, Origin)>,
    /// The property names in Java's order (`${project.properties}` prints the map).
    property_order: Vec<String>,
    /// Whether the properties being visited are the model's own (rewritten in place), not a
    /// profile's.
    rewriting_properties: bool,
    /// How each rewritten property got its value (for explanations: `${v}` read after `v`
    /// was rewritten still says that `v` came from `${project.version}`).
    rewritten: HashMap<String, Vec<Resolution>>,
    ctx: &'a Context<'a>,
    basedir: Option<String>,
    base_uri: Option<String>,
    timestamp: Option<String>,
    cache: HashMap<String, Option<String>>,
    /// Expressions already resolved without error, with where the answer came from. Resolving
    /// one again gives the same text (the sources do not change and a cycle would have shown),
    /// so this only saves the work: `a=${b}${b}`, `b=${c}${c}`, ... stays linear.
    memo: HashMap<String, (String, Vec<Resolution>)>,
    problems: Vec<ModelProblem>,
    /// Top-level resolutions of the current field (for explanations).
    uses: Vec<Resolution>,
    /// Entries known to hold no expression (shared with other models): left alone unread.
    inert: Option<KnownEntries<'a>>,
}

/// True when `s` holds `${` (it runs on every string of every model; `str::contains` sets a
/// substring search up each time).
pub(crate) fn has_expression(s: &str) -> bool {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = b[from..].iter().position(|&c| c == b'$') {
        if b.get(from + i + 1) == Some(&b'{') {
            return true;
        }
        from += i + 1;
    }
    false
}

fn trim_prefix(expr: &str) -> Option<&str> {
    for p in ["pom.", "project."] {
        if let Some(rest) = expr.strip_prefix(p) {
            return Some(rest.strip_prefix('.').unwrap_or(rest));
        }
    }
    None
}

/// The recursion key: the expression without a `project.`/`pom.` prefix.
fn naked(expr: &str) -> &str {
    trim_prefix(expr).unwrap_or(expr)
}

impl<'a> Interpolator<'a> {
    fn new(model: &'a Model, ctx: &'a Context<'a>) -> Self {
        let mut properties = HashMap::new();
        let mut property_order = Vec::new();
        for p in &model.base.properties {
            if properties
                .insert(p.key.clone(), (p.value.clone(), p.origin.clone()))
                .is_none()
            {
                property_order.push(p.key.clone());
            }
        }
        let basedir = ctx.project_dir.map(|d| d.display().to_string());
        let base_uri = ctx.project_dir.map(|d| {
            url::Url::from_directory_path(d)
                .map(|u| u.to_string())
                .unwrap_or_else(|_| format!("file:{}/", d.display()))
        });
        let timestamp = ctx.project_dir.map(|_| {
            let format = model
                .base
                .property("maven.build.timestamp.format")
                .unwrap_or("yyyy-MM-dd'T'HH:mm:ss'Z'");
            java_date_format(format, chrono::Utc::now())
        });
        Interpolator {
            model,
            properties,
            property_order,
            rewriting_properties: true,
            rewritten: HashMap::new(),
            ctx,
            basedir,
            base_uri,
            timestamp,
            cache: HashMap::new(),
            memo: HashMap::new(),
            problems: Vec::new(),
            uses: Vec::new(),
            inert: None,
        }
    }

    /// The value sources in Maven's order; each returns the raw (uninterpolated) answer.
    fn sources(&self, expr: &str) -> Vec<(String, Answer)> {
        let mut out = Vec::new();
        if let Some(basedir) = &self.basedir {
            let e = trim_prefix(expr).unwrap_or(expr);
            if e == "basedir" {
                out.push((basedir.clone(), Answer::Builtin));
            }
            if trim_prefix(expr) == Some("baseUri") {
                if let Some(u) = &self.base_uri {
                    out.push((u.clone(), Answer::Builtin));
                }
            }
            if expr == "maven.build.timestamp" {
                if let Some(t) = &self.timestamp {
                    out.push((t.clone(), Answer::Builtin));
                }
            }
        }
        if let Some(rest) = trim_prefix(expr) {
            if let Some(v) = self.reflect(rest) {
                out.push((v, Answer::Model));
            }
        }
        if let Some(v) = self.ctx.user_properties.get(expr) {
            out.push((v.clone(), Answer::User));
        }
        if let Some((v, o)) = self.properties.get(expr) {
            out.push((v.clone(), Answer::Property(o.clone())));
        }
        if let Some(v) = self.ctx.system_properties.get(expr) {
            out.push((v.clone(), Answer::System));
        }
        if let Some(v) = self.ctx.system_properties.get(&format!("env.{expr}")) {
            out.push((v.clone(), Answer::Environment));
        }
        if let Some(v) = self.reflect(expr) {
            out.push((v, Answer::Model));
        }
        out
    }

    /// The model's fields by reflection; `properties` is the live map (its `toString()`).
    fn reflect(&self, path: &str) -> Option<String> {
        if path == "properties" {
            return Some(super::java_order::to_java_string(
                self.property_order
                    .iter()
                    .filter_map(|k| Some((k.as_str(), self.properties.get(k)?.0.as_str()))),
            ));
        }
        reflect(self.model, path)
    }

    /// One field: `None` when interpolation failed (Maven sets the field to null).
    fn field(&mut self, value: &str) -> Option<String> {
        if !has_expression(value) {
            return Some(value.to_string());
        }
        if let Some(c) = self.cache.get(value) {
            return c.clone();
        }
        let mut stack = Vec::new();
        let mut unresolvable = HashSet::new();
        let result = self.interpolate(value, &mut stack, &mut unresolvable, 0);
        let out = match result {
            Ok(v) => Some(v),
            Err(message) => {
                self.problems.push(ModelProblem::new(
                    Severity::Error,
                    if self.ctx.source.is_empty() {
                        self.model.label.to_string()
                    } else {
                        self.ctx.source.to_string()
                    },
                    message,
                ));
                None
            }
        };
        self.cache.insert(value.to_string(), out.clone());
        out
    }

    fn cycle(stack: &[String], real: &str, whole: &str) -> String {
        let key = naked(real);
        let cycle: Vec<&str> = match stack.iter().position(|e| e == key) {
            Some(i) => stack[i..].iter().map(String::as_str).collect(),
            None => Vec::new(),
        };
        format!(
            "Resolving expression: '{whole}': Detected the following recursive expression cycle in '{real}': [{}]",
            cycle.join(", ")
        )
    }

    fn interpolate(
        &mut self,
        input: &str,
        stack: &mut Vec<String>,
        unresolvable: &mut HashSet<String>,
        depth: usize,
    ) -> Result<String, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "Resolving expression: '{input}': expressions nested deeper than {MAX_DEPTH} levels"
            ));
        }
        let Some(mut start) = input.find("${") else {
            return Ok(input.to_string());
        };
        let mut result = String::with_capacity(input.len());
        let mut copied = 0usize;
        loop {
            result.push_str(&input[copied..start]);
            let Some(rel_end) = input[start + 1..].find('}') else {
                result.push_str(&input[start..]);
                return Ok(result);
            };
            let end = start + 1 + rel_end;
            let whole = &input[start..=end];
            let inner = &input[start + 2..end];
            let mut resolved = false;
            if !unresolvable.contains(whole) {
                let real = inner.strip_prefix('.').unwrap_or(inner);
                let key = naked(real).to_string();
                if stack.contains(&key) {
                    return Err(Self::cycle(stack, real, whole));
                }
                if let Some((v, chain)) = self.memo.get(real) {
                    if result.len() + v.len() > MAX_VALUE_BYTES {
                        return Err(format!(
                            "Resolving expression: '{whole}': the value grows beyond {MAX_VALUE_BYTES} bytes"
                        ));
                    }
                    let room = MAX_RECORDED.saturating_sub(self.uses.len());
                    self.uses
                        .extend(chain.iter().take(room).map(|r| Resolution {
                            depth: r.depth + depth,
                            ..r.clone()
                        }));
                    result.push_str(v);
                    copied = end + 1;
                    match input[copied..].find("${") {
                        Some(rel) => {
                            start = copied + rel;
                            continue;
                        }
                        None => break,
                    }
                }
                stack.push(key);
                let mut value = None;
                let mut best = false;
                for (v, answer) in self.sources(real) {
                    if v.contains(whole) {
                        best = true;
                        continue;
                    }
                    value = Some((v, answer));
                    break;
                }
                let outcome = match value {
                    None if best => Err(Self::cycle(stack, real, whole)),
                    None => {
                        unresolvable.insert(whole.to_string());
                        Ok(None)
                    }
                    Some((v, answer)) => {
                        let mark = self.uses.len();
                        let inner_value = self.interpolate(&v, stack, unresolvable, depth + 1);
                        inner_value.map(|iv| {
                            let iv = self.post_process(real, iv);
                            if self.uses.len() < MAX_RECORDED {
                                self.uses.insert(
                                    mark,
                                    Resolution {
                                        depth,
                                        name: real.to_string(),
                                        value: iv.clone(),
                                        source: answer.describe(),
                                    },
                                );
                                if let (Answer::Property(_), Some(how)) =
                                    (&answer, self.rewritten.get(real))
                                {
                                    let room = MAX_RECORDED.saturating_sub(self.uses.len());
                                    let how: Vec<Resolution> = how
                                        .iter()
                                        .take(room)
                                        .map(|r| Resolution {
                                            depth: r.depth + depth + 1,
                                            ..r.clone()
                                        })
                                        .collect();
                                    self.uses.splice(mark + 1..mark + 1, how);
                                }
                            }
                            let chain = self.uses[mark.min(self.uses.len())..]
                                .iter()
                                .map(|r| Resolution {
                                    depth: r.depth - depth,
                                    ..r.clone()
                                })
                                .collect();
                            self.memo.insert(real.to_string(), (iv.clone(), chain));
                            Some(iv)
                        })
                    }
                };
                stack.pop();
                if let Some(v) = outcome? {
                    if result.len() + v.len() > MAX_VALUE_BYTES {
                        return Err(format!(
                            "Resolving expression: '{whole}': the value grows beyond {MAX_VALUE_BYTES} bytes"
                        ));
                    }
                    result.push_str(&v);
                    resolved = true;
                }
            }
            if !resolved {
                result.push_str(whole);
            }
            copied = end + 1;
            match input[copied..].find("${") {
                Some(rel) => start = copied + rel,
                None => break,
            }
        }
        result.push_str(&input[copied..]);
        Ok(result)
    }

    /// `PathTranslatingPostProcessor`: build directories are made absolute against the project
    /// directory (project files only).
    fn post_process(&self, expr: &str, value: String) -> String {
        let Some(basedir) = self.ctx.project_dir else {
            return value;
        };
        let Some(rest) = trim_prefix(expr) else {
            return value;
        };
        if !TRANSLATED_PATHS.contains(&rest) || Path::new(&value).is_absolute() {
            return value;
        }
        basedir.join(value).display().to_string()
    }

    fn opt(&mut self, v: &mut Option<String>) {
        if let Some(s) = v.as_deref() {
            if has_expression(s) {
                *v = self.field(s);
            }
        }
    }

    fn string(&mut self, v: &mut String) {
        if has_expression(v) {
            // A failed required string becomes empty (Maven: null).
            *v = self.field(v).unwrap_or_default();
        }
    }

    /// Free-form parts are only checked: their values matter to nobody here, but an expression
    /// cycle in them makes the model invalid, as in Maven.
    fn check(&mut self, x: &XNode) {
        if has_expression(&x.text) {
            let _ = self.field(&x.text);
        }
        for (_, v) in &x.attrs {
            if has_expression(v) {
                let _ = self.field(v);
            }
        }
        for c in &x.children {
            self.check(c);
        }
    }

    fn node(&mut self, x: &mut XNode) {
        self.string(&mut x.text);
        for (_, v) in &mut x.attrs {
            self.string(v);
        }
        for c in &mut x.children {
            self.node(c);
        }
    }

    fn traced(
        &mut self,
        field: &'static str,
        v: &mut Option<String>,
        uses: &mut Vec<ExpressionUse>,
    ) {
        if !v.as_deref().is_some_and(has_expression) {
            return;
        }
        let Some(raw) = v.clone() else {
            return;
        };
        self.uses.clear();
        let cached = self.cache.contains_key(&raw);
        *v = self.field(&raw);
        if cached {
            // Same text seen before: resolve again, quietly, to learn where the answer came from.
            let mut stack = Vec::new();
            let mut unresolvable = HashSet::new();
            let errors = self.problems.len();
            let _ = self.interpolate(&raw, &mut stack, &mut unresolvable, 0);
            self.problems.truncate(errors);
        }
        uses.push(ExpressionUse {
            field,
            raw,
            resolved: std::mem::take(&mut self.uses),
        });
    }

    /// Points the problems found since `from` at `pos`.
    fn locate(&mut self, from: usize, pos: crate::xml::Pos) {
        for p in &mut self.problems[from..] {
            if p.line.is_none() {
                p.line = Some(pos.line);
                p.column = Some(pos.column);
            }
        }
    }

    fn dependency(&mut self, d: &mut Arc<Dependency>) {
        if self.inert.is_some_and(|inert| inert.entries.contains(d)) || without_expressions(d) {
            // Nothing to resolve: the entry stays shared.
            return;
        }
        let d = Arc::make_mut(d);
        let before = self.problems.len();
        let mut uses = Vec::new();
        self.traced("groupId", &mut d.group_id, &mut uses);
        self.traced("artifactId", &mut d.artifact_id, &mut uses);
        self.traced("version", &mut d.version, &mut uses);
        let mut t = Some(std::mem::take(&mut d.type_));
        self.traced("type", &mut t, &mut uses);
        d.type_ = t.unwrap_or_default();
        self.traced("classifier", &mut d.classifier, &mut uses);
        self.traced("scope", &mut d.scope, &mut uses);
        self.traced("systemPath", &mut d.system_path, &mut uses);
        for e in &mut d.exclusions {
            self.opt(&mut e.group_id);
            self.opt(&mut e.artifact_id);
        }
        self.traced("optional", &mut d.optional, &mut uses);
        d.trace.expressions.extend(uses);
        self.locate(before, d.origin.pos);
    }

    /// `inert_management`: the management is known to hold no expression.
    fn base(&mut self, b: &mut ModelBase, inert_management: bool) {
        for m in &mut b.modules {
            self.string(m);
        }
        if let Some(dm) = &mut b.distribution_management {
            self.node(dm);
        }
        for p in &mut b.properties {
            if has_expression(&p.value) {
                let before = self.problems.len();
                self.uses.clear();
                match self.field(&p.value) {
                    Some(v) => {
                        if self.rewriting_properties && v != p.value {
                            // The sources changed: answers remembered per expression may be
                            // stale (texts already interpolated keep theirs, as in Maven).
                            self.properties
                                .insert(p.key.clone(), (v.clone(), p.origin.clone()));
                            self.memo.clear();
                            let how = std::mem::take(&mut self.uses);
                            self.rewritten.insert(p.key.clone(), how);
                        }
                        p.value = v;
                    }
                    None => self.locate(before, p.origin.pos),
                }
            }
        }
        if let Some(dm) = b
            .dependency_management
            .as_mut()
            .filter(|_| !inert_management)
        {
            for d in dm {
                self.dependency(d);
            }
        }
        for d in &mut b.dependencies {
            self.dependency(d);
        }
        for r in &mut b.repositories {
            self.opt(&mut r.id);
            self.opt(&mut r.name);
            self.opt(&mut r.url);
            self.string(&mut r.layout);
            for p in [&mut r.releases, &mut r.snapshots].into_iter().flatten() {
                self.opt(&mut p.enabled);
                self.opt(&mut p.update_policy);
                self.opt(&mut p.checksum_policy);
            }
        }
        for x in &b.extra {
            self.check(x);
        }
    }
}

/// True when no field of `d` holds an expression: interpolation leaves it as it is, whatever
/// the model.
pub(crate) fn without_expressions(d: &Dependency) -> bool {
    let has = |v: &Option<String>| v.as_deref().is_some_and(has_expression);
    !(has(&d.group_id)
        || has(&d.artifact_id)
        || has(&d.version)
        || has_expression(&d.type_)
        || has(&d.classifier)
        || has(&d.scope)
        || has(&d.system_path)
        || has(&d.optional)
        || d.exclusions
            .iter()
            .any(|e| has(&e.group_id) || has(&e.artifact_id)))
}

/// Interpolates `model` in place and returns the problems (ERRORs for expression cycles), told which of the model's dependency entries are known to hold no
/// expression ([`without_expressions`]; a parent's management that every child inherits):
/// they are not looked at again.
pub(crate) fn interpolate_model_sharing(
    model: &mut Model,
    ctx: &Context<'_>,
    inert: Option<KnownEntries<'_>>,
) -> Vec<ModelProblem> {
    let snapshot = model.clone();
    let mut i = Interpolator::new(&snapshot, ctx);
    i.inert = inert;
    i.base(
        &mut model.base,
        inert.is_some_and(|inert| inert.whole_management),
    );
    // Profiles' own maps are not a source: rewriting them changes nothing else.
    i.rewriting_properties = false;
    i.opt(&mut model.model_version);
    if let Some(p) = &mut model.parent {
        i.opt(&mut p.group_id);
        i.opt(&mut p.artifact_id);
        i.opt(&mut p.version);
        i.string(&mut p.relative_path);
    }
    i.opt(&mut model.group_id);
    i.opt(&mut model.artifact_id);
    i.opt(&mut model.version);
    i.string(&mut model.packaging);
    for (_, v) in &mut model.attrs {
        i.string(v);
    }
    for x in &model.extra {
        i.check(x);
    }
    for p in &mut model.profiles {
        i.string(&mut p.id);
        if let Some(a) = &mut p.activation {
            i.opt(&mut a.jdk);
            if let Some(os) = &mut a.os {
                i.opt(&mut os.name);
                i.opt(&mut os.family);
                i.opt(&mut os.arch);
                i.opt(&mut os.version);
            }
            if let Some(pr) = &mut a.property {
                i.opt(&mut pr.name);
                i.opt(&mut pr.value);
            }
            if let Some(f) = &mut a.file {
                i.opt(&mut f.missing);
                i.opt(&mut f.exists);
            }
        }
        i.base(&mut p.base, false);
        if let Some(b) = &p.build {
            i.check(b);
        }
    }
    i.problems
}

/// Interpolates one value against a model (a reactor project's build directories and plugin
/// coordinates).
pub(crate) fn interpolate_value(
    model: &Model,
    ctx: &Context<'_>,
    value: &str,
) -> Result<String, String> {
    let mut i = Interpolator::new(model, ctx);
    let mut stack = Vec::new();
    let mut unresolvable = HashSet::new();
    i.interpolate(value, &mut stack, &mut unresolvable, 0)
}

// --------------------------------------------------------------------------------- reflection

/// plexus `ReflectionValueExtractor` over the model: `version`, `parent.groupId`,
/// `build.directory`, `dependencies[0].version`, ... `None` when the path names nothing or
/// something that is not a text.
pub fn reflect(model: &Model, path: &str) -> Option<String> {
    let mut parts = path.split('.');
    let first = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    let (name, index) = split_index(first);
    let simple = |v: &Option<String>| if rest.is_empty() { v.clone() } else { None };
    match (name, index) {
        ("groupId", None) => simple(&model.group_id),
        ("artifactId", None) => simple(&model.artifact_id),
        ("version", None) => simple(&model.version),
        ("modelVersion", None) => simple(&model.model_version),
        ("packaging", None) => simple(&Some(model.packaging.clone())),
        ("id", None) if rest.is_empty() => Some(format!(
            "{}:{}:{}:{}",
            model.group_id.as_deref().unwrap_or("[inherited]"),
            model.artifact_id.as_deref().unwrap_or("null"),
            model.packaging,
            model.version.as_deref().unwrap_or("[inherited]")
        )),
        ("parent", None) => {
            let p = model.parent.as_ref()?;
            match rest.as_slice() {
                ["groupId"] => p.group_id.clone(),
                ["artifactId"] => p.artifact_id.clone(),
                ["version"] => p.version.clone(),
                ["relativePath"] => Some(p.relative_path.clone()),
                ["id"] => Some(p.id()),
                _ => None,
            }
        }
        ("dependencies", Some(i)) => dependency_field(model.base.dependencies.get(i)?, &rest),
        ("distributionManagement", None) => {
            leaf(model.base.distribution_management.as_ref()?, &rest)
        }
        ("childProjectUrlInheritAppendPath", None) => model
            .attrs
            .iter()
            .find(|(k, _)| k == "child.project.url.inherit.append.path")
            .map(|(_, v)| v.clone()),
        (other, None) => {
            let mut layers = model.extra_layers(other).peekable();
            layers.peek()?;
            if other == "scm" && rest == ["tag"] {
                let scm = model.extra("scm")?;
                return Some(scm.child_text("tag").unwrap_or("HEAD").to_string());
            }
            layers.find_map(|x| leaf(x, &rest))
        }
        _ => None,
    }
}

fn split_index(token: &str) -> (&str, Option<usize>) {
    match token.find('[') {
        Some(i) if token.ends_with(']') => {
            (&token[..i], token[i + 1..token.len() - 1].parse().ok())
        }
        _ => (token, None),
    }
}

fn leaf(x: &XNode, rest: &[&str]) -> Option<String> {
    let mut node = x;
    for part in rest {
        node = node.child(part)?;
    }
    if node.children.is_empty() {
        Some(node.text.clone())
    } else {
        None
    }
}

fn dependency_field(d: &Dependency, rest: &[&str]) -> Option<String> {
    match rest {
        ["groupId"] => d.group_id.clone(),
        ["artifactId"] => d.artifact_id.clone(),
        ["version"] => d.version.clone(),
        ["type"] => Some(d.type_.clone()),
        ["classifier"] => d.classifier.clone(),
        ["scope"] => d.scope.clone(),
        ["systemPath"] => d.system_path.clone(),
        ["optional"] => d.optional.clone(),
        _ => None,
    }
}

/// `SimpleDateFormat` for the patterns `maven.build.timestamp.format` uses (letters `yMdHhmsSaEZ`,
/// quoted literals), in UTC.
fn java_date_format(pattern: &str, t: chrono::DateTime<chrono::Utc>) -> String {
    use chrono::{Datelike, Timelike};
    let mut out = String::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let mut j = i + 1;
            if chars.get(j) == Some(&'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            while j < chars.len() && chars[j] != '\'' {
                out.push(chars[j]);
                j += 1;
            }
            i = j + 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        let mut n = 1;
        while chars.get(i + n) == Some(&c) {
            n += 1;
        }
        let pad = |v: u32| format!("{v:0n$}");
        match c {
            'y' if n == 2 => out.push_str(&format!("{:02}", t.year() % 100)),
            'y' => out.push_str(&format!("{:0n$}", t.year())),
            'M' => out.push_str(&pad(t.month())),
            'd' => out.push_str(&pad(t.day())),
            'H' => out.push_str(&pad(t.hour())),
            'h' => out.push_str(&pad(((t.hour() + 11) % 12) + 1)),
            'm' => out.push_str(&pad(t.minute())),
            's' => out.push_str(&pad(t.second())),
            'S' => out.push_str(&format!("{:03}", t.timestamp_subsec_millis())),
            'a' => out.push_str(if t.hour() < 12 { "AM" } else { "PM" }),
            'Z' => out.push_str("+0000"),
            _ => out.extend(std::iter::repeat_n(c, n)),
        }
        i += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::pom::model::from_xnode;
    use crate::resolution::pom::xml::read_pom;

    fn model(xml: &str) -> Model {
        from_xnode(read_pom(xml.as_bytes()).unwrap().root, "t")
    }

    fn run(
        xml: &str,
        user: &[(&str, &str)],
        system: &[(&str, &str)],
    ) -> (Model, Vec<ModelProblem>) {
        let mut m = model(xml);
        let user: HashMap<String, String> = user
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let system: HashMap<String, String> = system
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let ctx = Context {
            user_properties: &user,
            system_properties: &system,
            project_dir: None,
            source: "",
        };
        let p = interpolate_model_sharing(&mut m, &ctx, None);
        (m, p)
    }

    #[test]
    fn precedence_and_recursion() {
        let xml = "<project><groupId>g</groupId><artifactId>a</artifactId><version>1.${minor}</version>\
            <properties><minor>2</minor><v>${project.version}</v><u>x</u></properties>\
            <dependencies><dependency><groupId>${project.groupId}</groupId><artifactId>d</artifactId>\
            <version>${v}</version><scope>${u}</scope><classifier>${version}</classifier>\
            <type>${env.T}</type><systemPath>${missing}/x</systemPath></dependency></dependencies></project>";
        let (m, problems) = run(xml, &[("u", "user")], &[("u", "sys"), ("env.T", "zip")]);
        assert!(problems.is_empty(), "{problems:?}");
        let d = &m.base.dependencies[0];
        assert_eq!(d.group_id.as_deref(), Some("g"));
        assert_eq!(d.version.as_deref(), Some("1.2"));
        assert_eq!(d.scope.as_deref(), Some("user"));
        assert_eq!(d.classifier.as_deref(), Some("1.2"));
        assert_eq!(d.type_, "zip");
        assert_eq!(d.system_path.as_deref(), Some("${missing}/x"));
        assert_eq!(m.version.as_deref(), Some("1.2"));
        let used = d
            .trace
            .expressions
            .iter()
            .find(|e| e.field == "version")
            .unwrap();
        assert!(used.resolved[0].source.contains("line 1"), "{used:?}");
        assert_eq!(used.resolved[0].name, "v");
        assert_eq!(used.resolved[1].name, "project.version");
        assert_eq!(used.resolved[1].depth, 1);
    }

    /// Maven rewrites the live `Properties` in place (in Java's order: qq, pa, r here) and
    /// remembers each interpolated text: what a field reads depends on when it is visited.
    #[test]
    fn properties_are_rewritten_in_place() {
        let xml = "<project><modules><module>${pa}</module></modules><properties>\
            <pa>${pa}.3</pa><qq>${pa}</qq><r>${pa}x</r></properties><dependencies>\
            <dependency><version>${pa}</version></dependency>\
            <dependency><version>${pa}.0</version></dependency>\
            <dependency><version>${qq}</version></dependency>\
            <dependency><version>${r}</version></dependency>\
            <dependency><classifier>${project.properties}</classifier></dependency>\
            </dependencies></project>";
        let (m, problems) = run(xml, &[], &[("pa", "9")]);
        assert!(problems.is_empty(), "{problems:?}");
        // modules come first: ${pa} skips its own value and takes the system property
        assert_eq!(m.base.modules, ["9"]);
        let v: Vec<&str> = m
            .base
            .dependencies
            .iter()
            .map(|d| d.version.as_deref().unwrap_or(""))
            .collect();
        // the text ${pa} keeps its first answer; new texts read the rewritten pa
        assert_eq!(v, ["9", "9.3.0", "9", "9.3x", ""]);
        assert_eq!(
            m.base.dependencies[4].classifier.as_deref(),
            Some("{qq=9, pa=9.3, r=9.3x}")
        );
        // without the system property, pa refers only to itself: a cycle
        let (_, problems) = run(xml, &[], &[]);
        assert!(!problems.is_empty());
    }

    #[test]
    fn model_properties_beat_system_properties_but_not_user_properties() {
        let xml = "<project><properties><p>model</p></properties><dependencies><dependency>\
            <version>${p}</version></dependency></dependencies></project>";
        let (m, _) = run(xml, &[], &[("p", "sys")]);
        assert_eq!(m.base.dependencies[0].version.as_deref(), Some("model"));
        let (m, _) = run(xml, &[("p", "user")], &[]);
        assert_eq!(m.base.dependencies[0].version.as_deref(), Some("user"));
    }

    #[test]
    fn cycles_are_errors_and_empty_the_field() {
        let xml =
            "<project><properties><a>${b}</a><b>x${a}</b></properties><dependencies><dependency>\
            <version>${a}</version></dependency></dependencies></project>";
        let (m, problems) = run(xml, &[], &[]);
        assert!(!problems.is_empty());
        assert!(
            problems[0].message.contains("recursive expression cycle"),
            "{problems:?}"
        );
        assert_eq!(m.base.dependencies[0].version, None);
    }

    #[test]
    fn self_reference_falls_back_to_later_sources() {
        let xml = "<project><version>1</version><properties><version>${version}</version></properties>\
            <dependencies><dependency><version>${version}</version></dependency></dependencies></project>";
        let (m, problems) = run(xml, &[], &[]);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(m.base.dependencies[0].version.as_deref(), Some("1"));
    }

    #[test]
    fn unterminated_and_nested_expressions_stay() {
        let xml = "<project><properties><a>1</a></properties><dependencies><dependency>\
            <version>${a${a}}-${a</version></dependency></dependencies></project>";
        let (m, _) = run(xml, &[], &[]);
        assert_eq!(
            m.base.dependencies[0].version.as_deref(),
            Some("${a${a}}-${a")
        );
    }

    #[test]
    fn exponential_expansion_is_refused() {
        let mut props = String::new();
        for i in 0..40 {
            props.push_str(&format!("<p{i}>${{p{}}}${{p{}}}</p{i}>", i + 1, i + 1));
        }
        props.push_str("<p40>x</p40>");
        let xml = format!(
            "<project><properties>{props}</properties><dependencies><dependency><version>${{p0}}</version></dependency></dependencies></project>"
        );
        let started = std::time::Instant::now();
        let (_, problems) = run(&xml, &[], &[]);
        assert!(
            problems.iter().any(|p| p.message.contains("grows beyond")),
            "{problems:?}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }

    #[test]
    fn deep_chains_are_bounded() {
        let mut props = String::new();
        for i in 0..500 {
            props.push_str(&format!("<p{i}>${{p{}}}</p{i}>", i + 1));
        }
        let xml = format!("<project><properties>{props}</properties></project>");
        let (_, problems) = run(&xml, &[], &[]);
        assert!(
            problems.iter().any(|p| p.message.contains("nested deeper")),
            "{problems:?}"
        );
    }

    #[test]
    fn date_format() {
        let t = chrono::DateTime::parse_from_rfc3339("2024-01-02T03:04:05Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        assert_eq!(
            java_date_format("yyyy-MM-dd'T'HH:mm:ss'Z'", t),
            "2024-01-02T03:04:05Z"
        );
        assert_eq!(java_date_format("yyyyMMdd-HHmm", t), "20240102-0304");
    }
}
