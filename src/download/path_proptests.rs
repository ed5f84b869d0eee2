//! Property tests of the paths made from values a repository or a build controls (issue 8):
//! no coordinate and no metadata value that passes validation yields a path outside the local
//! repository root. (Moved from `tests/hostile.rs`: layout, segments, the local repository and
//! the metadata parser are crate-internal.)

use crate::download::coords::Coordinate;
use crate::download::layout;
use crate::download::local::LocalRepository;
use crate::download::metadata::Metadata;
use crate::download::segment::is_contained;
use proptest::prelude::*;
use std::path::Path;

fn coord(s: &str) -> Coordinate {
    Coordinate::parse(s).unwrap()
}

/// Strings a generator may use: plain parts, traversal pieces, separators, controls, URL syntax.
fn hostile_part() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "a",
        "1.0",
        "-",
        ".",
        "..",
        "/",
        "\\",
        ":",
        "C:",
        "%2e",
        "%2E%2E",
        "?",
        "#",
        "\0",
        "\u{1b}",
        "\n",
        " ",
        "SNAPSHOT",
        "20240102.030405-7",
        "~",
        "\u{202E}",
        "é",
        "$",
        "{x}",
    ]);
    prop::collection::vec(atoms, 0..8).prop_map(|v| v.concat())
}

fn assert_inside(root: &Path, rel: &str) {
    assert!(is_contained(rel), "{rel:?}");
    let joined = root.join(rel);
    assert!(joined.starts_with(root), "{rel:?}");
    assert!(
        joined
            .strip_prefix(root)
            .unwrap()
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_))),
        "{rel:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_coordinate_yields_a_path_outside_the_root(
        g in hostile_part(), a in hostile_part(), e in hostile_part(),
        c in hostile_part(), v in hostile_part(), resolved in hostile_part(),
    ) {
        let root = Path::new("/m2/repository");
        // built by hand (pub fields), bypassing Coordinate::parse
        let coordinate = Coordinate { group_id: g, artifact_id: a, extension: e, classifier: c, version: v };
        if let Ok(p) = layout::artifact_path(&coordinate, &resolved) {
            assert_inside(root, p.as_str());
            if let Ok(s) = layout::checksum_path(&p, "sha1") {
                assert_inside(root, s.as_str());
            }
        }
        if let Ok(p) = layout::metadata_path(&coordinate.group_id, &coordinate.artifact_id, &coordinate.version) {
            assert_inside(root, p.as_str());
        }
        let local = LocalRepository::new(root);
        if let Ok(f) = local.metadata_file(&coordinate.group_id, &coordinate.artifact_id, &coordinate.version, Some(&resolved)) {
            prop_assert!(local.check_inside(&f).is_ok());
        }
        if let Ok(f) = local.artifact_file(&coordinate, &resolved) {
            prop_assert!(local.check_inside(&f).is_ok());
        }
    }

    #[test]
    fn no_metadata_value_that_passes_validation_yields_a_path_outside_the_root(
        value in hostile_part(), release in hostile_part(), ts in hostile_part(),
    ) {
        let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('\0', "&#0;");
        let xml = format!(
            "<metadata><versioning><release>{}</release><latest>{}</latest><snapshot><timestamp>{}</timestamp><buildNumber>1</buildNumber></snapshot>\
             <snapshotVersions><snapshotVersion><extension>jar</extension><value>{}</value></snapshotVersion></snapshotVersions></versioning></metadata>",
            esc(&release), esc(&release), esc(&ts), esc(&value)
        );
        let Ok(md) = Metadata::parse(xml.as_bytes(), "t") else { return Ok(()); };
        let base = "1.0-SNAPSHOT";
        if md.check_values(Some(base)).is_ok() {
            let c = coord("org.x:a:1.0-SNAPSHOT");
            let v = md.versioning.unwrap();
            for version in [v.release, v.latest, v.snapshot_versions[0].value.clone()] {
                if version.is_empty() { continue; }
                let p = layout::artifact_path(&c, &version).expect("validated values form a path");
                assert_inside(Path::new("/m2"), p.as_str());
            }
        }
    }
}
