//! Jassmarathon: the rules of a tournament, the clock of each Spielrunde, and the digital
//! Tafel of each table, whose Striche become the table's result.

use super::audit::{self, Entry};
use super::models::{ClockRow, MarathonRulesRow, TafelLineRow};
use super::results::{
    SaveOutcome, TableEntry, TournamentData, finish_result_writes, load_passe, sheets_before_write,
    write_result,
};
use super::schema::{marathon_rules, results, round_clocks, tafel_gongs, tafel_lines};
use super::tournaments::{begin_write, ensure_open};
use super::{Conn, now};
use crate::domain::clock::ClockFacts;
use crate::domain::ids::TournamentId;
use crate::domain::marathon::{
    Cards, Rules, Side, Spiel, Striche, StricheValues, Tafel, Trump, compute,
};
use crate::domain::result::TableScore;
use crate::domain::role::{Actor, Permission};
use crate::error::AppError;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

fn to_row(id: TournamentId, r: &Rules) -> MarathonRulesRow {
    let m = r.multipliers.map(|x| x as i32);
    MarathonRulesRow {
        tournament_id: id.0,
        round_minutes: r.round_minutes as i32,
        target: r.target as i32,
        berg: r.berg as i32,
        match_bonus: r.match_bonus as i32,
        mult_eichel: m[0],
        mult_rose: m[1],
        mult_schelle: m[2],
        mult_schilte: m[3],
        mult_obenabe: m[4],
        mult_undenufe: m[5],
        striche_match: r.striche.matches as i32,
        striche_berg: r.striche.berg as i32,
        striche_sieg: r.striche.sieg as i32,
        striche_schneider: r.striche.schneider as i32,
        striche_gong: r.striche.gong as i32,
    }
}

fn from_row(r: &MarathonRulesRow) -> Rules {
    let u = |x: i32| x.max(0) as u32;
    Rules {
        round_minutes: u(r.round_minutes),
        target: u(r.target),
        berg: u(r.berg),
        match_bonus: u(r.match_bonus),
        multipliers: [
            r.mult_eichel,
            r.mult_rose,
            r.mult_schelle,
            r.mult_schilte,
            r.mult_obenabe,
            r.mult_undenufe,
        ]
        .map(u),
        striche: StricheValues {
            matches: u(r.striche_match),
            berg: u(r.striche_berg),
            sieg: u(r.striche_sieg),
            schneider: u(r.striche_schneider),
            gong: u(r.striche_gong),
        },
    }
}

/// The tournament's rules; the seed's values until the Leitung sets others.
pub fn rules(conn: &mut Conn, id: TournamentId) -> QueryResult<Rules> {
    Ok(marathon_rules::table
        .find(id.0)
        .select(MarathonRulesRow::as_select())
        .first(conn)
        .optional()?
        .map(|r| from_row(&r))
        .unwrap_or_else(Rules::jassmarathon))
}

/// Stores the rules (inside the caller's transaction).
pub fn save_rules(conn: &mut Conn, id: TournamentId, r: &Rules) -> QueryResult<()> {
    let row = to_row(id, r);
    diesel::insert_into(marathon_rules::table)
        .values(&row)
        .on_conflict(marathon_rules::tournament_id)
        .do_update()
        .set(&row)
        .execute(conn)?;
    Ok(())
}

pub fn clock(conn: &mut Conn, id: TournamentId, passe: u32) -> QueryResult<Option<ClockFacts>> {
    Ok(round_clocks::table
        .find((id.0, passe as i32))
        .select(ClockRow::as_select())
        .first(conn)
        .optional()?
        .map(|c| ClockFacts {
            started_at: c.started_at,
            paused_at: c.paused_at,
            paused_seconds: i64::from(c.paused_seconds),
            ended_at: c.ended_at,
        }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockAction {
    Start,
    Pause,
    Resume,
    End,
}

impl ClockAction {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "start" => Some(ClockAction::Start),
            "pause" => Some(ClockAction::Pause),
            "resume" => Some(ClockAction::Resume),
            "end" => Some(ClockAction::End),
            _ => None,
        }
    }
}

pub fn clock_action(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    action: ClockAction,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        let t = begin_write(conn, id)?;
        if passe == 0 || passe > t.passen as u32 {
            return Err(AppError::NotFound(format!(
                "Spielrunde {passe} gibt es nicht."
            )));
        }
        let key = (id.0, passe as i32);
        let before: Option<ClockRow> = round_clocks::table
            .find(key)
            .select(ClockRow::as_select())
            .first(conn)
            .optional()?;
        let at = now();
        let refuse = |m: &str| Err(AppError::BadRequest(m.to_string()));
        match (action, &before) {
            (ClockAction::Start, None) => {
                diesel::insert_into(round_clocks::table)
                    .values(ClockRow {
                        tournament_id: id.0,
                        passe: passe as i32,
                        started_at: at,
                        paused_at: None,
                        paused_seconds: 0,
                        ended_at: None,
                    })
                    .execute(conn)?;
            }
            (ClockAction::Start, Some(_)) => return refuse("Die Spielrunde läuft bereits."),
            (_, None) => return refuse("Die Spielrunde ist noch nicht gestartet."),
            (_, Some(c)) if c.ended_at.is_some() => return refuse("Die Spielrunde ist beendet."),
            (ClockAction::Pause, Some(c)) if c.paused_at.is_none() => {
                diesel::update(round_clocks::table.find(key))
                    .set(round_clocks::paused_at.eq(Some(at)))
                    .execute(conn)?;
            }
            (ClockAction::Resume, Some(c)) if c.paused_at.is_some() => {
                let paused = c.paused_at.map(|p| (at - p).num_seconds()).unwrap_or(0) as i32;
                diesel::update(round_clocks::table.find(key))
                    .set((
                        round_clocks::paused_at.eq(None::<chrono::NaiveDateTime>),
                        round_clocks::paused_seconds.eq(c.paused_seconds + paused),
                    ))
                    .execute(conn)?;
            }
            (ClockAction::End, Some(_)) => {
                diesel::update(round_clocks::table.find(key))
                    .set(round_clocks::ended_at.eq(Some(at)))
                    .execute(conn)?;
            }
            (ClockAction::Pause, _) => return refuse("Die Spielrunde ist bereits angehalten."),
            (ClockAction::Resume, _) => return refuse("Die Spielrunde läuft."),
        }
        let after: Option<ClockRow> = round_clocks::table
            .find(key)
            .select(ClockRow::as_select())
            .first(conn)
            .optional()?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "clock",
                entity_id: Some(passe as i32),
                action: format!("{action:?}").to_lowercase().as_str(),
            },
            before.as_ref(),
            after.as_ref(),
        )?;
        Ok(())
    })
}

fn spiel_of(row: &TafelLineRow) -> Spiel {
    Spiel {
        trump: row.trump.parse().unwrap_or(Trump::Rose),
        cards: match row.match_side.as_deref().and_then(Side::parse) {
            Some(side) => Cards::Match(side),
            None => Cards::Points(row.cards_a.unwrap_or(0).max(0) as u32),
        },
        weis_a: row.weis_a.max(0) as u32,
        weis_b: row.weis_b.max(0) as u32,
        stoeck: row.stoeck.as_deref().and_then(Side::parse),
        first: row.first.as_deref().and_then(Side::parse),
    }
}

fn row_of(id: TournamentId, passe: u32, table: u32, line_no: usize, s: &Spiel) -> TafelLineRow {
    TafelLineRow {
        id: 0,
        tournament_id: id.0,
        passe: passe as i32,
        table_no: table as i32,
        line_no: line_no as i32,
        trump: s.trump.as_str().into(),
        cards_a: match s.cards {
            Cards::Points(a) => Some(a as i32),
            Cards::Match(_) => None,
        },
        match_side: match s.cards {
            Cards::Match(side) => Some(side.as_str().into()),
            Cards::Points(_) => None,
        },
        weis_a: s.weis_a as i32,
        weis_b: s.weis_b as i32,
        stoeck: s.stoeck.map(|x| x.as_str().into()),
        first: s.first.map(|x| x.as_str().into()),
    }
}

fn of_table(
    id: TournamentId,
    passe: u32,
    table: u32,
) -> tafel_lines::BoxedQuery<'static, diesel::sqlite::Sqlite> {
    tafel_lines::table
        .filter(tafel_lines::tournament_id.eq(id.0))
        .filter(tafel_lines::passe.eq(passe as i32))
        .filter(tafel_lines::table_no.eq(table as i32))
        .into_boxed()
}

/// The lines of a Tafel and whether its gong has sounded.
pub fn tafel(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<(Vec<Spiel>, bool)> {
    let rows: Vec<TafelLineRow> = of_table(id, passe, table)
        .select(TafelLineRow::as_select())
        .order(tafel_lines::line_no)
        .load(conn)?;
    let gong: i64 = tafel_gongs::table
        .filter(tafel_gongs::tournament_id.eq(id.0))
        .filter(tafel_gongs::passe.eq(passe as i32))
        .filter(tafel_gongs::table_no.eq(table as i32))
        .count()
        .get_result(conn)?;
    Ok((rows.iter().map(spiel_of).collect(), gong > 0))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TafelChange {
    Add(Spiel),
    Replace(usize, Spiel),
    Delete(usize),
    Gong(bool),
}

/// The Striche behind a result, for the Standblatt and exports.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Details {
    pub a: Striche,
    pub b: Striche,
}

/// Applies one change to a Tafel, recomputes it from its first line, and writes the
/// Striche as the table's result, all in one transaction. A visaed result may only be
/// changed by those who may correct visaed results; the change removes the visas.
pub fn change_tafel(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    table: u32,
    change: TafelChange,
) -> Result<Tafel, AppError> {
    conn.immediate_transaction(|conn| {
        ensure_open(conn, id)?;
        let data: TournamentData = load_passe(conn, id, passe)?;
        let before = sheets_before_write(conn, &data)?;
        if !data.tables(passe).iter().any(|t| t.number == table) {
            return Err(AppError::NotFound(format!("Tisch {table} gibt es in Spielrunde {passe} nicht.")));
        }
        let rules = rules(conn, id)?;
        let (mut lines, mut gong) = tafel(conn, id, passe, table)?;
        let bad_line = |n: usize| AppError::BadRequest(format!("Zeile {n} gibt es nicht."));
        match change {
            TafelChange::Add(s) => lines.push(s),
            TafelChange::Replace(n, s) => *lines.get_mut(n.wrapping_sub(1)).ok_or_else(|| bad_line(n))? = s,
            TafelChange::Delete(n) => {
                if n == 0 || n > lines.len() {
                    return Err(bad_line(n));
                }
                lines.remove(n - 1);
            }
            TafelChange::Gong(on) => gong = on,
        }
        let computed = compute(&rules, &lines, gong).map_err(|e| AppError::BadRequest(format!("Zeile {}: {}", e.line, e.message)))?;
        let existing = data.result_at(passe, table).cloned();
        if let Some(r) = &existing
            && (r.visa_a_by.is_some() || r.visa_b_by.is_some())
            && !actor.may(Permission::CorrectVisaedResults)
        {
            return Err(AppError::Forbidden("Dieses Resultat ist visiert: ändern dürfen nur Turnierleitung und Kontrolleure.".into()));
        }
        diesel::delete(tafel_lines::table.filter(tafel_lines::id.eq_any(of_table(id, passe, table).select(tafel_lines::id)))).execute(conn)?;
        let rows: Vec<TafelLineRow> = lines.iter().enumerate().map(|(i, s)| row_of(id, passe, table, i + 1, s)).collect();
        for chunk in rows.chunks(200) {
            diesel::insert_into(tafel_lines::table).values(chunk).execute(conn)?;
        }
        let gong_key = (id.0, passe as i32, table as i32);
        diesel::delete(tafel_gongs::table.find(gong_key)).execute(conn)?;
        if gong {
            diesel::insert_into(tafel_gongs::table)
                .values((tafel_gongs::tournament_id.eq(id.0), tafel_gongs::passe.eq(passe as i32), tafel_gongs::table_no.eq(table as i32)))
                .execute(conn)?;
        }
        let details = serde_json::to_string(&Details { a: computed.a, b: computed.b })?;
        let score = TableScore { points_a: computed.a.total(), points_b: computed.b.total(), matches_a: computed.a.matches, matches_b: computed.b.matches };
        if lines.is_empty() && !gong {
            if let Some(r) = existing {
                diesel::delete(results::table.find(r.id)).execute(conn)?;
            }
        } else if let SaveOutcome::Conflict(_) = write_result(conn, actor, &data, &TableEntry { passe, table, score, expected_version: existing.map(|r| r.version), details: Some(details) })? {
            return Err(AppError::Conflict("Die Tafel wurde gleichzeitig geändert. Bitte neu laden.".into()));
        }
        audit::record(
            conn,
            Some(actor),
            Entry { tournament: Some(id), entity: "tafel", entity_id: Some(table as i32), action: match change {
                TafelChange::Add(_) => "add_line",
                TafelChange::Replace(..) => "correct_line",
                TafelChange::Delete(_) => "delete_line",
                TafelChange::Gong(_) => "gong",
            } },
            None::<&()>,
            Some(&serde_json::json!({ "passe": passe, "table": table, "lines": lines.len(), "gong": gong, "striche": [score.points_a, score.points_b] })),
        )?;
        finish_result_writes(conn, id, before.as_deref())?;
        Ok(computed)
    })
}

/// Striche details of a stored result, if it has them.
pub fn details(raw: Option<&str>) -> Option<Details> {
    raw.and_then(|r| serde_json::from_str(r).ok())
}
