//! View types shared by several pages: a table of a round, the clock of a Spielrunde, the
//! label of a team. Pages hold these, not rows.

pub mod awards;
pub mod clock;
pub mod protocol;
pub mod table;

pub use clock::{ClockView, clock_view};
pub use table::{
    PendingView, ResultView, TableView, opponents_cell, progress, seat_cells, side_label,
    table_cell, table_views, team_label, with_reports,
};
