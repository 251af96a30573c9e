//! The rules of the game: pure functions and types, no web or database code.

pub mod clock;
pub mod double_entry;
pub mod draw;
pub mod einzel_draw;
pub mod entry;
pub mod form;
pub mod format;
pub mod ids;
pub mod marathon;
pub mod mode;
pub mod partner_draw;
pub mod passe_draw;
pub mod ranking;
pub mod result;
pub mod result_import;
pub mod role;
pub mod schedule;
pub mod sitz;
pub mod standblatt;
pub mod team;
pub mod team_import;
pub mod text_import;
pub mod throttle;
pub mod tournament;
pub mod withdrawal;
