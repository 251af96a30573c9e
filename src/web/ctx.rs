//! What every page's frame needs: who is logged in, the CSRF token, the flash message, the
//! tournament whose navigation is shown.

use crate::db::models::TournamentRow;
use crate::domain::ids::TournamentId;
use crate::domain::role::{Actor, Permission};

/// What every page's frame needs: who is logged in, the CSRF token for its forms, the flash.
pub struct Ctx {
    pub user: Option<Actor>,
    pub csrf: String,
    pub flash: Option<String>,
    pub tournament: Option<NavTournament>,
}

pub struct NavTournament {
    pub id: TournamentId,
    pub name: String,
    pub passen: Vec<u32>,
    /// What a round is called in the tournament's mode.
    pub round: &'static str,
    /// Who registers: "Teams", or "Spieler" in an Einzelschieber.
    pub entrants: &'static str,
}

impl Ctx {
    pub fn anonymous() -> Self {
        Ctx {
            user: None,
            csrf: String::new(),
            flash: None,
            tournament: None,
        }
    }

    pub fn may(&self, permission: &str) -> bool {
        let permission = match permission {
            "users" => Permission::ManageUsers,
            "tournament" => Permission::ManageTournament,
            "teams" => Permission::ManageTeams,
            "draw" => Permission::Draw,
            "results" => Permission::EnterResults,
            "correct_visaed" => Permission::CorrectVisaedResults,
            "visa" => Permission::Visa,
            "disqualify" => Permission::Disqualify,
            "audit" => Permission::ViewAudit,
            _ => return false,
        };
        self.user.as_ref().is_some_and(|u| u.may(permission))
    }

    pub fn username(&self) -> &str {
        self.user
            .as_ref()
            .map(|u| u.username.as_str())
            .unwrap_or("")
    }

    pub fn role_label(&self) -> &str {
        self.user.as_ref().map(|u| u.role.label()).unwrap_or("")
    }

    pub fn with_tournament(mut self, tournament: &TournamentRow) -> Self {
        self.tournament = Some(NavTournament {
            id: tournament.id,
            name: tournament.name.clone(),
            passen: (1..=tournament.passen.get()).collect(),
            round: tournament.mode.round(),
            entrants: tournament.mode.entrant().many(),
        });
        self
    }
}
