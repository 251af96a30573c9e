//! Team rows of a tournament: registration, Lose, status, final visa.

use super::models::{NewTeam, Signer, TeamRow, TeamValues, VisaMark};
use super::schema::{suspended_final_visas, teams};
use super::{Conn, now};
use crate::db::types::Nat;
use crate::domain::ids::{TeamId, TournamentId, UserId};
use crate::domain::team::{TeamInput, TeamStatus};
use chrono::NaiveDateTime;
use diesel::prelude::*;

pub fn list(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Vec<TeamRow>> {
    teams::table
        .filter(teams::tournament_id.eq(tournament))
        .select(TeamRow::as_select())
        .order(teams::startnummer)
        .load(conn)
}

/// The teams of these ids (of one tournament), by Startnummer.
pub fn some(
    conn: &mut Conn,
    tournament: TournamentId,
    ids: &[TeamId],
) -> QueryResult<Vec<TeamRow>> {
    teams::table
        .filter(teams::tournament_id.eq(tournament))
        .filter(teams::id.eq_any(ids))
        .select(TeamRow::as_select())
        .order(teams::startnummer)
        .load(conn)
}

pub fn find(
    conn: &mut Conn,
    tournament: TournamentId,
    team: TeamId,
) -> QueryResult<Option<TeamRow>> {
    teams::table
        .filter(teams::tournament_id.eq(tournament))
        .filter(teams::id.eq(team))
        .select(TeamRow::as_select())
        .first(conn)
        .optional()
}

pub fn by_startnummer(
    conn: &mut Conn,
    tournament: TournamentId,
    startnummer: u32,
) -> QueryResult<Option<TeamRow>> {
    teams::table
        .filter(teams::tournament_id.eq(tournament))
        .filter(teams::startnummer.eq(Nat::of(startnummer)?))
        .select(TeamRow::as_select())
        .first(conn)
        .optional()
}

pub fn startnummern(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Vec<u32>> {
    let numbers: Vec<Nat> = teams::table
        .filter(teams::tournament_id.eq(tournament))
        .select(teams::startnummer)
        .load(conn)?;
    Ok(numbers.into_iter().map(Nat::get).collect())
}

/// Whether another team of the tournament has this Startnummer.
pub fn taken(
    conn: &mut Conn,
    tournament: TournamentId,
    startnummer: u32,
    except: Option<TeamId>,
) -> QueryResult<bool> {
    let mut query = teams::table
        .filter(teams::tournament_id.eq(tournament))
        .filter(teams::startnummer.eq(Nat::of(startnummer)?))
        .into_boxed();
    if let Some(id) = except {
        query = query.filter(teams::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

fn values(input: &TeamInput, startnummer: u32) -> QueryResult<TeamValues> {
    Ok(TeamValues {
        startnummer: Nat::of(startnummer)?,
        name: input.name.clone(),
        player1: input.player1.clone(),
        player2: input.player2.clone(),
        club: input.club.clone(),
        place: input.place.clone(),
    })
}

pub fn insert(
    conn: &mut Conn,
    tournament: TournamentId,
    input: &TeamInput,
    startnummer: u32,
) -> QueryResult<TeamRow> {
    diesel::insert_into(teams::table)
        .values(NewTeam {
            tournament_id: tournament,
            values: values(input, startnummer)?,
        })
        .returning(teams::all_columns)
        .get_result(conn)
}

/// Many new teams in a few statements (an import), in the order given.
pub fn insert_many(
    conn: &mut Conn,
    tournament: TournamentId,
    teams_: &[(&TeamInput, u32)],
) -> QueryResult<Vec<TeamRow>> {
    let mut inserted = Vec::with_capacity(teams_.len());
    for chunk in teams_.chunks(super::audit::BATCH_ROWS) {
        let rows: Vec<NewTeam> = chunk
            .iter()
            .map(|(input, startnummer)| {
                Ok(NewTeam {
                    tournament_id: tournament,
                    values: values(input, *startnummer)?,
                })
            })
            .collect::<QueryResult<_>>()?;
        let mut done: Vec<TeamRow> =
            super::on_backend!(conn, |c| diesel::insert_into(teams::table)
                .values(&rows)
                .returning(teams::all_columns)
                .get_results(c))?;
        // RETURNING does not promise the order of a multi-row insert.
        done.sort_by_key(|t| t.id);
        inserted.extend(done);
    }
    Ok(inserted)
}

pub fn update(
    conn: &mut Conn,
    team: TeamId,
    input: &TeamInput,
    startnummer: u32,
) -> QueryResult<TeamRow> {
    diesel::update(teams::table.find(team))
        .set(values(input, startnummer)?)
        .returning(teams::all_columns)
        .get_result(conn)
}

pub fn delete(conn: &mut Conn, team: TeamId) -> QueryResult<()> {
    super::table_entry::forget_team(conn, team)?;
    super::categories::forget_team(conn, team)?;
    super::persons::forget_team(conn, team)?;
    diesel::delete(teams::table.find(team)).execute(conn)?;
    Ok(())
}

/// Gives the Lose: `lose[i]` draws Los i+1; every other team of the tournament has none.
pub fn set_lose(conn: &mut Conn, tournament: TournamentId, lose: &[TeamId]) -> QueryResult<()> {
    diesel::update(teams::table.filter(teams::tournament_id.eq(tournament)))
        .set(teams::los.eq(None::<Nat>))
        .execute(conn)?;
    // One statement per few hundred teams, not one per team (each a round trip to a
    // PostgreSQL server): `UPDATE … FROM (VALUES …)`, which SQLite and PostgreSQL both read,
    // the numbers written out (they are ids and Lose, no text).
    let numbered: Vec<(TeamId, Nat)> = lose
        .iter()
        .enumerate()
        .map(|(index, team)| Ok((*team, Nat::of_usize(index + 1)?)))
        .collect::<QueryResult<_>>()?;
    for chunk in numbered.chunks(super::audit::BATCH_ROWS) {
        let values: Vec<String> = chunk
            .iter()
            .map(|(id, los)| format!("({id}, {los})"))
            .collect();
        diesel::sql_query(format!(
            "UPDATE teams SET los = v.column2 FROM (VALUES {}) AS v WHERE teams.id = v.column1",
            values.join(", ")
        ))
        .execute(conn)?;
    }
    Ok(())
}

/// A team's status; leaving it (`out_passe` given) or coming back, with its final visa.
pub struct StatusChange {
    pub status: TeamStatus,
    pub out_passe: Option<u32>,
    pub out_reason: Option<String>,
    pub final_visa: VisaMark,
}

pub fn set_status(conn: &mut Conn, team: TeamId, change: StatusChange) -> QueryResult<TeamRow> {
    diesel::update(teams::table.find(team))
        .set((
            teams::status.eq(change.status),
            teams::out_passe.eq(change.out_passe.map(Nat::of).transpose()?),
            teams::out_reason.eq(change.out_reason),
            teams::final_visa_by.eq(signer_user(&change.final_visa)),
            teams::final_visa_name.eq(signer_name(&change.final_visa)),
            teams::final_visa_at.eq(change.final_visa.as_ref().map(|v| v.1)),
        ))
        .returning(teams::all_columns)
        .get_result(conn)
}

pub fn set_final_visa(conn: &mut Conn, team: TeamId, by: Option<UserId>) -> QueryResult<TeamRow> {
    diesel::update(teams::table.find(team))
        .set((
            teams::final_visa_by.eq(by),
            teams::final_visa_name.eq(None::<String>),
            teams::final_visa_at.eq(by.map(|_| now())),
        ))
        .returning(teams::all_columns)
        .get_result(conn)
}

/// Whether any team of the tournament has its final visa (a write may have to revoke it).
pub fn any_final_visa(conn: &mut Conn, tournament: TournamentId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        teams::table
            .filter(teams::tournament_id.eq(tournament))
            .filter(teams::final_visa_at.is_not_null()),
    ))
    .get_result(conn)
}

/// Teams still in the tournament without their final visa (closing the tournament leaves
/// them *nicht bewertet*): how many, and the first `shown` of them by Startnummer.
pub fn without_final_visa(
    conn: &mut Conn,
    tournament: TournamentId,
    shown: i64,
) -> QueryResult<(i64, Vec<TeamRow>)> {
    let open = || {
        teams::table
            .filter(teams::tournament_id.eq(tournament))
            .filter(teams::status.eq(TeamStatus::Aktiv.as_str()))
            .filter(teams::final_visa_at.is_null())
    };
    let count = open().count().get_result(conn)?;
    let first = open()
        .select(TeamRow::as_select())
        .order(teams::startnummer)
        .limit(shown)
        .load(conn)?;
    Ok((count, first))
}

/// The account of a visa, if it was given here.
pub fn signer_user(mark: &VisaMark) -> Option<UserId> {
    match mark {
        Some((Signer::User(id), _)) => Some(*id),
        _ => None,
    }
}

/// The imported name of a visa, if it came with an imported tournament.
pub fn signer_name(mark: &VisaMark) -> Option<String> {
    match mark {
        Some((Signer::Imported(name), _)) => Some(name.clone()),
        _ => None,
    }
}

/// A final visa that fell because `cause` left the tournament, kept so that undoing the
/// disqualification or withdrawal restores it.
pub struct SuspendedVisa {
    pub team: TeamId,
    pub visa: VisaMark,
    pub total: u32,
}

pub fn suspend_final_visa(
    conn: &mut Conn,
    cause: TeamId,
    suspended: &SuspendedVisa,
) -> QueryResult<()> {
    let Some((_, at)) = &suspended.visa else {
        return Ok(());
    };
    diesel::delete(suspended_final_visas::table.find(suspended.team)).execute(conn)?;
    diesel::insert_into(suspended_final_visas::table)
        .values((
            suspended_final_visas::team_id.eq(suspended.team),
            suspended_final_visas::cause_team_id.eq(cause),
            suspended_final_visas::visa_by.eq(signer_user(&suspended.visa)),
            suspended_final_visas::visa_name.eq(signer_name(&suspended.visa)),
            suspended_final_visas::visa_at.eq(*at),
            suspended_final_visas::total.eq(Nat::of(suspended.total)?),
        ))
        .execute(conn)?;
    set_final_visa(conn, suspended.team, None)?;
    Ok(())
}

/// A final visa held aside, as stored.
#[derive(Queryable, Selectable)]
#[diesel(table_name = suspended_final_visas)]
struct HeldRow {
    team_id: TeamId,
    cause_team_id: TeamId,
    visa_by: Option<UserId>,
    visa_name: Option<String>,
    visa_at: NaiveDateTime,
    total: Nat,
}

impl HeldRow {
    fn visa(self) -> SuspendedVisa {
        SuspendedVisa {
            team: self.team_id,
            visa: match (self.visa_by, self.visa_name) {
                (Some(user), _) => Some((Signer::User(user), self.visa_at)),
                (None, Some(name)) => Some((Signer::Imported(name), self.visa_at)),
                (None, None) => None,
            },
            total: self.total.get(),
        }
    }
}

/// Takes the final visas suspended because of `cause` (and forgets them).
pub fn take_suspended_final_visas(
    conn: &mut Conn,
    cause: TeamId,
) -> QueryResult<Vec<SuspendedVisa>> {
    let rows: Vec<HeldRow> = suspended_final_visas::table
        .filter(suspended_final_visas::cause_team_id.eq(cause))
        .select(HeldRow::as_select())
        .order(suspended_final_visas::team_id)
        .load(conn)?;
    diesel::delete(
        suspended_final_visas::table.filter(suspended_final_visas::cause_team_id.eq(cause)),
    )
    .execute(conn)?;
    Ok(rows.into_iter().map(HeldRow::visa).collect())
}

/// The final visas held aside in a tournament, each with the team that caused it.
pub fn suspended_in(
    conn: &mut Conn,
    tournament: TournamentId,
) -> QueryResult<Vec<(TeamId, SuspendedVisa)>> {
    let rows: Vec<HeldRow> = suspended_final_visas::table
        .filter(
            suspended_final_visas::team_id.eq_any(
                teams::table
                    .filter(teams::tournament_id.eq(tournament))
                    .select(teams::id),
            ),
        )
        .select(HeldRow::as_select())
        .order(suspended_final_visas::team_id)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|row| (row.cause_team_id, row.visa()))
        .collect())
}

/// Gives a final visa back exactly as it was (signer and time).
pub fn restore_final_visa(conn: &mut Conn, team: TeamId, visa: &VisaMark) -> QueryResult<()> {
    diesel::update(teams::table.find(team))
        .set((
            teams::final_visa_by.eq(signer_user(visa)),
            teams::final_visa_name.eq(signer_name(visa)),
            teams::final_visa_at.eq(visa.as_ref().map(|v| v.1)),
        ))
        .execute(conn)?;
    Ok(())
}
