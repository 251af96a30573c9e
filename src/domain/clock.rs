//! The clock of a Jassmarathon Spielrunde: started, paused, resumed, ended by the
//! Turnierleitung; the gong sounds when the time is up or the round is ended.

use chrono::{Duration, NaiveDateTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockFacts {
    pub started_at: NaiveDateTime,
    pub paused_at: Option<NaiveDateTime>,
    pub paused_seconds: i64,
    pub ended_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockState {
    NotStarted,
    Running {
        remaining_seconds: i64,
        ends_at: NaiveDateTime,
    },
    Paused {
        remaining_seconds: i64,
    },
    Gong,
}

pub fn state(duration_minutes: u32, clock: Option<&ClockFacts>, now: NaiveDateTime) -> ClockState {
    let Some(c) = clock else {
        return ClockState::NotStarted;
    };
    if c.ended_at.is_some() {
        return ClockState::Gong;
    }
    let total = i64::from(duration_minutes) * 60;
    let until = c.paused_at.unwrap_or(now);
    let played = (until - c.started_at).num_seconds() - c.paused_seconds;
    let remaining = total - played;
    if remaining <= 0 {
        return ClockState::Gong;
    }
    match c.paused_at {
        Some(_) => ClockState::Paused {
            remaining_seconds: remaining,
        },
        None => ClockState::Running {
            remaining_seconds: remaining,
            ends_at: c.started_at + Duration::seconds(total + c.paused_seconds),
        },
    }
}

impl ClockState {
    /// What the Leitung can do with the clock now (the office shows only these buttons).
    pub fn actions(self) -> &'static [ClockAction] {
        match self {
            ClockState::NotStarted => &[ClockAction::Start],
            ClockState::Running { .. } => &[ClockAction::Pause, ClockAction::End],
            ClockState::Paused { .. } => &[ClockAction::Resume, ClockAction::End],
            ClockState::Gong => &[],
        }
    }
}

/// What the Turnierleitung does with the clock of a Spielrunde.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockAction {
    Start,
    Pause,
    Resume,
    /// The gong before the time is up.
    End,
}

impl ClockAction {
    pub const ALL: [ClockAction; 4] = [
        ClockAction::Start,
        ClockAction::Pause,
        ClockAction::Resume,
        ClockAction::End,
    ];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "start" => Some(ClockAction::Start),
            "pause" => Some(ClockAction::Pause),
            "resume" => Some(ClockAction::Resume),
            "end" => Some(ClockAction::End),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ClockAction::Start => "start",
            ClockAction::Pause => "pause",
            ClockAction::Resume => "resume",
            ClockAction::End => "end",
        }
    }

    /// The button's word.
    pub fn label(self) -> &'static str {
        match self {
            ClockAction::Start => "Start",
            ClockAction::Pause => "Anhalten",
            ClockAction::Resume => "Weiter",
            ClockAction::End => "Gong (beenden)",
        }
    }

    /// The message after the action was carried out.
    pub fn done_message(self) -> &'static str {
        match self {
            ClockAction::Start => "Spielrunde gestartet.",
            ClockAction::Pause => "Spielrunde angehalten.",
            ClockAction::Resume => "Spielrunde läuft weiter.",
            ClockAction::End => "Gong: Spielrunde beendet.",
        }
    }
}

/// The clock after `action` at `now`, or why the action does not fit the clock's state
/// (the message for the Leitung).
pub fn transition(
    action: ClockAction,
    before: Option<&ClockFacts>,
    now: NaiveDateTime,
) -> Result<ClockFacts, &'static str> {
    let Some(c) = before else {
        return match action {
            ClockAction::Start => Ok(ClockFacts {
                started_at: now,
                paused_at: None,
                paused_seconds: 0,
                ended_at: None,
            }),
            _ => Err("Die Spielrunde ist noch nicht gestartet."),
        };
    };
    if action == ClockAction::Start {
        return Err("Die Spielrunde läuft bereits.");
    }
    if c.ended_at.is_some() {
        return Err("Die Spielrunde ist beendet.");
    }
    match (action, c.paused_at) {
        (ClockAction::Pause, None) => Ok(ClockFacts {
            paused_at: Some(now),
            ..*c
        }),
        (ClockAction::Pause, Some(_)) => Err("Die Spielrunde ist bereits angehalten."),
        (ClockAction::Resume, Some(paused)) => Ok(ClockFacts {
            paused_at: None,
            paused_seconds: c.paused_seconds + (now - paused).num_seconds(),
            ..*c
        }),
        (ClockAction::Resume, None) => Err("Die Spielrunde läuft."),
        (ClockAction::End, _) => Ok(ClockFacts {
            ended_at: Some(now),
            ..*c
        }),
        (ClockAction::Start, _) => Err("Die Spielrunde läuft bereits."),
    }
}

/// `1:29:59` or `29:59`.
pub fn format_remaining(seconds: i64) -> String {
    let s = seconds.max(0);
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn at(h: u32, m: u32, s: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 22)
            .unwrap()
            .and_hms_opt(h, m, s)
            .unwrap()
    }

    #[test]
    fn runs_pauses_and_gongs() {
        let mut c = ClockFacts {
            started_at: at(14, 0, 0),
            paused_at: None,
            paused_seconds: 0,
            ended_at: None,
        };
        assert_eq!(state(90, None, at(14, 0, 0)), ClockState::NotStarted);
        assert_eq!(
            state(90, Some(&c), at(14, 30, 0)),
            ClockState::Running {
                remaining_seconds: 3600,
                ends_at: at(15, 30, 0)
            }
        );
        c.paused_at = Some(at(14, 40, 0));
        assert_eq!(
            state(90, Some(&c), at(14, 50, 0)),
            ClockState::Paused {
                remaining_seconds: 3000
            }
        );
        // Resumed at 14:50 after 10 minutes of pause: the gong moves to 15:40.
        c.paused_at = None;
        c.paused_seconds = 600;
        assert_eq!(
            state(90, Some(&c), at(15, 0, 0)),
            ClockState::Running {
                remaining_seconds: 2400,
                ends_at: at(15, 40, 0)
            }
        );
        assert_eq!(state(90, Some(&c), at(15, 40, 0)), ClockState::Gong);
        c.ended_at = Some(at(15, 1, 0));
        assert_eq!(state(90, Some(&c), at(15, 2, 0)), ClockState::Gong);
    }

    /// The buttons offered are exactly the actions the clock accepts in its state.
    #[test]
    fn the_actions_offered_are_those_that_apply() {
        let running = ClockFacts {
            started_at: at(14, 0, 0),
            paused_at: None,
            paused_seconds: 0,
            ended_at: None,
        };
        let paused = ClockFacts {
            paused_at: Some(at(14, 10, 0)),
            ..running
        };
        let ended = ClockFacts {
            ended_at: Some(at(14, 20, 0)),
            ..running
        };
        let now = at(14, 30, 0);
        for facts in [None, Some(running), Some(paused), Some(ended)] {
            let offered = state(90, facts.as_ref(), now).actions();
            for action in [
                ClockAction::Start,
                ClockAction::Pause,
                ClockAction::Resume,
                ClockAction::End,
            ] {
                assert_eq!(
                    offered.contains(&action),
                    transition(action, facts.as_ref(), now).is_ok(),
                    "{facts:?} {action:?}"
                );
            }
        }
    }

    #[test]
    fn remaining_time_reads_like_a_clock() {
        assert_eq!(format_remaining(5400), "1:30:00");
        assert_eq!(format_remaining(3599), "59:59");
        assert_eq!(format_remaining(-3), "0:00");
    }

    #[test]
    fn transitions_follow_the_leitung() {
        use ClockAction::*;
        assert_eq!(
            transition(Pause, None, at(14, 0, 0)),
            Err("Die Spielrunde ist noch nicht gestartet.")
        );
        let started = transition(Start, None, at(14, 0, 0)).unwrap();
        assert_eq!(started.started_at, at(14, 0, 0));
        assert_eq!(
            transition(Start, Some(&started), at(14, 1, 0)),
            Err("Die Spielrunde läuft bereits.")
        );
        assert_eq!(
            transition(Resume, Some(&started), at(14, 1, 0)),
            Err("Die Spielrunde läuft.")
        );
        let paused = transition(Pause, Some(&started), at(14, 40, 0)).unwrap();
        assert_eq!(
            transition(Pause, Some(&paused), at(14, 41, 0)),
            Err("Die Spielrunde ist bereits angehalten.")
        );
        let resumed = transition(Resume, Some(&paused), at(14, 50, 0)).unwrap();
        assert_eq!(resumed.paused_at, None);
        assert_eq!(resumed.paused_seconds, 600);
        let ended = transition(End, Some(&resumed), at(15, 0, 0)).unwrap();
        assert_eq!(state(90, Some(&ended), at(15, 0, 1)), ClockState::Gong);
        for action in [Start, Pause, Resume, End] {
            assert!(transition(action, Some(&ended), at(15, 1, 0)).is_err());
        }
    }

    #[test]
    fn actions_round_trip() {
        for action in [
            ClockAction::Start,
            ClockAction::Pause,
            ClockAction::Resume,
            ClockAction::End,
        ] {
            assert_eq!(ClockAction::parse(action.as_str()), Some(action));
        }
        assert_eq!(ClockAction::parse("gong"), None);
    }
}
