//! Integration tests: the real app on port 0 with a temporary SQLite file per test.

mod foundation;
mod helpers;
mod live;
mod partnerschieber;
mod prints;
