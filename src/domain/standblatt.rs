//! The Standblatt of every team, derived from the schedule, the table results, the team
//! statuses and the visas; and the Rangliste built from the Standblätter.
//!
//! Rules (seed 004 §7–9):
//! - a Passe counts once its result is entered; it is *visiert* once a Kontrolleur signed it;
//! - a team's total gets a final visa only when every Passe is visiert;
//! - a team without final visa is *nicht bewertet* in the official Rangliste;
//! - a team drawn against a disqualified or withdrawn team, from the Passe it left in on,
//!   gets the Pauschale; a bye (spielfrei) also counts the Pauschale.
//!   Pauschalen are set by the Turnierleitung and need no Kontrolleur visa.
//!
//! Einzelschieber (seed 001): a "team" here is one player; he scores his pair's points (the
//! result is filed under the pair's first seat) and shares its visa; when a player of a table
//! has left, the three others get the Pauschale (README, "Einzelschieber").
//!
//! Differenzler (seed 002): seats as in the Einzelschieber, but each player scores his own
//! place's differences ([`Places`]); the Pauschale may be the Passe's average; the Rangliste
//! ranks the lowest first ([`Better::Lower`]).

use super::differenzler::{self, Pauschale, Standing};
use super::ids::{ResultId, TeamId};
use super::mode::{Better, Mode};
use super::ranking::{RankInput, TieBreak};
use super::streichresultat::{Wertung, rank_with};
use super::team::TeamStatus;
use chrono::NaiveDateTime;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visa {
    pub by: String,
    pub at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamFacts {
    pub id: TeamId,
    pub startnummer: u32,
    pub status: TeamStatus,
    /// The Passe in which a disqualified or withdrawn team left.
    pub out_passe: Option<u32>,
    pub final_visa: Option<Visa>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatFacts {
    pub passe: u32,
    pub team: TeamId,
    pub table: Option<u32>,
    /// The other team; in Einzelschieber the first seat (A1 or B1) of the other pair.
    pub opponent: Option<TeamId>,
    /// Einzelschieber: the partner drawn for this Passe (None for a team).
    pub partner: Option<TeamId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultFacts {
    pub id: ResultId,
    pub passe: u32,
    pub table: u32,
    pub team_a: TeamId,
    pub team_b: TeamId,
    pub points_a: u32,
    pub points_b: u32,
    pub matches_a: u32,
    pub matches_b: u32,
    pub visa_a: Option<Visa>,
    pub visa_b: Option<Visa>,
    /// Four numbers per table (Differenzler): each place's own score.
    pub places: Option<Places>,
}

/// A table's numbers per place, in the seat order A1, A2, B1, B2 of the draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Places {
    pub points: [u32; 4],
    pub nuller: [u32; 4],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PasseLine {
    /// No table drawn yet (per-Passe draw).
    NichtGezogen,
    /// Drawn, no result yet.
    Offen {
        table: u32,
        opponent: TeamId,
    },
    Gespielt {
        table: u32,
        opponent: TeamId,
        points: u32,
        matches: u32,
        result: ResultId,
        visa: Option<Visa>,
        /// Differenzler with «Nuller zählen»: the exact Ansagen of this Passe.
        nuller: u32,
    },
    /// The opponent was disqualified or withdrew.
    Pauschale {
        table: Option<u32>,
        opponent: Option<TeamId>,
        points: u32,
    },
    Spielfrei {
        points: u32,
    },
    /// The team itself was disqualified or withdrew before or in this Passe.
    Ausgeschieden,
}

/// Where a Passe's points come from; printed beside the points on every output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsKind {
    Gespielt,
    Pauschale,
    Spielfrei,
}

impl PointsKind {
    /// Stable key for CSV and JSON.
    pub fn key(self) -> &'static str {
        match self {
            PointsKind::Gespielt => "gespielt",
            PointsKind::Pauschale => "pauschale",
            PointsKind::Spielfrei => "spielfrei",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            PointsKind::Gespielt => "gespielt",
            PointsKind::Pauschale => "Pauschale",
            PointsKind::Spielfrei => "spielfrei",
        }
    }
    /// The short mark beside points in narrow columns (Rangliste, live page).
    pub fn mark(self) -> &'static str {
        match self {
            PointsKind::Gespielt => "",
            PointsKind::Pauschale => "P",
            PointsKind::Spielfrei => "s",
        }
    }
}

/// Points of one Passe and where they come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub points: u32,
    pub kind: PointsKind,
}

impl PasseLine {
    pub fn score(&self) -> Option<Score> {
        let (points, kind) = match self {
            PasseLine::Gespielt { points, .. } => (*points, PointsKind::Gespielt),
            PasseLine::Pauschale { points, .. } => (*points, PointsKind::Pauschale),
            PasseLine::Spielfrei { points } => (*points, PointsKind::Spielfrei),
            _ => return None,
        };
        Some(Score { points, kind })
    }

    pub fn points(&self) -> Option<u32> {
        match self {
            PasseLine::Gespielt { points, .. }
            | PasseLine::Pauschale { points, .. }
            | PasseLine::Spielfrei { points } => Some(*points),
            _ => None,
        }
    }

    pub fn is_visiert(&self) -> bool {
        match self {
            PasseLine::Gespielt { visa, .. } => visa.is_some(),
            PasseLine::Pauschale { .. } | PasseLine::Spielfrei { .. } => true,
            _ => false,
        }
    }

    pub fn status_label(&self) -> &'static str {
        match self {
            PasseLine::NichtGezogen => "nicht gezogen",
            PasseLine::Offen { .. } => "offen",
            PasseLine::Gespielt { visa: None, .. } => "erfasst",
            PasseLine::Gespielt { visa: Some(_), .. } => "visiert",
            PasseLine::Pauschale { .. } => "Pauschale",
            PasseLine::Spielfrei { .. } => "spielfrei",
            PasseLine::Ausgeschieden => "ausgeschieden",
        }
    }

    pub fn table(&self) -> Option<u32> {
        match self {
            PasseLine::Offen { table, .. } | PasseLine::Gespielt { table, .. } => Some(*table),
            PasseLine::Pauschale { table, .. } => *table,
            _ => None,
        }
    }

    pub fn opponent(&self) -> Option<TeamId> {
        match self {
            PasseLine::Offen { opponent, .. } | PasseLine::Gespielt { opponent, .. } => {
                Some(*opponent)
            }
            PasseLine::Pauschale { opponent, .. } => *opponent,
            _ => None,
        }
    }
}

/// Where a team stands as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetStatus {
    /// Some Passe has no result yet.
    Offen,
    /// Every Passe has a result, not all visiert.
    Erfasst,
    /// Every Passe visiert; the total still needs its final visa.
    Visiert,
    Endvisum,
    Disqualifiziert,
    Zurueckgezogen,
}

impl SheetStatus {
    /// The status word, in the words of the tournament's mode ("Passen visiert").
    pub fn label(self, mode: Mode) -> String {
        match self {
            SheetStatus::Offen => "Resultate fehlen".into(),
            SheetStatus::Erfasst => "erfasst".into(),
            SheetStatus::Visiert => format!("{} visiert", mode.rounds()),
            SheetStatus::Endvisum => "Endvisum".into(),
            SheetStatus::Disqualifiziert => "disqualifiziert".into(),
            SheetStatus::Zurueckgezogen => "zurückgezogen".into(),
        }
    }
    pub fn css(self) -> &'static str {
        match self {
            SheetStatus::Offen => "offen",
            SheetStatus::Erfasst => "erfasst",
            SheetStatus::Visiert => "visiert",
            SheetStatus::Endvisum => "endvisum",
            SheetStatus::Disqualifiziert => "disqualifiziert",
            SheetStatus::Zurueckgezogen => "zurueckgezogen",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standblatt {
    pub team: TeamId,
    pub startnummer: u32,
    pub lines: Vec<PasseLine>,
    pub total: u32,
    pub status: SheetStatus,
    pub final_visa: Option<Visa>,
    /// Differenzler: the exact Ansagen of the played Passen.
    pub nuller: u32,
}

impl Standblatt {
    pub fn all_passen_visiert(&self) -> bool {
        self.lines.iter().all(PasseLine::is_visiert)
    }

    /// The points that count for the Rangliste, one per Passe with points.
    pub fn passe_points(&self) -> Vec<u32> {
        self.lines.iter().filter_map(PasseLine::points).collect()
    }
}

/// Why a final visa cannot be given.
pub fn final_visa_refusal(sheet: &Standblatt, mode: Mode) -> Option<String> {
    match sheet.status {
        SheetStatus::Disqualifiziert | SheetStatus::Zurueckgezogen => {
            Some("Das Team ist ausgeschieden und wird nicht bewertet.".into())
        }
        SheetStatus::Endvisum => Some("Das Endtotal ist bereits visiert.".into()),
        _ if !sheet.all_passen_visiert() => Some(format!(
            "Erst wenn alle {} visiert sind, kann das Endtotal visiert werden.",
            mode.rounds()
        )),
        _ => None,
    }
}

pub struct TournamentFacts<'a> {
    pub passen: u32,
    pub pauschale: Pauschale,
    pub teams: &'a [TeamFacts],
    pub seats: &'a [SeatFacts],
    pub results: &'a [ResultFacts],
}

fn is_out_in(team: &TeamFacts, passe: u32) -> bool {
    is_out(team.status, team.out_passe, passe)
}

/// Whether a disqualified or withdrawn team is out in `passe` (from the Passe it left in on).
pub fn is_out(status: TeamStatus, out_passe: Option<u32>, passe: u32) -> bool {
    status != TeamStatus::Aktiv && out_passe.is_none_or(|out| out <= passe)
}

/// Every team's Standblatt, in the order of `facts.teams`.
pub fn standblaetter(facts: &TournamentFacts<'_>) -> Vec<Standblatt> {
    let teams: HashMap<TeamId, &TeamFacts> = facts.teams.iter().map(|t| (t.id, t)).collect();
    let seats: HashMap<(TeamId, u32), &SeatFacts> =
        facts.seats.iter().map(|s| ((s.team, s.passe), s)).collect();
    let results: HashMap<(u32, u32), &ResultFacts> = facts
        .results
        .iter()
        .map(|r| ((r.passe, r.table), r))
        .collect();
    let out = |team: Option<TeamId>, passe: u32| {
        team.and_then(|t| teams.get(&t))
            .is_some_and(|t| is_out_in(t, passe))
    };
    // Per Passe the Pauschale: fixed, or the average of the Passe's played places.
    let pauschale: HashMap<u32, u32> = (1..=facts.passen)
        .map(|passe| {
            let played: Vec<u32> = facts
                .results
                .iter()
                .filter(|r| r.passe == passe)
                .filter_map(|r| r.places)
                .flat_map(|p| p.points)
                .collect();
            (passe, facts.pauschale.of(&played))
        })
        .collect();
    let pauschale_of = |passe: u32| pauschale.get(&passe).copied().unwrap_or(0);

    facts
        .teams
        .iter()
        .map(|team| {
            let lines: Vec<PasseLine> = (1..=facts.passen)
                .map(|passe| {
                    if is_out_in(team, passe) {
                        return PasseLine::Ausgeschieden;
                    }
                    let Some(seat) = seats.get(&(team.id, passe)) else {
                        return PasseLine::NichtGezogen;
                    };
                    let (Some(table), Some(opponent)) = (seat.table, seat.opponent) else {
                        return PasseLine::Spielfrei {
                            points: pauschale_of(passe),
                        };
                    };
                    // Einzelschieber: a table short of one player is not played, and his
                    // partner is no more at fault than his opponents: all three get the
                    // Pauschale (README, "Einzelschieber").
                    let opponent_partner = seats.get(&(opponent, passe)).and_then(|s| s.partner);
                    if out(Some(opponent), passe)
                        || out(seat.partner, passe)
                        || out(opponent_partner, passe)
                    {
                        return PasseLine::Pauschale {
                            table: Some(table),
                            opponent: Some(opponent),
                            points: pauschale_of(passe),
                        };
                    }
                    match results.get(&(passe, table)) {
                        Some(r) => {
                            // A side's result is filed under its first seat; the partner
                            // at the second seat shares it.
                            let own_side = r.team_a == team.id || Some(r.team_a) == seat.partner;
                            // Differenzler: the player's own place (A1, A2, B1, B2).
                            let place = match (own_side, r.team_a == team.id || r.team_b == team.id)
                            {
                                (true, true) => 0,
                                (true, false) => 1,
                                (false, true) => 2,
                                (false, false) => 3,
                            };
                            let own = |p: [u32; 4], side_a: u32, side_b: u32| match r.places {
                                Some(_) => p[place],
                                None if own_side => side_a,
                                None => side_b,
                            };
                            let places = r.places.unwrap_or(Places {
                                points: [0; 4],
                                nuller: [0; 4],
                            });
                            PasseLine::Gespielt {
                                table,
                                opponent,
                                nuller: own(places.nuller, 0, 0),
                                points: own(places.points, r.points_a, r.points_b),
                                matches: if own_side { r.matches_a } else { r.matches_b },
                                result: r.id,
                                visa: if own_side {
                                    r.visa_a.clone()
                                } else {
                                    r.visa_b.clone()
                                },
                            }
                        }
                        None => PasseLine::Offen { table, opponent },
                    }
                })
                .collect();
            let total = lines.iter().filter_map(PasseLine::points).sum();
            let nuller = lines
                .iter()
                .map(|l| match l {
                    PasseLine::Gespielt { nuller, .. } => *nuller,
                    _ => 0,
                })
                .sum();
            let status = match team.status {
                TeamStatus::Disqualifiziert => SheetStatus::Disqualifiziert,
                TeamStatus::Zurueckgezogen => SheetStatus::Zurueckgezogen,
                TeamStatus::Aktiv if team.final_visa.is_some() => SheetStatus::Endvisum,
                TeamStatus::Aktiv if lines.iter().all(PasseLine::is_visiert) => {
                    SheetStatus::Visiert
                }
                TeamStatus::Aktiv if lines.iter().all(|l| l.points().is_some()) => {
                    SheetStatus::Erfasst
                }
                TeamStatus::Aktiv => SheetStatus::Offen,
            };
            Standblatt {
                team: team.id,
                startnummer: team.startnummer,
                lines,
                total,
                status,
                final_visa: team.final_visa.clone(),
                nuller,
            }
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RanglisteKind {
    /// While the tournament is open: every team still in, by the points so far.
    Provisorisch,
    /// Only teams with final visa are ranked (seed 004 §7).
    Offiziell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Rangiert,
    NichtBewertet,
    Disqualifiziert,
    Zurueckgezogen,
}

impl Section {
    pub fn label(self) -> &'static str {
        match self {
            Section::Rangiert => "Rangliste",
            Section::NichtBewertet => "nicht bewertet",
            Section::Disqualifiziert => "disqualifiziert",
            Section::Zurueckgezogen => "zurückgezogen",
        }
    }
}

/// The one status vocabulary of a team in a Rangliste: page, PDF, CSV, JSON and live page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankStatus {
    Sheet(SheetStatus),
    /// Official Rangliste: no final visa.
    NichtBewertet,
}

impl RankStatus {
    /// Stable machine key (JSON).
    pub fn key(self) -> &'static str {
        match self {
            RankStatus::Sheet(SheetStatus::Offen) => "resultate_fehlen",
            RankStatus::Sheet(SheetStatus::Erfasst) => "erfasst",
            RankStatus::Sheet(SheetStatus::Visiert) => "visiert",
            RankStatus::Sheet(SheetStatus::Endvisum) => "endvisum",
            RankStatus::Sheet(SheetStatus::Disqualifiziert) => "disqualifiziert",
            RankStatus::Sheet(SheetStatus::Zurueckgezogen) => "zurueckgezogen",
            RankStatus::NichtBewertet => "nicht_bewertet",
        }
    }
    pub fn label(self, mode: Mode) -> String {
        match self {
            RankStatus::Sheet(s) => s.label(mode),
            RankStatus::NichtBewertet => "nicht bewertet".into(),
        }
    }
    pub fn css(self) -> &'static str {
        match self {
            RankStatus::Sheet(s) => s.css(),
            RankStatus::NichtBewertet => "offen",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RanglisteRow<'a> {
    pub rank: Option<u32>,
    pub section: Section,
    pub sheet: &'a Standblatt,
    /// What counts per Passe in this Rangliste (see [`rangliste`]).
    pub scores: Vec<Option<Score>>,
    /// Per Passe: struck by the Streichresultat (its points stand but do not count).
    pub struck: Vec<bool>,
    /// The counted total.
    pub total: u32,
    pub status: RankStatus,
    /// Ranked behind the row before on equal total: which Passe decided (players ask).
    pub tie: Option<TieBreak>,
}

/// The Rangliste: ranked teams first, then the sections of teams without a rank.
/// Within a section teams follow their points, then their Startnummer.
///
/// The provisional Rangliste counts a Pauschale or a bye only once its Passe is under way
/// (`under_way`: some result of it entered), so a disqualification does not lift the
/// opponents ahead of teams that still have to play. The official one counts all.
/// Under a Streichresultat (`wertung`) the worst Passen are struck among those that count.
/// `better`: which end wins (the Differenzler's lowest total, ties by the Nuller on the
/// sheets — counted only where the tournament counts them — then the lowest Passe).
pub fn rangliste<'a>(
    kind: RanglisteKind,
    sheets: &'a [Standblatt],
    wertung: Wertung,
    under_way: &dyn Fn(u32) -> bool,
    better: Better,
) -> Vec<RanglisteRow<'a>> {
    let section_of = |sheet: &Standblatt| match sheet.status {
        SheetStatus::Disqualifiziert => Section::Disqualifiziert,
        SheetStatus::Zurueckgezogen => Section::Zurueckgezogen,
        SheetStatus::Endvisum => Section::Rangiert,
        _ if kind == RanglisteKind::Provisorisch => Section::Rangiert,
        _ => Section::NichtBewertet,
    };
    let mut rows = Vec::with_capacity(sheets.len());
    for section in [
        Section::Rangiert,
        Section::NichtBewertet,
        Section::Disqualifiziert,
        Section::Zurueckgezogen,
    ] {
        let members: Vec<(&Standblatt, Counted)> = sheets
            .iter()
            .filter(|s| section_of(s) == section)
            .map(|s| (s, counted(kind, s, wertung, under_way)))
            .collect();
        let inputs: Vec<RankInput<(u32, usize)>> = members
            .iter()
            .enumerate()
            .map(|(i, (s, counted))| RankInput {
                key: (s.startnummer, i),
                passen: counted.scores.iter().flatten().map(|s| s.points).collect(),
            })
            .collect();
        let players = match better {
            Better::Higher => Vec::new(),
            Better::Lower => standings(&inputs, &members),
        };
        let mut before: Option<(u32, usize)> = None;
        for (rank, index) in ranked(&inputs, &players, wertung, better) {
            let (sheet, counted) = &members[index];
            let tie = match before {
                Some((before_rank, before_index))
                    if section == Section::Rangiert && before_rank != rank =>
                {
                    tie_between(&inputs, &players, (before_index, index), wertung, better)
                }
                _ => None,
            };
            before = Some((rank, index));
            rows.push(RanglisteRow {
                tie,
                rank: (section == Section::Rangiert).then_some(rank),
                section,
                sheet,
                total: counted.total,
                scores: counted.scores.clone(),
                struck: counted.struck.clone(),
                status: if section == Section::NichtBewertet {
                    RankStatus::NichtBewertet
                } else {
                    RankStatus::Sheet(sheet.status)
                },
            });
        }
    }
    rows
}

/// A section's order: (rank, index into `inputs`), best first.
fn ranked(
    inputs: &[RankInput<(u32, usize)>],
    players: &[Standing<(u32, usize)>],
    wertung: Wertung,
    better: Better,
) -> Vec<(u32, usize)> {
    match better {
        Better::Higher => rank_with(inputs, wertung)
            .into_iter()
            .map(|r| (r.rank, r.key.1))
            .collect(),
        Better::Lower => differenzler::rank(players, nuller_counted())
            .into_iter()
            .map(|(rank, s)| (rank, s.player.1))
            .collect(),
    }
}

/// The Differenzler's standings of a section (its Nuller are zero where not counted).
fn standings(
    inputs: &[RankInput<(u32, usize)>],
    members: &[(&Standblatt, Counted)],
) -> Vec<Standing<(u32, usize)>> {
    inputs
        .iter()
        .map(|input| Standing {
            player: input.key,
            passen: input.passen.clone(),
            nuller: members[input.key.1].0.nuller,
        })
        .collect()
}

/// The sheets carry only the Nuller that count, so the order may always look at them.
fn nuller_counted() -> differenzler::Options {
    differenzler::Options {
        exact: differenzler::Exact::CountNuller,
        ..Default::default()
    }
}

/// Why the row at `pair.1` ranks behind the one at `pair.0` of the same total.
fn tie_between(
    inputs: &[RankInput<(u32, usize)>],
    players: &[Standing<(u32, usize)>],
    (ahead, behind): (usize, usize),
    wertung: Wertung,
    better: Better,
) -> Option<TieBreak> {
    match better {
        Better::Higher => wertung.tie_break_between(&inputs[ahead].passen, &inputs[behind].passen),
        Better::Lower => {
            differenzler::tie_break_between(&players[ahead], &players[behind], nuller_counted())
        }
    }
}

/// The total a Standblatt shows: the same as the Rangliste of that kind, so that sheet and
/// Rangliste never disagree (the provisional one counts a Pauschale or bye once its Passe is
/// under way; the official one counts every Passe), without the struck Passen.
pub fn counted_total(
    kind: RanglisteKind,
    sheet: &Standblatt,
    wertung: Wertung,
    under_way: &dyn Fn(u32) -> bool,
) -> u32 {
    counted(kind, sheet, wertung, under_way).total
}

/// The Passen (numbers from 1) the Streichresultat strikes on this sheet, as in the
/// Rangliste of that kind.
pub fn struck_passen(
    kind: RanglisteKind,
    sheet: &Standblatt,
    wertung: Wertung,
    under_way: &dyn Fn(u32) -> bool,
) -> Vec<u32> {
    (1..)
        .zip(counted(kind, sheet, wertung, under_way).struck)
        .filter(|(_, struck)| *struck)
        .map(|(passe, _)| passe)
        .collect()
}

/// What a sheet counts in a Rangliste: the scores per Passe, which of them are struck, and
/// the total of the rest.
struct Counted {
    scores: Vec<Option<Score>>,
    struck: Vec<bool>,
    total: u32,
}

fn counted(
    kind: RanglisteKind,
    sheet: &Standblatt,
    wertung: Wertung,
    under_way: &dyn Fn(u32) -> bool,
) -> Counted {
    let scores = counted_scores(kind, sheet, under_way);
    let points: Vec<u32> = scores.iter().flatten().map(|s| s.points).collect();
    let mut keep = wertung.counted(&points).into_iter();
    let struck: Vec<bool> = scores
        .iter()
        .map(|s| s.is_some() && !keep.next().unwrap_or(true))
        .collect();
    let total = scores
        .iter()
        .zip(&struck)
        .filter(|(_, struck)| !**struck)
        .filter_map(|(s, _)| s.map(|s| s.points))
        .sum();
    Counted {
        scores,
        struck,
        total,
    }
}

/// The Passen whose points stand on the sheet but do not count yet: a Pauschale or bye of a
/// Passe not under way, in the provisional Rangliste.
pub fn coming_passen(
    kind: RanglisteKind,
    sheet: &Standblatt,
    under_way: &dyn Fn(u32) -> bool,
) -> Vec<u32> {
    (1..)
        .zip(counted_scores(kind, sheet, under_way))
        .zip(&sheet.lines)
        .filter(|((_, counted), line)| counted.is_none() && line.points().is_some())
        .map(|((passe, _), _)| passe)
        .collect()
}

fn counted_scores(
    kind: RanglisteKind,
    sheet: &Standblatt,
    under_way: &dyn Fn(u32) -> bool,
) -> Vec<Option<Score>> {
    (1..)
        .zip(&sheet.lines)
        .map(|(passe, line)| {
            line.score().filter(|score| {
                kind == RanglisteKind::Offiziell
                    || score.kind == PointsKind::Gespielt
                    || under_way(passe)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
