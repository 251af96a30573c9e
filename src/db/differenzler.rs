//! A Differenzler tournament's options (#81), one row per tournament.

use super::Conn;
use super::models::TournamentRow;
use super::schema::differenzler_rules;
use crate::domain::differenzler::{Exact, Options, Pauschale, Rules};
use crate::domain::ids::TournamentId;
use diesel::prelude::*;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = differenzler_rules)]
struct RulesRow {
    tournament_id: TournamentId,
    match_bonus: bool,
    stoeck: bool,
    count_nuller: bool,
    pauschale_average: bool,
}

/// The tournament's rules; without a row the defaults. A fixed Pauschale is the
/// tournament's own Pauschale.
pub fn rules(conn: &mut Conn, t: &TournamentRow) -> QueryResult<Rules> {
    let row = differenzler_rules::table
        .find(t.id)
        .select(RulesRow::as_select())
        .first(conn)
        .optional()?;
    Ok(row.map_or_else(Rules::default, |r| Rules {
        options: Options {
            match_bonus: r.match_bonus,
            stoeck: r.stoeck,
            exact: match r.count_nuller {
                true => Exact::CountNuller,
                false => Exact::Nothing,
            },
        },
        pauschale: match r.pauschale_average {
            true => Pauschale::Average,
            false => Pauschale::Fixed(t.pauschale.get()),
        },
    }))
}

/// Stores the rules (inside the caller's transaction); a fixed Pauschale's number is the
/// tournament's.
pub fn save_rules(conn: &mut Conn, id: TournamentId, r: &Rules) -> QueryResult<()> {
    let row = RulesRow {
        tournament_id: id,
        match_bonus: r.options.match_bonus,
        stoeck: r.options.stoeck,
        count_nuller: r.options.counts_nuller(),
        pauschale_average: r.pauschale == Pauschale::Average,
    };
    super::on_backend!(conn, |c| diesel::insert_into(differenzler_rules::table)
        .values(&row)
        .on_conflict(differenzler_rules::tournament_id)
        .do_update()
        .set(&row)
        .execute(c))?;
    Ok(())
}
