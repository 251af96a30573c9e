//! The clock of a Spielrunde as shown on the office pages and the live page.

use crate::domain::clock::{self, ClockAction, ClockFacts, ClockState};
use crate::domain::marathon::Rules;

pub struct ClockView {
    pub state: &'static str,
    pub remaining: String,
    /// While running: the moment of the gong, epoch milliseconds, for the live countdown.
    pub ends_at_ms: Option<i64>,
    /// The gong has sounded: open Tafeln write their last Spiel and are closed.
    pub gong: bool,
    /// The buttons that apply now.
    pub actions: &'static [ClockAction],
}

pub fn clock_view(rules: &Rules, facts: Option<&ClockFacts>) -> ClockView {
    let now = crate::app::read::now();
    let state = clock::state(rules.round_minutes, facts, now);
    let actions = state.actions();
    match state {
        ClockState::NotStarted => ClockView {
            state: "nicht gestartet",
            remaining: clock::format_remaining(i64::from(rules.round_minutes) * 60),
            ends_at_ms: None,
            gong: false,
            actions,
        },
        ClockState::Running {
            remaining_seconds,
            ends_at,
        } => ClockView {
            state: "läuft",
            remaining: clock::format_remaining(remaining_seconds),
            ends_at_ms: ends_at
                .and_local_timezone(chrono::Local)
                .single()
                .map(|t| t.timestamp_millis()),
            gong: false,
            actions,
        },
        ClockState::Paused { remaining_seconds } => ClockView {
            state: "angehalten",
            remaining: clock::format_remaining(remaining_seconds),
            ends_at_ms: None,
            gong: false,
            actions,
        },
        ClockState::Gong => ClockView {
            state: "Gong",
            remaining: "0:00".into(),
            ends_at_ms: None,
            gong: true,
            actions,
        },
    }
}
