//! What this binary is: its version and the day it was built (`build.rs`), for the footer of
//! every page and `--version`.

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const BUILD_DATE: &str = env!("JASSTURNIER_BUILD_DATE");

/// `0.1.0 (gebaut am 05.12.2026)`.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (gebaut am ",
    env!("JASSTURNIER_BUILD_DATE"),
    ")"
);
