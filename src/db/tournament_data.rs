//! The read model: one tournament with its teams, schedule, results and pending entries,
//! from which Standblätter, Tischlisten and the Rangliste are built.

use super::Conn;
use super::models::{PendingEntry, ResultRow, SeatRow, Signer, TeamRow, TournamentRow, VisaMark};
use super::schema::{pending_entries, results, seats, users};
use crate::db::types::Nat;
use crate::domain::differenzler::{Pauschale, TableSheet};
use crate::domain::einzel_draw::EinzelPasse;
use crate::domain::ids::{TeamId, TournamentId, UserId};
use crate::domain::marathon::Side;
use crate::domain::schedule::{PasseDraw, Table};
use crate::domain::standblatt::{
    self, Places, ResultFacts, SeatFacts, Standblatt, TeamFacts, TournamentFacts, Visa,
};
use diesel::prelude::*;
use std::collections::HashMap;

/// How visas and audit entries of an imported tournament name their author: no account
/// of this instance stands behind them.
pub const IMPORTED: &str = "importiert: ";

/// Everything about one tournament that the Standblätter and the Rangliste are built from.
/// [`TournamentFacts`] with owned parts.
pub struct OwnedFacts {
    pub passen: u32,
    pub pauschale: Pauschale,
    pub teams: Vec<TeamFacts>,
    pub seats: Vec<SeatFacts>,
    pub results: Vec<ResultFacts>,
}

impl OwnedFacts {
    pub fn borrow(&self) -> TournamentFacts<'_> {
        TournamentFacts {
            passen: self.passen,
            pauschale: self.pauschale,
            teams: &self.teams,
            seats: &self.seats,
            results: &self.results,
        }
    }
}

/// Read-only after loading: [`Index`] is built from the rows once, so that lookups by team,
/// Passe and table do not scan the lists (linear pages for big fields).
pub struct TournamentData {
    pub tournament: TournamentRow,
    pub teams: Vec<TeamRow>,
    pub seats: Vec<SeatRow>,
    pub results: Vec<ResultRow>,
    pub usernames: HashMap<UserId, String>,
    /// Double entry: entries waiting for their confirmation (or in contradiction).
    pub pending: Vec<PendingEntry>,
    /// Tafeln with lines that are not closed yet (no gong): their Striche are provisional
    /// and their table is not final.
    pub open_tafeln: std::collections::HashSet<(u32, u32)>,
    /// The categories and their members (the whole tournament only; empty otherwise).
    pub categories: super::categories::Categories,
    /// The Differenzler's options and Pauschale (the defaults in other modes, unused).
    pub differenzler: crate::domain::differenzler::Rules,
    /// Which rows were read: [`load`] reads all, the others a part.
    scope: Scope,
    index: Index,
}

/// Positions in the row lists, by what pages look them up with.
struct Index {
    team: HashMap<TeamId, usize>,
    seats_of_passe: HashMap<u32, Vec<usize>>,
    /// (Passe, team) → its seat.
    seat: HashMap<(u32, TeamId), usize>,
    /// (Passe, table number) → a seat at that table.
    table: HashMap<(u32, u32), usize>,
    startnummer: HashMap<u32, usize>,
    result: HashMap<(u32, u32), usize>,
    pending: HashMap<(u32, u32), Vec<usize>>,
    drawn_passen: u32,
}

impl Index {
    fn of(
        teams: &[TeamRow],
        seats: &[SeatRow],
        results: &[ResultRow],
        pending: &[PendingEntry],
    ) -> Self {
        let mut seats_of_passe: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, s) in seats.iter().enumerate() {
            seats_of_passe.entry(s.passe.get()).or_default().push(i);
        }
        let mut pending_at: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        for (i, p) in pending.iter().enumerate() {
            pending_at
                .entry((p.passe.get(), p.table_no.get()))
                .or_default()
                .push(i);
        }
        Index {
            team: teams.iter().enumerate().map(|(i, t)| (t.id, i)).collect(),
            seats_of_passe,
            seat: seats
                .iter()
                .enumerate()
                .map(|(i, s)| ((s.passe.get(), s.team_id), i))
                .collect(),
            table: seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some(((s.passe.get(), s.table_no?.get()), i)))
                .collect(),
            startnummer: teams
                .iter()
                .enumerate()
                .map(|(i, t)| (t.startnummer.get(), i))
                .collect(),
            result: results
                .iter()
                .enumerate()
                .map(|(i, r)| ((r.passe.get(), r.table_no.get()), i))
                .collect(),
            pending: pending_at,
            drawn_passen: seats.iter().map(|s| s.passe.get()).max().unwrap_or(0),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Tournament,
    Passe(u32),
    Table(u32, u32),
}

/// The whole tournament; diesel's `NotFound` when there is none.
pub fn load(conn: &mut Conn, id: TournamentId) -> QueryResult<TournamentData> {
    let tournament = super::tournaments::get(conn, id)?;
    load_scoped(conn, tournament, Scope::Tournament)
}

/// The whole tournament of a row already read.
pub fn load_row(conn: &mut Conn, tournament: TournamentRow) -> QueryResult<TournamentData> {
    load_scoped(conn, tournament, Scope::Tournament)
}

/// The tournament with the seats, results and pending entries of one Passe only: all that
/// showing the tables of that Passe needs, a fraction of [`load`] on a big tournament.
/// Never enough for Standblätter or a ranking.
pub fn load_passe(
    conn: &mut Conn,
    tournament: TournamentRow,
    passe: u32,
) -> QueryResult<TournamentData> {
    load_scoped(conn, tournament, Scope::Passe(passe))
}

/// Only one table of a Passe: its two teams, its seats, its result and pending entries.
/// What saving a result there needs, independent of the tournament's size.
pub fn load_table(
    conn: &mut Conn,
    tournament: TournamentRow,
    passe: u32,
    table: u32,
) -> QueryResult<TournamentData> {
    load_scoped(conn, tournament, Scope::Table(passe, table))
}

fn load_scoped(
    conn: &mut Conn,
    tournament: TournamentRow,
    scope: Scope,
) -> QueryResult<TournamentData> {
    let id = tournament.id;
    let mut seats = seats::table
        .filter(seats::tournament_id.eq(id))
        .select(SeatRow::as_select())
        .order((seats::passe, seats::table_no, seats::team_id))
        .into_boxed();
    let mut results = results::table
        .filter(results::tournament_id.eq(id))
        .select(ResultRow::as_select())
        .order((results::passe, results::table_no))
        .into_boxed();
    let mut pending = pending_entries::table
        .filter(pending_entries::tournament_id.eq(id))
        .select(PendingEntry::as_select())
        .order(pending_entries::id)
        .into_boxed();
    if let Scope::Passe(passe) | Scope::Table(passe, _) = scope {
        let passe = Nat::of(passe)?;
        seats = seats.filter(seats::passe.eq(passe));
        results = results.filter(results::passe.eq(passe));
        pending = pending.filter(pending_entries::passe.eq(passe));
    }
    if let Scope::Table(_, table) = scope {
        let table = Nat::of(table)?;
        seats = seats.filter(seats::table_no.eq(table));
        results = results.filter(results::table_no.eq(table));
        pending = pending.filter(pending_entries::table_no.eq(table));
    }
    let seats: Vec<SeatRow> = seats.load(conn)?;
    let teams = match scope {
        Scope::Table(..) => {
            let ids: Vec<TeamId> = seats.iter().map(|s| s.team_id).collect();
            super::teams::some(conn, id, &ids)?
        }
        _ => super::teams::list(conn, id)?,
    };
    let open_tafeln = match tournament.mode.has_tafel() {
        true => super::marathon::open_tafeln(conn, id, scope_passe(scope))?,
        false => Default::default(),
    };
    let usernames = users::table
        .select((users::id, users::username))
        .load::<(UserId, String)>(conn)?
        .into_iter()
        .collect();
    let results: Vec<ResultRow> = results.load(conn)?;
    let pending: Vec<PendingEntry> = pending.load(conn)?;
    let index = Index::of(&teams, &seats, &results, &pending);
    let categories = match scope {
        Scope::Tournament => super::categories::load(conn, id)?,
        _ => Default::default(),
    };
    let differenzler = match tournament.mode.facts().score_kind.per_player() {
        true => super::differenzler::rules(conn, &tournament)?,
        false => Default::default(),
    };
    Ok(TournamentData {
        categories,
        differenzler,
        tournament,
        teams,
        seats,
        results,
        usernames,
        pending,
        open_tafeln,
        scope,
        index,
    })
}

fn scope_passe(scope: Scope) -> Option<u32> {
    match scope {
        Scope::Tournament => None,
        Scope::Passe(p) | Scope::Table(p, _) => Some(p),
    }
}

impl TournamentData {
    /// Whether this is the whole tournament (not one Passe or table of it).
    pub fn is_whole(&self) -> bool {
        self.scope == Scope::Tournament
    }

    pub fn username(&self, id: UserId) -> String {
        self.usernames
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("#{id}"))
    }

    fn visa(&self, mark: VisaMark) -> Option<Visa> {
        mark.map(|(signer, at)| Visa {
            by: self.signer(&signer),
            at,
        })
    }

    /// Who gave a visa, as the pages show it.
    pub fn signer(&self, signer: &Signer) -> String {
        match signer {
            Signer::User(id) => self.username(*id),
            Signer::Imported(name) => format!("{IMPORTED}{name}"),
        }
    }

    pub fn standblaetter(&self) -> Vec<Standblatt> {
        standblatt::standblaetter(&self.facts().borrow())
    }

    /// The facts the Standblätter are derived from (for decisions that try a change).
    pub fn facts(&self) -> OwnedFacts {
        debug_assert!(
            self.is_whole(),
            "Standblätter need the whole tournament, not a part of it"
        );
        let teams: Vec<TeamFacts> = self
            .teams
            .iter()
            .map(|t| TeamFacts {
                id: t.id,
                startnummer: t.startnummer.get(),
                status: t.status,
                out_passe: t.out_passe.map(|p| p.get()),
                final_visa: self.visa(t.final_visa()),
            })
            .collect();
        let seats: Vec<SeatFacts> = self
            .seats
            .iter()
            .map(|s| SeatFacts {
                passe: s.passe.get(),
                team: s.team_id,
                table: s.table_no.map(|t| t.get()),
                opponent: s.opponent_id,
                partner: s.partner_id,
            })
            .collect();
        let results: Vec<ResultFacts> = self
            .results
            .iter()
            .map(|r| ResultFacts {
                id: r.id,
                passe: r.passe.get(),
                table: r.table_no.get(),
                team_a: r.team_a_id,
                team_b: r.team_b_id,
                points_a: r.points_a.get(),
                points_b: r.points_b.get(),
                matches_a: r.matches_a.get(),
                matches_b: r.matches_b.get(),
                visa_a: self.visa(r.visa_a()),
                visa_b: self.visa(r.visa_b()),
                places: self.places(r),
            })
            .collect();
        OwnedFacts {
            passen: self.tournament.passen.get(),
            pauschale: self.pauschale(),
            teams,
            seats,
            results,
        }
    }

    /// The Pauschale per Passe: the tournament's number, or (Differenzler) its rule.
    pub fn pauschale(&self) -> Pauschale {
        match self.tournament.mode.facts().score_kind.per_player() {
            true => self.differenzler.pauschale,
            false => Pauschale::Fixed(self.tournament.pauschale.get()),
        }
    }

    /// A Differenzler table's numbers per place; its Nuller only where the tournament counts
    /// them (the Rangliste then looks at them).
    fn places(&self, r: &ResultRow) -> Option<Places> {
        if !self.tournament.mode.facts().score_kind.per_player() {
            return None;
        }
        let sheet = TableSheet::parse(r.details.as_deref())?;
        Some(Places {
            points: sheet.differenzen,
            nuller: match self.differenzler.options.counts_nuller() {
                true => sheet.nuller,
                false => [0; 4],
            },
        })
    }

    pub fn team(&self, id: TeamId) -> Option<&TeamRow> {
        self.index.team.get(&id).map(|i| &self.teams[*i])
    }

    fn seats_of(&self, passe: u32) -> impl Iterator<Item = &SeatRow> {
        self.index
            .seats_of_passe
            .get(&passe)
            .into_iter()
            .flatten()
            .map(|i| &self.seats[*i])
    }

    /// The table a seat belongs to, team A being the lower Startnummer; in Einzelschieber
    /// the players at A1 and B1, under whom the table's result is filed.
    fn table_of_seat(&self, seat: &SeatRow) -> Option<Table<&TeamRow>> {
        let (table, opponent) = (seat.table_no?, seat.opponent_id?);
        let (me, other) = (self.team(seat.team_id)?, self.team(opponent)?);
        let (team_a, team_b) = match seat.position {
            Some(sitz) => {
                let own_first = match sitz.is_first() {
                    true => me,
                    false => self.team(seat.partner_id?)?,
                };
                match sitz.side() {
                    Side::A => (own_first, other),
                    Side::B => (other, own_first),
                }
            }
            None if me.startnummer < other.startnummer => (me, other),
            None => (other, me),
        };
        Some(Table {
            number: table.get(),
            team_a,
            team_b,
        })
    }

    /// The tables of one Passe, team A being the lower Startnummer.
    pub fn tables(&self, passe: u32) -> Vec<Table<&TeamRow>> {
        let mut tables: Vec<Table<&TeamRow>> = self
            .seats_of(passe)
            .filter_map(|seat| {
                let table = self.table_of_seat(seat)?;
                (table.team_a.id == seat.team_id).then_some(table)
            })
            .collect();
        tables.sort_by_key(|t| t.number);
        tables
    }

    /// One table of a Passe.
    pub fn table(&self, passe: u32, number: u32) -> Option<Table<&TeamRow>> {
        let seat = self.index.table.get(&(passe, number))?;
        self.table_of_seat(&self.seats[*seat])
    }

    /// The table of the team with this Startnummer in a Passe (None: spielfrei or unknown).
    pub fn table_of_startnummer(&self, passe: u32, startnummer: u32) -> Option<Table<&TeamRow>> {
        let team = &self.teams[*self.index.startnummer.get(&startnummer)?];
        let seat = self.index.seat.get(&(passe, team.id))?;
        self.table_of_seat(&self.seats[*seat])
    }

    /// A player's seat in a Passe (Einzelschieber: with partner and seat).
    pub fn seat(&self, passe: u32, team: TeamId) -> Option<&SeatRow> {
        self.index.seat.get(&(passe, team)).map(|i| &self.seats[*i])
    }

    /// The partner of a side's first seat (Einzelschieber: A2 for A1, B2 for B1).
    pub fn partner(&self, passe: u32, team: TeamId) -> Option<&TeamRow> {
        self.team(self.seat(passe, team)?.partner_id?)
    }

    /// Einzelschieber: the players of a table in seat order A1, A2, B1, B2.
    pub fn foursome<'a>(
        &'a self,
        passe: u32,
        table: &Table<&'a TeamRow>,
    ) -> Option<[&'a TeamRow; 4]> {
        Some([
            table.team_a,
            self.partner(passe, table.team_a.id)?,
            table.team_b,
            self.partner(passe, table.team_b.id)?,
        ])
    }

    /// Who plays at a side of a table: the team, or (Einzelschieber) the player at the
    /// first seat and his partner.
    pub fn side<'a>(&'a self, passe: u32, first: &'a TeamRow) -> Vec<&'a TeamRow> {
        let mut side = vec![first];
        side.extend(self.partner(passe, first.id));
        side
    }

    /// Whether a team or player of the table has left by this Passe: the table is not
    /// played, and everybody else at it gets the Pauschale.
    pub fn table_has_left(&self, passe: u32, table: &Table<&TeamRow>) -> bool {
        self.side(passe, table.team_a)
            .into_iter()
            .chain(self.side(passe, table.team_b))
            .any(|t| t.is_out(passe))
    }

    /// Whether somebody of the side that `first` leads at a table in this Passe is still in
    /// (at a table somebody has left, that side gets the Pauschale).
    pub fn side_stays(&self, passe: u32, first: &TeamRow) -> bool {
        self.side(passe, first).iter().any(|t| !t.is_out(passe))
    }

    /// Einzelschieber: the drawn Passen as the draw sees them, players as indices.
    pub fn einzel_passen(&self, index: &HashMap<TeamId, usize>) -> Vec<EinzelPasse> {
        (1..=self.drawn_passen())
            .map(|p| EinzelPasse {
                tables: self
                    .tables(p)
                    .iter()
                    .filter_map(|t| {
                        let four = self.foursome(p, t)?;
                        let at = |i: usize| index.get(&four[i].id).copied();
                        Some([at(0)?, at(1)?, at(2)?, at(3)?])
                    })
                    .collect(),
                spielfrei: self
                    .byes(p)
                    .iter()
                    .filter_map(|t| index.get(&t.id).copied())
                    .collect(),
            })
            .collect()
    }

    pub fn byes(&self, passe: u32) -> Vec<&TeamRow> {
        self.seats_of(passe)
            .filter(|s| s.table_no.is_none())
            .filter_map(|s| self.team(s.team_id))
            .collect()
    }

    /// The drawn Passen as the schedule module sees them, by team id.
    pub fn draws(&self) -> Vec<PasseDraw<TeamId>> {
        (1..=self.drawn_passen())
            .map(|p| PasseDraw {
                tables: self
                    .tables(p)
                    .iter()
                    .map(|t| Table {
                        number: t.number,
                        team_a: t.team_a.id,
                        team_b: t.team_b.id,
                    })
                    .collect(),
                bye: self.byes(p).first().map(|t| t.id),
            })
            .collect()
    }

    pub fn result_at(&self, passe: u32, table: u32) -> Option<&ResultRow> {
        self.index
            .result
            .get(&(passe, table))
            .map(|i| &self.results[*i])
    }

    /// Passen with a drawn schedule.
    pub fn drawn_passen(&self) -> u32 {
        self.index.drawn_passen
    }

    pub fn is_drawn(&self) -> bool {
        self.tournament.draw_seed.is_some()
    }

    /// Whether a table's result is final: entered, and not on a Tafel that is still open.
    pub fn is_final(&self, passe: u32, table: u32) -> bool {
        self.result_at(passe, table).is_some() && !self.open_tafeln.contains(&(passe, table))
    }

    pub fn pending_at(&self, passe: u32, table: u32) -> Vec<&PendingEntry> {
        self.index
            .pending
            .get(&(passe, table))
            .into_iter()
            .flatten()
            .map(|i| &self.pending[*i])
            .collect()
    }

    /// The Passen under way: those with at least one result entered (seed 004 §9: from then
    /// on their Pauschalen count in the provisional Rangliste).
    pub fn passen_under_way(&self) -> std::collections::BTreeSet<u32> {
        self.results.iter().map(|r| r.passe.get()).collect()
    }

    /// The latest Passe under way, or 1 before the first result.
    pub fn current_passe(&self) -> u32 {
        self.passen_under_way().last().copied().unwrap_or(1)
    }

    pub fn spiele(&self) -> u32 {
        self.tournament.spiele_per_passe.get()
    }
}

impl TeamRow {
    /// Whether the team has left the tournament by `passe` (its opponents get the Pauschale).
    pub fn is_out(&self, passe: u32) -> bool {
        standblatt::is_out(self.status, self.out_passe.map(|p| p.get()), passe)
    }

    /// How lists mark the team at a table somebody has left by `passe`: who left is
    /// "ausgeschieden", everybody else at it gets the Pauschale; `None` at a played table.
    pub fn left_mark(&self, passe: u32, table_has_left: bool) -> Option<&'static str> {
        if self.is_out(passe) {
            Some("ausgeschieden")
        } else if table_has_left {
            Some("Pauschale")
        } else {
            None
        }
    }
}
