//! Jassmarathon rows: the rules of a tournament, the clock of each Spielrunde, and the
//! lines and gong of each table's digital Tafel.

use super::Conn;
use super::models::{ClockRow, MarathonRulesRow, TafelLineRow};
use super::schema::{marathon_rules, round_clocks, tafel_entry_modes, tafel_gongs, tafel_lines};
use crate::db::types::Nat;
use crate::domain::clock::ClockFacts;
use crate::domain::ids::TournamentId;
use crate::domain::marathon::{Cards, Rules, Spiel, StricheValues};
use diesel::prelude::*;

fn to_row(id: TournamentId, r: &Rules) -> QueryResult<MarathonRulesRow> {
    let [m0, m1, m2, m3, m4, m5] = r.multipliers;
    Ok(MarathonRulesRow {
        tournament_id: id,
        round_minutes: Nat::of(r.round_minutes)?,
        target: Nat::of(r.target)?,
        berg: Nat::of(r.berg)?,
        match_bonus: Nat::of(r.match_bonus)?,
        mult_eichel: Nat::of(m0)?,
        mult_rose: Nat::of(m1)?,
        mult_schelle: Nat::of(m2)?,
        mult_schilte: Nat::of(m3)?,
        mult_obenabe: Nat::of(m4)?,
        mult_undenufe: Nat::of(m5)?,
        striche_match: Nat::of(r.striche.matches)?,
        striche_berg: Nat::of(r.striche.berg)?,
        striche_sieg: Nat::of(r.striche.sieg)?,
        striche_schneider: Nat::of(r.striche.schneider)?,
        striche_gong: Nat::of(r.striche.gong)?,
    })
}

fn from_row(r: &MarathonRulesRow) -> Rules {
    let u = Nat::get;
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
        .find(id)
        .select(MarathonRulesRow::as_select())
        .first(conn)
        .optional()?
        .map(|r| from_row(&r))
        .unwrap_or_else(Rules::jassmarathon))
}

/// Stores the rules (inside the caller's transaction).
pub fn save_rules(conn: &mut Conn, id: TournamentId, r: &Rules) -> QueryResult<()> {
    let row = to_row(id, r)?;
    super::on_backend!(conn, |c| diesel::insert_into(marathon_rules::table)
        .values(&row)
        .on_conflict(marathon_rules::tournament_id)
        .do_update()
        .set(&row)
        .execute(c))?;
    Ok(())
}

fn facts(c: ClockRow) -> ClockFacts {
    ClockFacts {
        started_at: c.started_at,
        paused_at: c.paused_at,
        paused_seconds: i64::from(c.paused_seconds),
        ended_at: c.ended_at,
    }
}

pub fn clock(conn: &mut Conn, id: TournamentId, passe: u32) -> QueryResult<Option<ClockFacts>> {
    Ok(round_clocks::table
        .find((id, Nat::of(passe)?))
        .select(ClockRow::as_select())
        .first(conn)
        .optional()?
        .map(facts))
}

/// Stores the clock of a Spielrunde (inserted the first time).
pub fn save_clock(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    clock: &ClockFacts,
) -> QueryResult<()> {
    let row = ClockRow {
        tournament_id: id,
        passe: Nat::of(passe)?,
        started_at: clock.started_at,
        paused_at: clock.paused_at,
        paused_seconds: Nat::of_i64(clock.paused_seconds)?,
        ended_at: clock.ended_at,
    };
    diesel::delete(round_clocks::table.find((id, Nat::of(passe)?))).execute(conn)?;
    diesel::insert_into(round_clocks::table)
        .values(&row)
        .execute(conn)?;
    Ok(())
}

fn spiel_of(row: &TafelLineRow) -> Spiel {
    Spiel {
        trump: row.trump,
        cards: match row.match_side {
            Some(side) => Cards::Match(side),
            None => Cards::Points(row.cards_a.map_or(0, Nat::get)),
        },
        weis_a: row.weis_a.get(),
        weis_b: row.weis_b.get(),
        stoeck: row.stoeck,
        first: row.first,
        ruling: row.ruling,
    }
}

fn row_of(
    id: TournamentId,
    passe: u32,
    table: u32,
    line_no: usize,
    s: &Spiel,
) -> QueryResult<TafelLineRow> {
    Ok(TafelLineRow {
        id: 0,
        tournament_id: id,
        passe: Nat::of(passe)?,
        table_no: Nat::of(table)?,
        line_no: Nat::of_usize(line_no)?,
        trump: s.trump,
        cards_a: match s.cards {
            Cards::Points(a) => Some(Nat::of(a)?),
            Cards::Match(_) => None,
        },
        match_side: match s.cards {
            Cards::Match(side) => Some(side),
            Cards::Points(_) => None,
        },
        weis_a: Nat::of(s.weis_a)?,
        weis_b: Nat::of(s.weis_b)?,
        stoeck: s.stoeck,
        first: s.first,
        ruling: s.ruling,
    })
}

fn of_table(
    id: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<tafel_lines::BoxedQuery<'static, super::Backend>> {
    Ok(tafel_lines::table
        .filter(tafel_lines::tournament_id.eq(id))
        .filter(tafel_lines::passe.eq(Nat::of(passe)?))
        .filter(tafel_lines::table_no.eq(Nat::of(table)?))
        .into_boxed())
}

/// The lines of a Tafel and whether its gong has sounded.
pub fn tafel(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<(Vec<Spiel>, bool)> {
    let rows: Vec<TafelLineRow> = of_table(id, passe, table)?
        .select(TafelLineRow::as_select())
        .order(tafel_lines::line_no)
        .load(conn)?;
    let gong: i64 = tafel_gongs::table
        .filter(tafel_gongs::tournament_id.eq(id))
        .filter(tafel_gongs::passe.eq(Nat::of(passe)?))
        .filter(tafel_gongs::table_no.eq(Nat::of(table)?))
        .count()
        .get_result(conn)?;
    Ok((rows.iter().map(spiel_of).collect(), gong > 0))
}

/// Replaces a Tafel's lines and gong.
pub fn save_tafel(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
    lines: &[Spiel],
    gong: bool,
) -> QueryResult<()> {
    diesel::delete(
        tafel_lines::table
            .filter(tafel_lines::tournament_id.eq(id))
            .filter(tafel_lines::passe.eq(Nat::of(passe)?))
            .filter(tafel_lines::table_no.eq(Nat::of(table)?)),
    )
    .execute(conn)?;
    let rows: Vec<TafelLineRow> = lines
        .iter()
        .enumerate()
        .map(|(i, s)| row_of(id, passe, table, i + 1, s))
        .collect::<QueryResult<_>>()?;
    for chunk in rows.chunks(200) {
        super::on_backend!(conn, |c| diesel::insert_into(tafel_lines::table)
            .values(chunk)
            .execute(c))?;
    }
    let key = (id, Nat::of(passe)?, Nat::of(table)?);
    diesel::delete(tafel_gongs::table.find(key)).execute(conn)?;
    if gong {
        diesel::insert_into(tafel_gongs::table)
            .values((
                tafel_gongs::tournament_id.eq(id),
                tafel_gongs::passe.eq(Nat::of(passe)?),
                tafel_gongs::table_no.eq(Nat::of(table)?),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Whether a table's result comes from its Tafel (lines or a gong), not a Schnellerfassung.
pub fn has_tafel(conn: &mut Conn, id: TournamentId, passe: u32, table: u32) -> QueryResult<bool> {
    let (lines, gong) = tafel(conn, id, passe, table)?;
    Ok(!lines.is_empty() || gong)
}

/// One stored Tafel: Spielrunde, table, lines, gong.
pub type StoredTafel = (u32, u32, Vec<Spiel>, bool);

/// Every Tafel of a tournament, in order.
pub fn all_tafeln(conn: &mut Conn, id: TournamentId) -> QueryResult<Vec<StoredTafel>> {
    let rows: Vec<TafelLineRow> = tafel_lines::table
        .filter(tafel_lines::tournament_id.eq(id))
        .select(TafelLineRow::as_select())
        .order((
            tafel_lines::passe,
            tafel_lines::table_no,
            tafel_lines::line_no,
        ))
        .load(conn)?;
    let gongs: Vec<(Nat, Nat)> = tafel_gongs::table
        .filter(tafel_gongs::tournament_id.eq(id))
        .select((tafel_gongs::passe, tafel_gongs::table_no))
        .load(conn)?;
    let mut keys: Vec<(Nat, Nat)> = rows.iter().map(|r| (r.passe, r.table_no)).collect();
    keys.extend(gongs.iter().copied());
    keys.sort_unstable();
    keys.dedup();
    Ok(keys
        .into_iter()
        .map(|(passe, table)| {
            let lines = rows
                .iter()
                .filter(|r| (r.passe, r.table_no) == (passe, table))
                .map(spiel_of)
                .collect();
            (
                passe.get(),
                table.get(),
                lines,
                gongs.contains(&(passe, table)),
            )
        })
        .collect())
}

/// Every clock of a tournament, by Spielrunde.
pub fn all_clocks(conn: &mut Conn, id: TournamentId) -> QueryResult<Vec<(u32, ClockFacts)>> {
    Ok(round_clocks::table
        .filter(round_clocks::tournament_id.eq(id))
        .select(ClockRow::as_select())
        .order(round_clocks::passe)
        .load(conn)?
        .into_iter()
        .map(|c| (c.passe.get(), facts(c)))
        .collect())
}

/// Tafeln with lines and no gong yet, of one Spielrunde or all: (Spielrunde, table).
pub fn open_tafeln(
    conn: &mut Conn,
    id: TournamentId,
    passe: Option<u32>,
) -> QueryResult<std::collections::HashSet<(u32, u32)>> {
    let mut lines = tafel_lines::table
        .filter(tafel_lines::tournament_id.eq(id))
        .select((tafel_lines::passe, tafel_lines::table_no))
        .distinct()
        .into_boxed();
    let mut gongs = tafel_gongs::table
        .filter(tafel_gongs::tournament_id.eq(id))
        .select((tafel_gongs::passe, tafel_gongs::table_no))
        .into_boxed();
    if let Some(p) = passe {
        lines = lines.filter(tafel_lines::passe.eq(Nat::of(p)?));
        gongs = gongs.filter(tafel_gongs::passe.eq(Nat::of(p)?));
    }
    let closed: std::collections::HashSet<(Nat, Nat)> = gongs.load(conn)?.into_iter().collect();
    Ok(lines
        .load::<(Nat, Nat)>(conn)?
        .into_iter()
        .filter(|key| !closed.contains(key))
        .map(|(p, t)| (p.get(), t.get()))
        .collect())
}

/// Whether the office types this Tafel's points already multiplied.
pub fn entry_multiplied(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<bool> {
    Ok(tafel_entry_modes::table
        .find((id, Nat::of(passe)?, Nat::of(table)?))
        .select(tafel_entry_modes::multiplied)
        .first(conn)
        .optional()?
        .unwrap_or(false))
}

pub fn set_entry_multiplied(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
    multiplied: bool,
) -> QueryResult<()> {
    super::on_backend!(conn, |c| diesel::insert_into(tafel_entry_modes::table)
        .values((
            tafel_entry_modes::tournament_id.eq(id),
            tafel_entry_modes::passe.eq(Nat::of(passe)?),
            tafel_entry_modes::table_no.eq(Nat::of(table)?),
            tafel_entry_modes::multiplied.eq(multiplied),
        ))
        .on_conflict((
            tafel_entry_modes::tournament_id,
            tafel_entry_modes::passe,
            tafel_entry_modes::table_no,
        ))
        .do_update()
        .set(tafel_entry_modes::multiplied.eq(multiplied))
        .execute(c))?;
    Ok(())
}
