//! The Gabentisch: a tournament's prize list, and the Absenden's step.

use super::Conn;
use super::models::TournamentRow;
use super::schema::{prizes, tournaments};
use super::types::Nat;
use crate::domain::ids::TournamentId;
use crate::domain::prizes::{PrizeList, Recipient, SpecialPrize};
use diesel::prelude::*;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = prizes)]
struct PrizeRow {
    position: Nat,
    prize: String,
    title: Option<String>,
    startnummer: Option<Nat>,
    category: Option<String>,
}

/// A row that is neither a place's prize nor a special prize, or places with gaps: the list
/// would be read out wrong, so it is an error, never guessed.
fn corrupt(what: String) -> diesel::result::Error {
    diesel::result::Error::DeserializationError(what.into())
}

pub fn load(conn: &mut Conn, tournament: &TournamentRow) -> QueryResult<PrizeList> {
    let rows: Vec<PrizeRow> = prizes::table
        .filter(prizes::tournament_id.eq(tournament.id))
        .select(PrizeRow::as_select())
        .order((prizes::position, prizes::id))
        .load(conn)?;
    let mut list = PrizeList {
        others: tournament.prize_others.clone(),
        ..PrizeList::default()
    };
    for row in rows {
        match (row.title, row.startnummer, row.category) {
            (None, None, None) => {
                if usize::try_from(row.position.get()).ok() != Some(list.by_place.len() + 1) {
                    return Err(corrupt(format!(
                        "Preisliste von Turnier {}: Platz {} folgt auf Platz {}",
                        tournament.id,
                        row.position,
                        list.by_place.len()
                    )));
                }
                list.by_place.push(row.prize);
            }
            (Some(title), Some(startnummer), None) => list.special.push(SpecialPrize {
                title,
                to: Recipient::Startnummer(startnummer.get()),
                prize: row.prize,
            }),
            (Some(title), None, Some(category)) => list.special.push(SpecialPrize {
                title,
                to: Recipient::Category(category),
                prize: row.prize,
            }),
            _ => {
                return Err(corrupt(format!(
                    "Preisliste von Turnier {}: Spezialpreis ohne Titel, oder nicht genau einer Startnummer oder Kategorie",
                    tournament.id
                )));
            }
        }
    }
    Ok(list)
}

/// Replaces the tournament's list; returns the tournament row after.
pub fn replace(
    conn: &mut Conn,
    tournament: TournamentId,
    list: &PrizeList,
) -> QueryResult<TournamentRow> {
    diesel::delete(prizes::table.filter(prizes::tournament_id.eq(tournament))).execute(conn)?;
    let mut rows = Vec::with_capacity(list.by_place.len() + list.special.len());
    for (position, prize) in (1..).zip(&list.by_place) {
        rows.push((
            prizes::tournament_id.eq(tournament),
            prizes::position.eq(Nat::of(position)?),
            prizes::prize.eq(prize.clone()),
            prizes::title.eq(None::<String>),
            prizes::startnummer.eq(None::<Nat>),
            prizes::category.eq(None::<String>),
        ));
    }
    for (position, special) in (1..).zip(&list.special) {
        let (startnummer, category) = match &special.to {
            Recipient::Startnummer(n) => (Some(Nat::of(*n)?), None),
            Recipient::Category(name) => (None, Some(name.clone())),
        };
        rows.push((
            prizes::tournament_id.eq(tournament),
            prizes::position.eq(Nat::of(position)?),
            prizes::prize.eq(special.prize.clone()),
            prizes::title.eq(Some(special.title.clone())),
            prizes::startnummer.eq(startnummer),
            prizes::category.eq(category),
        ));
    }
    // One statement per row: SQLite's bound-parameter limit stays far away, and a list is
    // at most a few hundred lines.
    for row in rows {
        diesel::insert_into(prizes::table)
            .values(row)
            .execute(conn)?;
    }
    diesel::update(tournaments::table.find(tournament))
        .set(tournaments::prize_others.eq(&list.others))
        .returning(tournaments::all_columns)
        .get_result(conn)
}

/// Sets (or ends, with None) the Absenden's step.
pub fn set_step(
    conn: &mut Conn,
    tournament: TournamentId,
    step: Option<Nat>,
) -> QueryResult<TournamentRow> {
    diesel::update(tournaments::table.find(tournament))
        .set(tournaments::absenden_step.eq(step))
        .returning(tournaments::all_columns)
        .get_result(conn)
}
