//! Renderings of a descriptor: the `m2r describe --json` document of the dependency contract,
//! and the human form that says where every version, scope and exclusion came from (which
//! parent, which BOM, which property), which Maven itself never tells.

use super::descriptor::{Description, DescriptorError};
use super::model::{Dependency as PomDependency, ExpressionUse, ManagedFrom, Model};
use crate::resolution::artifact::{Artifact, ArtifactDescriptor, Dependency};
use serde_json::{json, Value};
use std::fmt::Write;

fn dependency_json(d: &Dependency) -> Value {
    let mut v = json!({
        "artifact": d.artifact.to_string(),
        "scope": d.scope,
        "optional": d.optional,
        "exclusions": d.exclusions.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
    });
    if let Some(p) = &d.artifact.local_path {
        v["systemPath"] = json!(p);
    }
    v
}

/// The `m2r describe --json` document of a descriptor (`problems` empty).
pub fn descriptor_json(d: &ArtifactDescriptor) -> Value {
    json!({
        "artifact": d.artifact.as_ref().map(Artifact::to_string),
        "relocations": d.relocations.iter().map(Artifact::to_string).collect::<Vec<_>>(),
        "dependencies": d.dependencies.iter().map(dependency_json).collect::<Vec<_>>(),
        "managedDependencies": d.managed_dependencies.iter().map(dependency_json).collect::<Vec<_>>(),
        "repositories": d.repositories.iter().map(|r| format!("{}={}", r.id, r.url)).collect::<Vec<_>>(),
        "problems": [],
    })
}

/// The document for a descriptor that could not be read: Maven keeps a missing or invalid POM
/// (the artifact, no dependencies, one problem); any other failure has `artifact: null` and an
/// `error` list. The second value is the exit status.
pub fn error_json(e: &DescriptorError) -> (Value, i32) {
    match (e.kind(), e.partial()) {
        (Some(kind), Some(partial)) => {
            let mut doc = descriptor_json(&partial);
            doc["problems"] =
                json!([{"kind": kind.as_str(), "artifact": e.artifact().to_string()}]);
            (doc, 0)
        }
        _ => (
            json!({
                "artifact": null,
                "error": ["ArtifactDescriptorException"],
                "message": crate::printable::error_chain(e),
                "problems": [],
            }),
            1,
        ),
    }
}

/// The document for a project file whose model could not be built: `artifact: null` and the
/// severities of its errors (exit status 1).
pub fn project_error_json(e: &super::descriptor::ModelBuildError) -> Value {
    json!({
        "artifact": null,
        "error": e.problems.iter().filter(|p| p.is_error()).map(|p| p.severity.to_string()).collect::<Vec<_>>(),
        "message": crate::printable::error_chain(e),
        "problems": [],
    })
}

fn managed_from_text(m: &ManagedFrom) -> String {
    match m {
        ManagedFrom::Declared(o) => format!("dependencyManagement of {}", o.describe()),
        ManagedFrom::Imported {
            boms,
            import,
            entry,
        } => format!(
            "BOM {} (imported by {}; entry at {})",
            boms.join(" → "),
            import.describe(),
            entry.describe()
        ),
    }
}

fn expressions_text(out: &mut String, uses: &[ExpressionUse], field: &str, indent: &str) {
    for u in uses.iter().filter(|u| u.field == field) {
        let _ = writeln!(out, "{indent}{field} `{}`:", u.raw);
        for r in &u.resolved {
            let pad = "  ".repeat(r.depth + 1);
            let value: String = if r.value.chars().count() > 200 {
                r.value.chars().take(200).chain("…".chars()).collect()
            } else {
                r.value.clone()
            };
            let _ = writeln!(out, "{indent}{pad}${{{}}} = {value} ({})", r.name, r.source);
        }
        if u.resolved.is_empty() {
            let _ = writeln!(
                out,
                "{indent}  left as written: no value for the expression"
            );
        }
    }
}

fn managed_entry<'m>(model: &'m Model, d: &PomDependency) -> Option<&'m PomDependency> {
    let key = d.management_key();
    model
        .base
        .dependency_management
        .iter()
        .flatten()
        .find(|m| m.management_key() == key)
        .map(|m| &**m)
}

fn explain_dependency(out: &mut String, model: &Model, d: &PomDependency, managed: bool) {
    let ind = "      ";
    let _ = writeln!(out, "{ind}declared in {}", d.origin.describe());
    if let Some((boms, import)) = &d.trace.imported {
        let _ = writeln!(
            out,
            "{ind}imported from BOM {} (import declared in {})",
            boms.join(" → "),
            import.describe()
        );
    }
    match &d.trace.version_from {
        Some(from) => {
            let _ = writeln!(
                out,
                "{ind}version {} from {}",
                d.version.as_deref().unwrap_or("?"),
                managed_from_text(from)
            );
            if let Some(m) = managed_entry(model, d) {
                expressions_text(out, &m.trace.expressions, "version", &format!("{ind}  "));
            }
        }
        None if d.version.is_some() => {
            let _ = writeln!(
                out,
                "{ind}version {} as declared",
                d.version.as_deref().unwrap_or("")
            );
            expressions_text(out, &d.trace.expressions, "version", &format!("{ind}  "));
        }
        None => {}
    }
    if !managed {
        match &d.trace.scope_from {
            Some(from) => {
                let _ = writeln!(
                    out,
                    "{ind}scope {} from {}",
                    d.scope.as_deref().unwrap_or(""),
                    managed_from_text(from)
                );
            }
            None => {
                if d.trace.scope_defaulted {
                    let _ = writeln!(
                        out,
                        "{ind}scope compile: none declared or managed (Maven's default)"
                    );
                }
                expressions_text(out, &d.trace.expressions, "scope", &format!("{ind}  "));
            }
        }
    }
    if let Some(from) = &d.trace.exclusions_from {
        let _ = writeln!(out, "{ind}exclusions from {}", managed_from_text(from));
    }
    for field in [
        "groupId",
        "artifactId",
        "type",
        "classifier",
        "systemPath",
        "optional",
    ] {
        expressions_text(out, &d.trace.expressions, field, ind);
    }
}

fn dependency_line(out: &mut String, d: &Dependency) {
    let mut line = format!("  {}", d.artifact);
    if !d.scope.is_empty() {
        line.push_str(&format!(" ({})", d.scope));
    }
    if d.is_optional() {
        line.push_str(" optional");
    }
    if !d.exclusions.is_empty() {
        let ex: Vec<String> = d.exclusions.iter().map(|e| e.to_string()).collect();
        line.push_str(&format!(" excluding {}", ex.join(", ")));
    }
    if let Some(p) = &d.artifact.local_path {
        line.push_str(&format!(" systemPath {p}"));
    }
    let _ = writeln!(out, "{line}");
}

/// The human form of `m2r describe`: the descriptor, then for every dependency where it was
/// declared and where its version, scope and exclusions came from.
pub fn render(desc: &Description) -> String {
    let d = &desc.descriptor;
    let m = &desc.model;
    let mut out = String::new();
    let artifact = d
        .artifact
        .as_ref()
        .map(Artifact::to_string)
        .unwrap_or_default();
    let _ = writeln!(out, "{artifact}");
    for r in &d.relocations {
        let _ = writeln!(out, "  relocated from {r}");
    }
    let _ = writeln!(out, "  POM {}", desc.file.display());
    let lineage: Vec<String> = desc.lineage.iter().map(|(id, _)| id.clone()).collect();
    if lineage.len() > 1 {
        let _ = writeln!(out, "  parents: {}", lineage[1..].join(" → "));
        for (id, file) in &desc.lineage[1..] {
            if let Some(f) = file {
                let _ = writeln!(out, "    {id}: {}", f.display());
            }
        }
    }
    for p in &desc.active_profiles {
        let _ = writeln!(out, "  active profile {p}");
    }
    let _ = writeln!(out, "\ndependencies ({}):", d.dependencies.len());
    for (dep, pom) in d.dependencies.iter().zip(&m.base.dependencies) {
        dependency_line(&mut out, dep);
        explain_dependency(&mut out, m, pom, false);
    }
    let managed: Vec<&PomDependency> = m
        .base
        .dependency_management
        .iter()
        .flatten()
        .map(|d| &**d)
        .collect();
    let _ = writeln!(
        out,
        "\nmanaged dependencies ({}):",
        d.managed_dependencies.len()
    );
    for (dep, pom) in d.managed_dependencies.iter().zip(managed) {
        dependency_line(&mut out, dep);
        explain_dependency(&mut out, m, pom, true);
    }
    let _ = writeln!(out, "\nrepositories ({}):", d.repositories.len());
    for (r, pom) in d.repositories.iter().zip(&m.base.repositories) {
        let _ = writeln!(
            out,
            "  {}={}  (declared in {})",
            r.id,
            r.url,
            pom.origin.describe()
        );
    }
    if !desc.warnings.is_empty() {
        let _ = writeln!(out, "\nwarnings:");
        for w in &desc.warnings {
            let _ = writeln!(out, "  {w}");
        }
    }
    out
}

/// The human form of a descriptor that could not be read.
pub fn render_error(e: &DescriptorError) -> String {
    let mut out = String::new();
    match e.kind() {
        Some(kind) => {
            let _ = writeln!(
                out,
                "{} ({kind}: Maven keeps it without dependencies)",
                e.artifact()
            );
        }
        None => {
            let _ = writeln!(out, "{}: the descriptor could not be read", e.artifact());
        }
    }
    let _ = writeln!(out, "  {}", crate::printable::error_chain(e));
    for p in e.problems() {
        let _ = writeln!(out, "  {p}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::download::{Downloader, DownloaderConfig};
    use crate::repository::{RemoteRepository, Selectors};
    use crate::resolution::pom::DescriptorReader;

    fn write(root: &std::path::Path, g: &str, a: &str, v: &str, xml: &str) {
        let dir = root.join(g.replace('.', "/")).join(a).join(v);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{a}-{v}.pom")), xml).unwrap();
    }

    /// The human form answers "why is this version here?": declaration, management entry,
    /// BOM chain and the property behind the value, each with its POM and line.
    #[test]
    fn human_form_explains_versions() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        write(&repo, "org.bom", "bom", "1",
            "<project><modelVersion>4.0.0</modelVersion><groupId>org.bom</groupId><artifactId>bom</artifactId><version>1</version><packaging>pom</packaging>\n\
             <properties><lib.version>2.1</lib.version></properties>\n\
             <dependencyManagement><dependencies><dependency><groupId>org.x</groupId><artifactId>lib</artifactId><version>${lib.version}</version></dependency></dependencies></dependencyManagement></project>");
        write(&repo, "org.fix", "parent", "3",
            "<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><artifactId>parent</artifactId><version>3</version><packaging>pom</packaging>\n\
             <dependencyManagement><dependencies>\n<dependency><groupId>org.bom</groupId><artifactId>bom</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>\n\
             <dependency><groupId>org.x</groupId><artifactId>tool</artifactId><version>5</version><scope>test</scope></dependency></dependencies></dependencyManagement></project>");
        write(&repo, "org.fix", "app", "1",
            "<project><modelVersion>4.0.0</modelVersion><parent><groupId>org.fix</groupId><artifactId>parent</artifactId><version>3</version></parent>\n\
             <artifactId>app</artifactId><version>1</version>\n<dependencies>\n<dependency><groupId>org.x</groupId><artifactId>lib</artifactId></dependency>\n\
             <dependency><groupId>org.x</groupId><artifactId>tool</artifactId></dependency></dependencies></project>");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let repos = vec![RemoteRepository::new(
            "r",
            url::Url::from_directory_path(&repo).unwrap().to_string(),
        )];
        let resolver = {
            let _g = runtime.enter();
            Downloader::new(DownloaderConfig::new(tmp.path().join("local"))).unwrap()
        };
        let reader = DescriptorReader::new(
            resolver,
            Selectors::default(),
            Default::default(),
            Default::default(),
        );
        let d = runtime
            .block_on(reader.describe(&Artifact::new("org.fix", "app", "jar", "", "1"), &repos))
            .unwrap();
        let text = render(&d);
        for want in [
            "org.x:lib:jar:2.1 (compile)",
            "declared in org.fix:app:1, line 4",
            "version 2.1 from BOM org.bom:bom:1 (imported by org.fix:parent:3, line 3; entry at org.bom:bom:1, line 3)",
            "${lib.version} = 2.1 (property defined in org.bom:bom:1, line 2)",
            "scope compile: none declared or managed (Maven's default)",
            "org.x:tool:jar:5 (test)",
            "scope test from dependencyManagement of org.fix:parent:3, line 4",
            "parents: org.fix:parent:3",
        ] {
            assert!(text.contains(want), "missing {want:?} in:\n{text}");
        }
        let json = descriptor_json(&d.descriptor);
        assert_eq!(json["dependencies"][0]["artifact"], "org.x:lib:jar:2.1");
        assert_eq!(
            json["managedDependencies"][1]["artifact"],
            "org.x:lib:jar:2.1"
        );
    }
}
