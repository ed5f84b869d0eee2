//! POM profile activation: Maven 3.8.7's `DefaultProfileSelector` over a POM's own profiles,
//! with the same four activators as settings profiles (`settings::profiles`): every
//! activator present (`jdk`, `os`, `property`, `file`) must match.
//!
//! Beyond Maven: without a known `java.version` (no JDK where m2r runs), a `<jdk>` activation is
//! taken as not matching with a warning; Maven, which always has one, would not get there.
//!
//! The POM rule that differs from settings profiles: a profile with `activeByDefault` is active
//! only when no other profile of the same POM was activated by its conditions. Active profiles
//! keep declaration order, the by-default ones after them. A `<file>` path sees `${basedir}`
//! (project files only), then the POM's own properties, then user and system properties.

use super::model::Profile;
use super::problem::ModelProblem;
use crate::settings::profiles::{
    file_matches_with, jdk_matches, os_matches, property_matches, ActivationContext,
    ActivatorProblem, OsProperties,
};
use crate::settings::Severity;
use std::collections::HashMap;

/// Indices of the active profiles, in Maven's order, and the activation problems.
pub fn select(
    profiles: &[Profile],
    ctx: &ActivationContext,
    project_properties: &HashMap<String, String>,
    source: &str,
) -> (Vec<usize>, Vec<ModelProblem>) {
    let mut active = Vec::new();
    let mut by_default = Vec::new();
    let mut problems = Vec::new();
    let mut activated_not_by_default = false;
    for (i, p) in profiles.iter().enumerate() {
        if ctx.inactive_profile_ids.contains(&p.id) {
            continue;
        }
        let mut found = Vec::new();
        let explicit = ctx.active_profile_ids.contains(&p.id);
        if explicit || is_active(p, ctx, project_properties, &mut found) {
            active.push(i);
            activated_not_by_default = true;
        } else if p.activation.as_ref().is_some_and(|a| a.active_by_default) {
            by_default.push(i);
        }
        problems.extend(
            found
                .into_iter()
                .map(|f| ModelProblem::new(f.severity, source, f.message).at(Some(p.pos))),
        );
    }
    if !activated_not_by_default {
        active.extend(by_default);
    }
    (active, problems)
}

fn is_active(
    profile: &Profile,
    ctx: &ActivationContext,
    project_properties: &HashMap<String, String>,
    problems: &mut Vec<ActivatorProblem>,
) -> bool {
    let Some(a) = profile.activation.as_ref() else {
        return false;
    };
    if a.jdk.is_none() && a.os.is_none() && a.property.is_none() && a.file.is_none() {
        return false;
    }
    let id = profile.id.as_str();
    let mut active = true;
    if let Some(jdk) = &a.jdk {
        if ctx
            .system_properties
            .get("java.version")
            .is_none_or(|v| v.is_empty())
        {
            // Maven always runs on a JVM; an embedder without one has no java.version. The
            // profile is then not active (a warning), rather than the POM invalid.
            problems.push(ActivatorProblem {
                severity: Severity::Warning,
                message: format!(
                    "no java.version is known (no JDK found): the jdk activation of profile {id} is taken as not matching"
                ),
            });
            return false;
        }
        match jdk_matches(jdk, id, ctx, problems) {
            Ok(m) => active &= m,
            Err(_) => {
                problems.push(ActivatorProblem {
                    severity: Severity::Error,
                    message: format!("Failed to determine activation for profile {id}"),
                });
                return false;
            }
        }
    }
    if let Some(os) = &a.os {
        active &= os_matches(os, &OsProperties::from_context(ctx));
    }
    if let Some(property) = &a.property {
        active &= property_matches(property, id, ctx, problems);
    }
    if let Some(file) = &a.file {
        active &= file_matches_with(file, id, ctx, Some(project_properties), problems);
    }
    active
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::pom::model::from_xnode;
    use crate::resolution::pom::xml::read_pom;

    fn profiles(xml: &str) -> Vec<Profile> {
        from_xnode(read_pom(xml.as_bytes()).unwrap().root, "t").profiles
    }

    #[test]
    fn activation_rules() {
        let ps = profiles(
            "<project><profiles>\
             <profile><id>d</id><activation><activeByDefault>true</activeByDefault></activation></profile>\
             <profile><id>j</id><activation><jdk>17</jdk></activation></profile>\
             <profile><id>f</id><activation><file><exists>${dir}/x</exists></file></activation></profile>\
             </profiles></project>",
        );
        let mut ctx = ActivationContext::default();
        let none = HashMap::new();
        // No java.version: the jdk profile is not active (a warning), the default one is.
        let (active, problems) = select(&ps, &ctx, &none, "t");
        assert_eq!(active, vec![0]);
        assert!(
            problems.iter().all(|p| p.severity == Severity::Warning),
            "{problems:?}"
        );
        ctx.system_properties
            .insert("java.version".into(), "17.0.9".into());
        assert_eq!(select(&ps, &ctx, &none, "t").0, vec![1]);
        // File activation sees the POM's properties.
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("x"), "").unwrap();
        let props = HashMap::from([("dir".to_string(), tmp.path().display().to_string())]);
        assert_eq!(select(&ps, &ctx, &props, "t").0, vec![1, 2]);
        ctx.inactive_profile_ids.push("j".into());
        assert_eq!(select(&ps, &ctx, &props, "t").0, vec![2]);
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_select() {
        use crate::resolution::pom::{model::from_xnode, profiles::select, xml::read_pom};
        use crate::settings::profiles::ActivationContext;
        let xml = r#"<project><profiles>
          <profile><id>default</id><activation><activeByDefault>true</activeByDefault></activation></profile>
          <profile><id>ci</id><activation><property><name>ci</name></property></activation></profile>
        </profiles></project>"#;
        let m = from_xnode(read_pom(xml.as_bytes()).unwrap().root, "pom.xml");
        let mut ctx = ActivationContext::default();
        assert_eq!(
            select(&m.profiles, &ctx, &Default::default(), "pom.xml").0,
            vec![0]
        );
        ctx.user_properties.insert("ci".into(), "true".into());
        assert_eq!(
            select(&m.profiles, &ctx, &Default::default(), "pom.xml").0,
            vec![1]
        );
    }
}
