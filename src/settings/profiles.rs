//! Settings profile activation (Maven's `DefaultProfileSelector` for external profiles).
