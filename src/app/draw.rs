//! The draw: Lose (and, with a fixed schedule, the tables of every Passe), and the next
//! Passe of a per-Passe draw.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::models::{SeatRow, TeamRow, TournamentRow};
use crate::db::tournament_data;
use crate::db::{Conn, audit, seats, teams, tournaments, write_tx};
use crate::domain::draw::{self, DrawMode, DrawRefusal, DrawState};
use crate::domain::einzel_draw::{self, DrawQuality, EinzelPasse, EinzelRequest, draw_einzel};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::passe_draw::{self, PasseRequest};
use crate::domain::role::{Actor, Permission};
use crate::domain::schedule::{self, PasseDraw, Table};
use crate::domain::team::TeamStatus;
use crate::domain::team::club_numbers;
use serde::Serialize;
use std::collections::HashMap;

impl From<DrawRefusal> for Refusal {
    fn from(r: DrawRefusal) -> Self {
        Refusal::invalid(r.message())
    }
}

#[derive(Serialize)]
struct DrawRecord {
    mode: DrawMode,
    seed: u64,
    passe: Option<u32>,
    tables: usize,
    rematches: usize,
    same_club: usize,
}

/// The Vereine of the teams when the tournament keeps them apart; empty otherwise.
fn clubs_of(tournament: &TournamentRow, teams: &[TeamRow]) -> HashMap<TeamId, u32> {
    if !tournament.separate_clubs {
        return HashMap::new();
    }
    club_numbers(teams.iter().map(|t| (t.id, t.club.as_deref())))
}

/// Draws the Lose (and, in fixed mode, the tables of every Passe). Redrawing is allowed
/// until the first result is entered.
pub fn draw(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    mode: DrawMode,
    seed: u64,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::Draw)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let tournament = guard::begin_write(conn, id)?;
        let entered = tournaments::result_count(conn, id)? as usize;
        let all_teams = teams::list(conn, id)?;
        let active: Vec<TeamId> = all_teams
            .iter()
            .filter(|t| t.status == TeamStatus::Aktiv)
            .map(|t| t.id)
            .collect();
        draw::may_draw(entered, active.len(), tournament.mode.entrant())?;
        seats::delete_all(conn, id)?;
        // Reports from the tables belong to the old tables (none has a result yet).
        crate::db::table_entry::forget_reports(conn, id, None)?;
        let lose = schedule::draw_lose(&active, seed);
        teams::set_lose(conn, id, &lose)?;
        if tournament.mode.draws_partners() {
            let passen = match mode {
                DrawMode::Fest => tournament.passen as u32,
                DrawMode::ProPasse => 1,
            };
            let clubs = clubs_of(&tournament, &all_teams);
            let (rows, quality) = einzel_passen(id, &lose, &[], &[], &clubs, 1, passen, seed);
            seats::insert(conn, &rows)?;
            tournaments::set_draw(conn, id, mode, seed)?;
            return audit_draw(conn, actor, &tournament, mode, seed, None, quality);
        }
        let team_of_los = |los: u32| lose[los as usize - 1];
        let draws: Vec<PasseDraw<TeamId>> = match mode {
            DrawMode::Fest => schedule::fixed_schedule(lose.len() as u32, tournament.passen as u32)
                .into_iter()
                .map(|d| PasseDraw {
                    tables: d
                        .tables
                        .iter()
                        .map(|t| Table {
                            number: t.number,
                            team_a: team_of_los(t.team_a),
                            team_b: team_of_los(t.team_b),
                        })
                        .collect(),
                    bye: d.bye.map(team_of_los),
                })
                .collect(),
            DrawMode::ProPasse => vec![
                passe_draw::draw_passe(&PasseRequest {
                    active: &active,
                    history: &[],
                    passe: 1,
                    passen: tournament.passen as u32,
                    seed,
                    clubs: &clubs_of(&tournament, &all_teams),
                })
                .draw,
            ],
        };
        let clubs = clubs_of(&tournament, &all_teams);
        let mut rows = Vec::new();
        for (index, d) in draws.iter().enumerate() {
            rows.extend(seats::rows_of(id, index as u32 + 1, d));
        }
        seats::insert(conn, &rows)?;
        tournaments::set_draw(conn, id, mode, seed)?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                entity: "draw",
                entity_id: None,
                action: "draw",
            },
            tournament.draw_seed.as_ref(),
            Some(&DrawRecord {
                mode,
                seed,
                passe: None,
                tables: draws.iter().map(|d| d.tables.len()).sum(),
                rematches: schedule::rematches(&draws).len(),
                same_club: draws
                    .iter()
                    .flat_map(|d| &d.tables)
                    .filter(|t| {
                        matches!((clubs.get(&t.team_a), clubs.get(&t.team_b)), (Some(a), Some(b)) if a == b)
                    })
                    .count(),
            }),
        )?;
        Ok(())
    })
}

/// Einzelschieber: draws `passen` Passen from Passe `first` on, after `history`, for the
/// players in index order; the seat rows to write and the quality of the whole schedule.
#[allow(clippy::too_many_arguments)]
fn einzel_passen(
    id: TournamentId,
    players: &[TeamId],
    history: &[EinzelPasse],
    absent: &[usize],
    clubs: &HashMap<TeamId, u32>,
    first: u32,
    passen: u32,
    seed: u64,
) -> (Vec<SeatRow>, DrawQuality) {
    let club_list: Vec<Option<u32>> = players.iter().map(|p| clubs.get(p).copied()).collect();
    let clubs = (!clubs.is_empty()).then_some(club_list.as_slice());
    // Each Passe drawn later gets its own stream of the tournament's seed.
    let drawn = draw_einzel(&EinzelRequest {
        players: players.len(),
        fixed: history,
        passen: passen as usize,
        clubs,
        absent,
        seed: seed.wrapping_add(u64::from(first - 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
    });
    let mut rows = Vec::new();
    for (offset, passe) in drawn.iter().enumerate() {
        let tables: Vec<[TeamId; 4]> = passe.tables.iter().map(|t| t.map(|i| players[i])).collect();
        let spielfrei: Vec<TeamId> = passe.spielfrei.iter().map(|&i| players[i]).collect();
        rows.extend(seats::rows_of_einzel(
            id,
            first + offset as u32,
            &tables,
            &spielfrei,
        ));
    }
    let schedule: Vec<EinzelPasse> = history.iter().chain(&drawn).cloned().collect();
    (rows, einzel_draw::quality(players.len(), &schedule, clubs))
}

/// What the Protokoll keeps of an Einzelschieber draw.
#[derive(Serialize)]
struct EinzelDrawRecord {
    mode: DrawMode,
    seed: u64,
    passe: Option<u32>,
    partner_repeats: u32,
    meeting_repeats: u32,
    bound: u32,
    most_meetings: u32,
    same_club: u32,
}

fn audit_draw(
    conn: &mut Conn,
    actor: &Actor,
    tournament: &TournamentRow,
    mode: DrawMode,
    seed: u64,
    passe: Option<u32>,
    q: DrawQuality,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(tournament.id),
            entity: "draw",
            entity_id: None,
            action: if passe.is_some() {
                "draw_passe"
            } else {
                "draw"
            },
        },
        tournament.draw_seed.filter(|_| passe.is_none()).as_ref(),
        Some(&EinzelDrawRecord {
            mode,
            seed,
            passe,
            partner_repeats: q.partner_repeats,
            meeting_repeats: q.meeting_repeats,
            bound: q.bound,
            most_meetings: q.most_meetings,
            same_club: q.same_club,
        }),
    )?;
    Ok(())
}

/// Per-Passe mode: draws the next Passe among the teams still active.
pub fn draw_next_passe(conn: &mut Conn, actor: &Actor, id: TournamentId) -> Result<u32, Refusal> {
    guard::require(actor, Permission::Draw)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let tournament = guard::begin_write(conn, id)?;
        let data = tournament_data::load(conn, id)?;
        let active: Vec<TeamId> = data
            .teams
            .iter()
            .filter(|t| t.status == TeamStatus::Aktiv)
            .map(|t| t.id)
            .collect();
        let passe = draw::next_passe(DrawState {
            mode: tournament.draw_seed.map(|_| tournament.draw_mode),
            drawn_passen: data.drawn_passen(),
            passen: tournament.passen as u32,
            active_teams: active.len(),
            entrant: tournament.mode.entrant(),
        })?;
        let seed = tournament.draw_seed.unwrap_or_default() as u64;
        if tournament.mode.draws_partners() {
            // Every player ever seated keeps his index, so the Passen played stay as they
            // were; those who left sit nowhere from now on.
            let mut players: Vec<&TeamRow> = data.teams.iter().collect();
            players.sort_by_key(|t| (t.los.is_none(), t.los, t.startnummer));
            let players: Vec<TeamId> = players.iter().map(|t| t.id).collect();
            let index: HashMap<TeamId, usize> =
                players.iter().enumerate().map(|(i, t)| (*t, i)).collect();
            let absent: Vec<usize> = data
                .teams
                .iter()
                .filter(|t| t.status != TeamStatus::Aktiv)
                .filter_map(|t| index.get(&t.id).copied())
                .collect();
            let history = data.einzel_passen(&index);
            let clubs = clubs_of(&tournament, &data.teams);
            let (rows, quality) =
                einzel_passen(id, &players, &history, &absent, &clubs, passe, 1, seed);
            seats::insert(conn, &rows)?;
            audit_draw(
                conn,
                actor,
                &tournament,
                DrawMode::ProPasse,
                seed,
                Some(passe),
                quality,
            )?;
            return Ok(passe);
        }
        let previous = data.draws();
        let drawn = passe_draw::draw_passe(&PasseRequest {
            active: &active,
            history: &previous,
            passe,
            passen: tournament.passen as u32,
            seed,
            clubs: &clubs_of(&tournament, &data.teams),
        });
        seats::insert(conn, &seats::rows_of(id, passe, &drawn.draw))?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                entity: "draw",
                entity_id: None,
                action: "draw_passe",
            },
            None::<&()>,
            Some(&DrawRecord {
                mode: DrawMode::ProPasse,
                seed,
                passe: Some(passe),
                tables: drawn.draw.tables.len(),
                rematches: drawn.rematches.len(),
                same_club: drawn.same_club,
            }),
        )?;
        Ok(passe)
    })
}
