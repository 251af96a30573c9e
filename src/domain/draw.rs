//! When the Lose may be drawn (again) and when the next Passe may be drawn: the rules around
//! the schedule. How the tables themselves are drawn is in [`super::schedule`].

use super::mode::Entrant;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawMode {
    /// The Los fixes the table for every Passe (seed 004).
    Fest,
    /// Tables drawn anew before each Passe among the active teams.
    ProPasse,
}

impl DrawMode {
    pub const ALL: [DrawMode; 2] = [DrawMode::Fest, DrawMode::ProPasse];

    pub fn as_str(self) -> &'static str {
        match self {
            DrawMode::Fest => "fest",
            DrawMode::ProPasse => "pro_passe",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        DrawMode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// Why a draw is refused; the German text is the message for the Büro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawRefusal {
    ResultsEntered,
    TooFewTeams(Entrant),
    NotDrawn,
    FixedSchedule,
    AllDrawn,
    TooFewActive(Entrant),
}

impl DrawRefusal {
    pub fn message(self) -> &'static str {
        match self {
            DrawRefusal::ResultsEntered => {
                "Es sind schon Resultate erfasst: die Auslosung kann nicht wiederholt werden."
            }
            DrawRefusal::TooFewTeams(Entrant::Team) => {
                "Für eine Auslosung braucht es mindestens zwei Teams."
            }
            DrawRefusal::TooFewTeams(Entrant::Player) => {
                "Für eine Auslosung braucht es mindestens vier Spieler."
            }
            DrawRefusal::NotDrawn => "Zuerst die Lose ziehen.",
            DrawRefusal::FixedSchedule => "Dieses Turnier hat einen festen Tischplan.",
            DrawRefusal::AllDrawn => "Alle Passen sind ausgelost.",
            DrawRefusal::TooFewActive(Entrant::Team) => "Es sind weniger als zwei Teams aktiv.",
            DrawRefusal::TooFewActive(Entrant::Player) => "Es sind weniger als vier Spieler aktiv.",
        }
    }
}

/// The Lose may be drawn, and drawn again, until the first result is entered.
pub fn may_draw(
    results_entered: usize,
    active: usize,
    entrant: Entrant,
) -> Result<(), DrawRefusal> {
    if results_entered > 0 {
        return Err(DrawRefusal::ResultsEntered);
    }
    if active < minimum(entrant) {
        return Err(DrawRefusal::TooFewTeams(entrant));
    }
    Ok(())
}

/// Who it takes to fill one table: two teams, or four players.
fn minimum(entrant: Entrant) -> usize {
    2 * entrant.per_side()
}

/// What the tournament's draw looks like now, for [`next_passe`].
#[derive(Debug, Clone, Copy)]
pub struct DrawState {
    /// None before the Lose are drawn.
    pub mode: Option<DrawMode>,
    pub drawn_passen: u32,
    pub passen: u32,
    pub active_teams: usize,
    pub entrant: Entrant,
}

/// Per-Passe draw: the Passe to draw next, or why there is none.
pub fn next_passe(state: DrawState) -> Result<u32, DrawRefusal> {
    match state.mode {
        None => return Err(DrawRefusal::NotDrawn),
        Some(DrawMode::Fest) => return Err(DrawRefusal::FixedSchedule),
        Some(DrawMode::ProPasse) => {}
    }
    let passe = state.drawn_passen + 1;
    if passe > state.passen {
        return Err(DrawRefusal::AllDrawn);
    }
    if state.active_teams < minimum(state.entrant) {
        return Err(DrawRefusal::TooFewActive(state.entrant));
    }
    Ok(passe)
}

/// Whether the Büro may add teams: not once the Lose fix a schedule for every Passe.
pub fn may_add_teams(mode: Option<DrawMode>) -> bool {
    mode != Some(DrawMode::Fest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_redraw_after_the_first_result() {
        assert_eq!(may_draw(0, 8, Entrant::Team), Ok(()));
        assert_eq!(
            may_draw(1, 8, Entrant::Team),
            Err(DrawRefusal::ResultsEntered)
        );
        assert_eq!(
            may_draw(0, 1, Entrant::Team),
            Err(DrawRefusal::TooFewTeams(Entrant::Team))
        );
        assert_eq!(may_draw(0, 2, Entrant::Team), Ok(()));
        assert_eq!(
            may_draw(0, 3, Entrant::Player),
            Err(DrawRefusal::TooFewTeams(Entrant::Player))
        );
        assert_eq!(may_draw(0, 4, Entrant::Player), Ok(()));
    }

    #[test]
    fn the_next_passe_follows_the_drawn_ones() {
        let state = DrawState {
            mode: Some(DrawMode::ProPasse),
            drawn_passen: 2,
            passen: 4,
            active_teams: 6,
            entrant: Entrant::Team,
        };
        assert_eq!(next_passe(state), Ok(3));
        assert_eq!(
            next_passe(DrawState {
                drawn_passen: 4,
                ..state
            }),
            Err(DrawRefusal::AllDrawn)
        );
        assert_eq!(
            next_passe(DrawState {
                mode: Some(DrawMode::Fest),
                ..state
            }),
            Err(DrawRefusal::FixedSchedule)
        );
        assert_eq!(
            next_passe(DrawState {
                mode: None,
                ..state
            }),
            Err(DrawRefusal::NotDrawn)
        );
        assert_eq!(
            next_passe(DrawState {
                active_teams: 1,
                ..state
            }),
            Err(DrawRefusal::TooFewActive(Entrant::Team))
        );
        assert_eq!(
            next_passe(DrawState {
                active_teams: 3,
                entrant: Entrant::Player,
                ..state
            }),
            Err(DrawRefusal::TooFewActive(Entrant::Player))
        );
    }

    #[test]
    fn teams_join_only_without_a_fixed_schedule() {
        assert!(may_add_teams(None));
        assert!(may_add_teams(Some(DrawMode::ProPasse)));
        assert!(!may_add_teams(Some(DrawMode::Fest)));
    }

    #[test]
    fn draw_modes_round_trip() {
        for mode in DrawMode::ALL {
            assert_eq!(DrawMode::parse(mode.as_str()), Some(mode));
        }
        assert_eq!(DrawMode::parse("Fest"), None);
    }
}
