//! Integration tests: the real app on port 0 with a temporary SQLite file per test.

// A test or benchmark that cannot go on says so by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod absenden;
mod authorization;
mod backends;
mod browser;
mod categories;
mod crash;
mod day;
mod differenzler;
mod disqualification;
mod einzelschieber;
mod foundation;
mod hall;
mod handbuch;
mod helpers;
mod imports;
mod kontrolle;
mod live;
mod login;
mod marathon;
mod marathon_corrections;
mod office;
mod output_safety;
mod partners;
mod partnerschieber;
mod per_passe_draw;
mod prints;
mod protocol;
mod register;
mod request_log;
mod safety;
mod series;
mod snapshots;
mod streichresultat;
mod table_entry;
mod vereinswertung;
mod wall_prints;
