//! Row structs (what a query returns) separate from insert/update structs.

use super::schema::*;
// Rows carry it; the web reads rows, so it is named here too.
pub use super::types::Nat;
use crate::domain::draw::DrawMode;
use crate::domain::ids::{PersonId, ResultId, SingleId, TeamId, TournamentId, UserId};
use crate::domain::marathon::{Ruling, Side, Trump};
use crate::domain::mode::Mode;
use crate::domain::role::Role;
use crate::domain::sitz::Sitz;
use crate::domain::streichresultat::Wertung;
use crate::domain::team::TeamStatus;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: UserId,
    pub username: String,
    #[serde(skip)]
    pub password_hash: String,
    pub role: Role,
    pub active: bool,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub username: &'a str,
    pub password_hash: &'a str,
    pub role: Role,
    pub active: bool,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub token: String,
    pub user_id: UserId,
    pub csrf_token: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub flash: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: TournamentId,
    pub name: String,
    pub date: NaiveDate,
    pub location: String,
    pub mode: Mode,
    pub passen: Nat,
    pub spiele_per_passe: Nat,
    pub pauschale: Nat,
    pub closed: bool,
    pub public: bool,
    pub draw_mode: DrawMode,
    pub draw_seed: Option<i64>,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub double_entry: bool,
    pub double_entry_same_user: bool,
    pub separate_clubs: bool,
    /// Streichresultat: only the best this many Passen count (None: all).
    pub counted_best: Option<Nat>,
    /// The prize of every ranked team beyond the listed places.
    pub prize_others: Option<String>,
    /// The Absenden under way: how many names have been shown (None: not under way).
    pub absenden_step: Option<Nat>,
    /// Vereinswertung: the best this many teams of each club count (None: no club ranking).
    pub club_best: Option<Nat>,
}

impl TournamentRow {
    /// Which Passen count for the Rangliste.
    pub fn wertung(&self) -> Wertung {
        self.counted_best
            .map_or(Wertung::Alle, |k| Wertung::Beste(k.get()))
    }
}

#[derive(Debug, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = tournaments, treat_none_as_null = true)]
pub struct TournamentValues {
    pub name: String,
    pub date: NaiveDate,
    pub location: String,
    pub mode: Mode,
    pub passen: Nat,
    pub spiele_per_passe: Nat,
    pub pauschale: Nat,
    pub double_entry: bool,
    pub double_entry_same_user: bool,
    pub separate_clubs: bool,
    pub counted_best: Option<Nat>,
    pub club_best: Option<Nat>,
}

/// A player registered alone ("sucht Partner").
#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = single_registrations)]
pub struct SingleRow {
    pub id: SingleId,
    pub tournament_id: TournamentId,
    pub player: String,
    pub club: Option<String>,
    pub place: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = teams)]
pub struct TeamRow {
    pub id: TeamId,
    pub tournament_id: TournamentId,
    pub startnummer: Nat,
    pub name: Option<String>,
    pub player1: String,
    pub player2: String,
    pub club: Option<String>,
    pub place: Option<String>,
    pub los: Option<Nat>,
    pub status: TeamStatus,
    pub out_passe: Option<Nat>,
    pub out_reason: Option<String>,
    pub final_visa_by: Option<UserId>,
    pub final_visa_at: Option<NaiveDateTime>,
    pub final_visa_name: Option<String>,
}

#[derive(Debug, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = teams, treat_none_as_null = true)]
pub struct TeamValues {
    pub startnummer: Nat,
    pub name: Option<String>,
    pub player1: String,
    pub player2: String,
    pub club: Option<String>,
    pub place: Option<String>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = teams)]
pub struct NewTeam {
    pub tournament_id: TournamentId,
    #[diesel(embed)]
    pub values: TeamValues,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, PartialEq)]
#[diesel(table_name = seats)]
pub struct SeatRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub team_id: TeamId,
    pub table_no: Option<Nat>,
    /// Partnerschieber: the other team. Einzelschieber: the first seat of the other pair.
    pub opponent_id: Option<TeamId>,
    /// Einzelschieber only: the partner drawn for this Passe, and the seat.
    pub partner_id: Option<TeamId>,
    pub position: Option<Sitz>,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = results)]
pub struct ResultRow {
    pub id: ResultId,
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub table_no: Nat,
    pub team_a_id: TeamId,
    pub team_b_id: TeamId,
    pub points_a: Nat,
    pub points_b: Nat,
    pub matches_a: Nat,
    pub matches_b: Nat,
    pub visa_a_by: Option<UserId>,
    pub visa_a_at: Option<NaiveDateTime>,
    pub visa_b_by: Option<UserId>,
    pub visa_b_at: Option<NaiveDateTime>,
    pub version: i32,
    pub details: Option<String>,
    pub visa_a_name: Option<String>,
    pub visa_b_name: Option<String>,
    /// Double entry: counts because two accounts typed it alike, blind (or the Leitung
    /// decided their contradiction).
    pub confirmed: bool,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = results)]
pub struct NewResult {
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub table_no: Nat,
    pub team_a_id: TeamId,
    pub team_b_id: TeamId,
    pub points_a: Nat,
    pub points_b: Nat,
    pub matches_a: Nat,
    pub matches_b: Nat,
    pub version: i32,
    pub details: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize, PartialEq)]
#[diesel(table_name = marathon_rules)]
pub struct MarathonRulesRow {
    pub tournament_id: TournamentId,
    pub round_minutes: Nat,
    pub target: Nat,
    pub berg: Nat,
    pub match_bonus: Nat,
    pub mult_eichel: Nat,
    pub mult_rose: Nat,
    pub mult_schelle: Nat,
    pub mult_schilte: Nat,
    pub mult_obenabe: Nat,
    pub mult_undenufe: Nat,
    pub striche_match: Nat,
    pub striche_berg: Nat,
    pub striche_sieg: Nat,
    pub striche_schneider: Nat,
    pub striche_gong: Nat,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, PartialEq)]
#[diesel(table_name = round_clocks)]
pub struct ClockRow {
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub started_at: NaiveDateTime,
    pub paused_at: Option<NaiveDateTime>,
    pub paused_seconds: Nat,
    pub ended_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, PartialEq)]
#[diesel(table_name = tafel_lines)]
pub struct TafelLineRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub table_no: Nat,
    pub line_no: Nat,
    pub trump: Trump,
    pub cards_a: Option<Nat>,
    pub match_side: Option<Side>,
    pub weis_a: Nat,
    pub weis_b: Nat,
    pub stoeck: Option<Side>,
    pub first: Option<Side>,
    pub ruling: Option<Ruling>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, PartialEq)]
#[diesel(table_name = pending_entries)]
pub struct PendingEntry {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub table_no: Nat,
    pub user_id: UserId,
    pub points_a: Nat,
    pub points_b: Nat,
    pub matches_a: Nat,
    pub matches_b: Nat,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = audit_log)]
pub struct AuditRow {
    pub id: i32,
    pub at: NaiveDateTime,
    pub user_id: Option<UserId>,
    pub username: String,
    pub tournament_id: Option<TournamentId>,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub action: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = audit_log)]
pub struct NewAudit<'a> {
    pub at: NaiveDateTime,
    pub user_id: Option<UserId>,
    pub username: &'a str,
    pub tournament_id: Option<TournamentId>,
    pub entity: &'a str,
    pub entity_id: Option<i32>,
    pub action: &'a str,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// Who gave a visa: an account of this instance, or a name from an imported tournament
/// (shown as "importiert: NAME"; no account is created for it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signer {
    User(UserId),
    Imported(String),
}

/// A visa: who and when.
pub type VisaMark = Option<(Signer, NaiveDateTime)>;

fn mark(by: Option<UserId>, name: &Option<String>, at: Option<NaiveDateTime>) -> VisaMark {
    let at = at?;
    match (by, name) {
        (_, Some(name)) => Some((Signer::Imported(name.clone()), at)),
        (Some(by), None) => Some((Signer::User(by), at)),
        (None, None) => None,
    }
}

impl ResultRow {
    pub fn visa_a(&self) -> VisaMark {
        mark(self.visa_a_by, &self.visa_a_name, self.visa_a_at)
    }
    pub fn visa_b(&self) -> VisaMark {
        mark(self.visa_b_by, &self.visa_b_name, self.visa_b_at)
    }
}

impl TeamRow {
    pub fn final_visa(&self) -> VisaMark {
        mark(
            self.final_visa_by,
            &self.final_visa_name,
            self.final_visa_at,
        )
    }
}

/// A table's result as one of its teams reported it from the table (README "Resultate vom
/// Tisch"), and the other team's answer.
#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = table_reports)]
pub struct TableReportRow {
    pub id: i32,
    pub tournament_id: TournamentId,
    pub passe: Nat,
    pub table_no: Nat,
    pub reporter_id: TeamId,
    pub points_a: Nat,
    pub points_b: Nat,
    pub state: crate::domain::table_report::ReportState,
    pub answer_by: Option<TeamId>,
    pub answer_points_a: Option<Nat>,
    pub answer_points_b: Option<Nat>,
    pub note: Option<String>,
    /// Jassmarathon: the Tafel as written at the table (JSON, see `db::table_entry`).
    pub tafel: Option<String>,
    pub version: i32,
    pub updated_at: NaiveDateTime,
}

/// A phone admitted for a team by its code.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = table_access)]
pub struct TableAccessRow {
    pub token: String,
    pub tournament_id: TournamentId,
    pub team_id: TeamId,
    pub csrf_token: String,
    pub address: String,
    pub created_at: NaiveDateTime,
}

/// A person of the club's register.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Serialize)]
#[diesel(table_name = persons)]
pub struct PersonRow {
    pub id: PersonId,
    pub name: String,
    pub vorname: String,
    pub verein: Option<String>,
    pub ort: Option<String>,
    pub jahrgang: Option<Nat>,
    /// Office only: never on a public page or in a public export.
    pub email: Option<String>,
    pub phone: Option<String>,
    pub created_at: NaiveDateTime,
    /// Office only, like the Jahrgang: what a category rule asks.
    pub geschlecht: Option<crate::domain::person::Geschlecht>,
}

impl PersonRow {
    pub fn key(&self) -> crate::domain::person::PersonKey {
        crate::domain::person::PersonKey {
            name: self.name.clone(),
            vorname: self.vorname.clone(),
            verein: self.verein.clone(),
            ort: self.ort.clone(),
            jahrgang: self.jahrgang.map(Nat::get),
        }
    }
}
