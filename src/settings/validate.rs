//! Settings validation (replaced by the full validator on the `profiles` branch).
use super::model::Settings;
use super::problem::Problem;

/// Validates one raw settings file.
pub fn validate(_settings: &Settings, _source: &str) -> Vec<Problem> {
    Vec::new()
}

/// Maven 4 project-settings warnings.
pub fn validate_project_settings(_settings: &Settings, _source: &str) -> Vec<Problem> {
    Vec::new()
}
