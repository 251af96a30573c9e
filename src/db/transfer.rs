//! A whole tournament as one JSON document (teams, schedule, results, visas,
//! disqualifications, audit), free of database ids so that it imports into any instance.
//! A whole database is a list of them with the accounts ([`DatabaseDoc`]): the backup of a
//! PostgreSQL database and what `jassturnier copy` carries between the backends.

use super::models::{AuditRow, Signer, TournamentRow, VisaMark};
use super::schema::{audit_log, persons, results, teams, tournaments};
use super::tournament_data::{IMPORTED, TournamentData};
use super::{Conn, now};
use crate::db::types::Nat;
use crate::domain::draw::DrawMode;
use crate::domain::ids::{PersonId, ResultId, TeamId, TournamentId, UserId};
use crate::domain::marathon::{Cards, Rules, Ruling, Side, Spiel, Trump};
use crate::domain::mode::Mode;
use crate::domain::prizes::PrizeList;
use crate::domain::team::TeamStatus;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

pub const FORMAT: &str = "jassturnier-turnier-1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    pub format: String,
    pub tournament: TournamentJson,
    pub teams: Vec<TeamJson>,
    pub seats: Vec<SeatJson>,
    pub results: Vec<ResultJson>,
    pub audit: Vec<AuditJson>,
    /// Modes on the Tafel: rules, every Tafel line and gong, the clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marathon: Option<MarathonJson>,
    /// Differenzler: the options and the kind of Pauschale (absent: the defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differenzler: Option<DifferenzlerJson>,
    /// Results from the table, while on: the open Passe and the printed codes (so that the
    /// Standblätter stay valid in a copy). Reports still waiting are not carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_entry: Option<TableEntryJson>,
    /// The Gabentisch: prizes by place, for all others, special prizes (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prizes: Option<PrizeList>,
    /// The categories and their members by Startnummer (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<CategoriesJson>,
    /// The register's persons of every team seat, embedded (no e-mail, no phone): the
    /// export stays self-contained.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub persons: Vec<SeatPersonJson>,
}

/// A Differenzler's options as an export carries them; a fixed Pauschale is the
/// tournament's own number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DifferenzlerJson {
    pub match_bonus: bool,
    pub stoeck: bool,
    pub count_nuller: bool,
    pub pauschale_average: bool,
}

impl DifferenzlerJson {
    pub fn of(r: &crate::domain::differenzler::Rules) -> Self {
        DifferenzlerJson {
            match_bonus: r.options.match_bonus,
            stoeck: r.options.stoeck,
            count_nuller: r.options.counts_nuller(),
            pauschale_average: r.pauschale == crate::domain::differenzler::Pauschale::Average,
        }
    }

    /// The rules, `fixed` being the tournament's Pauschale.
    pub fn rules(&self, fixed: u32) -> crate::domain::differenzler::Rules {
        use crate::domain::differenzler::{Exact, Options, Pauschale, Rules};
        Rules {
            options: Options {
                match_bonus: self.match_bonus,
                stoeck: self.stoeck,
                exact: match self.count_nuller {
                    true => Exact::CountNuller,
                    false => Exact::Nothing,
                },
            },
            pauschale: match self.pauschale_average {
                true => Pauschale::Average,
                false => Pauschale::Fixed(fixed),
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatPersonJson {
    pub startnummer: u32,
    pub seat: u32,
    pub person: PersonJson,
}

/// A person as a tournament export carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonJson {
    /// The register's number where the export was made (a database copy keeps it).
    pub id: i32,
    pub name: String,
    pub vorname: String,
    pub verein: Option<String>,
    pub ort: Option<String>,
    pub jahrgang: Option<u32>,
    /// What a category rule asks (absent: unknown; older files have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geschlecht: Option<crate::domain::person::Geschlecht>,
}

impl PersonJson {
    fn of(p: &super::models::PersonRow) -> Self {
        PersonJson {
            id: p.id.0,
            name: p.name.clone(),
            vorname: p.vorname.clone(),
            verein: p.verein.clone(),
            ort: p.ort.clone(),
            jahrgang: p.jahrgang.map(Nat::get),
            geschlecht: p.geschlecht,
        }
    }
}

/// A person as a database copy carries it: with the office's contact data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegisterPersonJson {
    #[serde(flatten)]
    pub person: PersonJson,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoriesJson {
    pub names: Vec<String>,
    /// Startnummer and the names of its categories.
    pub members: Vec<(u32, Vec<String>)>,
    /// The rules of the categories that have one (absent: all by hand, as older files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<CategoryRuleJson>,
}

/// A category's rule: its kind's key (`frauen`, `jahrgang_bis`, …) and the year where one
/// belongs to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryRuleJson {
    pub name: String,
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u32>,
}

impl CategoryRuleJson {
    /// The rule, if the key and year make one.
    pub fn rule(&self) -> Option<crate::domain::category::Rule> {
        use crate::domain::category::{Rule, RuleKind};
        RuleKind::from_key(&self.rule).and_then(|kind| Rule::of(kind, self.year))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableEntryJson {
    pub open_passe: Option<u32>,
    pub codes: Vec<TableCodeJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableCodeJson {
    pub startnummer: u32,
    pub code: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarathonJson {
    pub rules: Rules,
    pub tafeln: Vec<TafelJson>,
    pub clocks: Vec<ClockJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TafelJson {
    pub passe: u32,
    pub table: u32,
    pub lines: Vec<LineJson>,
    pub gong: bool,
    /// The office typed this Tafel's points multiplied.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multiplied: bool,
}

/// One Tafel line; trumps and sides by their stored keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineJson {
    pub trump: String,
    pub cards_a: Option<u32>,
    pub match_side: Option<String>,
    pub weis_a: u32,
    pub weis_b: u32,
    pub stoeck: Option<String>,
    pub first: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
}

impl LineJson {
    pub fn of(s: &Spiel) -> Self {
        LineJson {
            trump: s.trump.as_str().into(),
            cards_a: match s.cards {
                Cards::Points(a) => Some(a),
                Cards::Match(_) => None,
            },
            match_side: match s.cards {
                Cards::Match(side) => Some(side.as_str().into()),
                Cards::Points(_) => None,
            },
            weis_a: s.weis_a,
            weis_b: s.weis_b,
            stoeck: s.stoeck.map(|x| x.as_str().into()),
            first: s.first.map(|x| x.as_str().into()),
            ruling: s.ruling.map(|r| r.key().into()),
        }
    }

    /// The Spiel of a line; None when a key is unknown.
    pub fn spiel(&self) -> Option<Spiel> {
        if let Some(key) = &self.ruling {
            return Ruling::from_key(key).map(Spiel::ruling);
        }
        let side = |key: &Option<String>| -> Option<Option<Side>> {
            match key {
                None => Some(None),
                Some(k) => Side::parse(k).map(Some),
            }
        };
        Some(Spiel {
            trump: Trump::ALL.into_iter().find(|t| t.as_str() == self.trump)?,
            cards: match (side(&self.match_side)?, self.cards_a) {
                (Some(s), _) => Cards::Match(s),
                (None, Some(a)) => Cards::Points(a),
                (None, None) => return None,
            },
            weis_a: self.weis_a,
            weis_b: self.weis_b,
            stoeck: side(&self.stoeck)?,
            first: side(&self.first)?,
            ruling: None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClockJson {
    pub passe: u32,
    pub started_at: NaiveDateTime,
    pub paused_at: Option<NaiveDateTime>,
    pub paused_seconds: i64,
    pub ended_at: Option<NaiveDateTime>,
}

fn marathon_of(conn: &mut Conn, data: &TournamentData) -> QueryResult<Option<MarathonJson>> {
    let id = data.tournament.id;
    if !data.tournament.mode.has_tafel() {
        return Ok(None);
    }
    let mut tafeln = Vec::new();
    for (passe, table, lines, gong) in super::marathon::all_tafeln(conn, id)? {
        let multiplied = super::marathon::entry_multiplied(conn, id, passe, table)?;
        tafeln.push(TafelJson {
            passe,
            table,
            lines: lines.iter().map(LineJson::of).collect(),
            gong,
            multiplied,
        });
    }
    let clocks = super::marathon::all_clocks(conn, id)?
        .into_iter()
        .map(|(passe, c)| ClockJson {
            passe,
            started_at: c.started_at,
            paused_at: c.paused_at,
            paused_seconds: c.paused_seconds,
            ended_at: c.ended_at,
        })
        .collect();
    Ok(Some(MarathonJson {
        rules: super::marathon::rules(conn, id)?,
        tafeln,
        clocks,
    }))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentJson {
    pub name: String,
    pub date: NaiveDate,
    pub location: String,
    pub mode: String,
    pub passen: u32,
    pub spiele_per_passe: u32,
    pub pauschale: u32,
    pub closed: bool,
    pub public: bool,
    pub draw_mode: String,
    pub draw_seed: Option<i64>,
    pub double_entry: bool,
    pub double_entry_same_user: bool,
    #[serde(default)]
    pub separate_clubs: bool,
    /// Streichresultat: only the best this many Passen count (absent: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted_best: Option<u32>,
    /// Vereinswertung: the best this many teams of each club count (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club_best: Option<u32>,
    /// In a copy of a whole database: the tournament's id and creation, kept, so that printed
    /// QR codes, beamer addresses and phones' cookies open the same tournament after a copy.
    /// A single tournament's export has neither (an import gets a new id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisaJson {
    pub by: String,
    pub at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamJson {
    pub startnummer: u32,
    pub name: Option<String>,
    pub player1: String,
    pub player2: String,
    pub club: Option<String>,
    pub place: Option<String>,
    pub los: Option<u32>,
    pub status: String,
    pub out_passe: Option<u32>,
    pub out_reason: Option<String>,
    pub final_visa: Option<VisaJson>,
    /// A final visa held aside while the team `cause` is out (given back when it returns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspended_final_visa: Option<SuspendedJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuspendedJson {
    /// Startnummer of the team whose leaving suspended the visa.
    pub cause: u32,
    pub visa: VisaJson,
    /// The total the visa was given on.
    pub total: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatJson {
    pub passe: u32,
    pub startnummer: u32,
    pub table: Option<u32>,
    pub opponent: Option<u32>,
    /// Einzelschieber: the partner's Startnummer and the seat (A1, A2, B1, B2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultJson {
    pub passe: u32,
    pub table: u32,
    pub team_a: u32,
    pub team_b: u32,
    pub points_a: u32,
    pub points_b: u32,
    pub matches_a: u32,
    pub matches_b: u32,
    pub visa_a: Option<VisaJson>,
    pub visa_b: Option<VisaJson>,
    pub version: i32,
    #[serde(default)]
    pub details: Option<String>,
    /// Double entry: confirmed by a second entry (older exports: not said, so not).
    #[serde(default)]
    pub confirmed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditJson {
    pub at: NaiveDateTime,
    pub username: String,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub action: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl AuditJson {
    fn of(a: AuditRow) -> Self {
        AuditJson {
            at: a.at,
            username: match a.username.strip_prefix(IMPORTED) {
                Some(name) => name.to_string(),
                None => a.username,
            },
            entity: a.entity,
            entity_id: a.entity_id,
            action: a.action,
            before: a.before,
            after: a.after,
        }
    }
}

/// The whole tournament as one document.
pub fn export(conn: &mut Conn, id: TournamentId) -> QueryResult<Export> {
    let data = super::tournament_data::load(conn, id)?;
    let audit: Vec<AuditRow> = audit_log::table
        .filter(audit_log::tournament_id.eq(id))
        .select(AuditRow::as_select())
        .order(audit_log::id)
        .load(conn)?;
    let marathon = marathon_of(conn, &data)?;
    let suspended = super::teams::suspended_in(conn, id)?;
    let mut doc = document(&data, audit, marathon, &suspended);
    let c = &data.categories;
    doc.categories = (!c.list.is_empty()).then(|| CategoriesJson {
        names: c.list.iter().map(|x| x.name.clone()).collect(),
        members: data
            .teams
            .iter()
            .map(|t| {
                let names = c.names_of(t.id).into_iter().map(String::from).collect();
                (t.startnummer.get(), names)
            })
            .filter(|(_, names): &(u32, Vec<String>)| !names.is_empty())
            .collect(),
        rules: c
            .list
            .iter()
            .filter(|x| x.rule != crate::domain::category::Rule::ByHand)
            .map(|x| CategoryRuleJson {
                name: x.name.clone(),
                rule: x.rule.kind().key().to_string(),
                year: x.rule.year(),
            })
            .collect(),
    });
    doc.persons = super::persons::seats_in(conn, id)?
        .into_iter()
        .map(|(startnummer, seat, p)| SeatPersonJson {
            startnummer,
            seat,
            person: PersonJson::of(&p),
        })
        .collect();
    let prizes = super::prizes::load(conn, &data.tournament)?;
    doc.prizes = (!prizes.is_empty()).then_some(prizes);
    let opening = super::table_entry::opening(conn, id)?;
    if opening.is_on() {
        let open_passe = opening.passe();
        let codes = super::table_entry::codes(conn, id)?;
        doc.table_entry = Some(TableEntryJson {
            open_passe,
            codes: data
                .teams
                .iter()
                .filter_map(|team| {
                    Some(TableCodeJson {
                        startnummer: team.startnummer.get(),
                        code: codes.get(&team.id)?.clone(),
                    })
                })
                .collect(),
        });
    }
    Ok(doc)
}

fn document(
    data: &TournamentData,
    audit: Vec<AuditRow>,
    marathon: Option<MarathonJson>,
    suspended: &[(TeamId, super::teams::SuspendedVisa)],
) -> Export {
    let t = &data.tournament;
    let number: HashMap<TeamId, u32> = data
        .teams
        .iter()
        .map(|team| (team.id, team.startnummer.get()))
        .collect();
    let nr = |team: TeamId| number.get(&team).copied().unwrap_or_default();
    // An imported visa keeps the name it came with: the same document comes out again.
    let visa = |mark: VisaMark| {
        mark.map(|(signer, at)| VisaJson {
            by: match signer {
                Signer::User(id) => data.usernames.get(&id).cloned().unwrap_or_default(),
                Signer::Imported(name) => name,
            },
            at,
        })
    };
    let mut seats: Vec<SeatJson> = data
        .seats
        .iter()
        .map(|s| SeatJson {
            passe: s.passe.get(),
            startnummer: nr(s.team_id),
            table: s.table_no.map(u32::from),
            opponent: s.opponent_id.map(nr),
            partner: s.partner_id.map(nr),
            seat: s.position.map(|p| p.key().to_string()),
        })
        .collect();
    seats.sort_by_key(|s| (s.passe, s.startnummer));
    Export {
        format: FORMAT.into(),
        tournament: TournamentJson {
            name: t.name.clone(),
            date: t.date,
            location: t.location.clone(),
            mode: t.mode.key().into(),
            passen: t.passen.get(),
            spiele_per_passe: t.spiele_per_passe.get(),
            pauschale: t.pauschale.get(),
            closed: t.closed,
            public: t.public,
            draw_mode: t.draw_mode.as_str().into(),
            draw_seed: t.draw_seed,
            double_entry: t.double_entry,
            double_entry_same_user: t.double_entry_same_user,
            separate_clubs: t.separate_clubs,
            counted_best: t.counted_best.map(Nat::get),
            club_best: t.club_best.map(Nat::get),
            id: None,
            created_at: None,
        },
        teams: data
            .teams
            .iter()
            .map(|team| TeamJson {
                startnummer: team.startnummer.get(),
                name: team.name.clone(),
                player1: team.player1.clone(),
                player2: team.player2.clone(),
                club: team.club.clone(),
                place: team.place.clone(),
                los: team.los.map(u32::from),
                status: team.status.as_str().into(),
                out_passe: team.out_passe.map(u32::from),
                out_reason: team.out_reason.clone(),
                final_visa: visa(team.final_visa()),
                suspended_final_visa: suspended.iter().find(|(_, s)| s.team == team.id).and_then(
                    |(cause, s)| {
                        Some(SuspendedJson {
                            cause: nr(*cause),
                            visa: visa(s.visa.clone())?,
                            total: s.total,
                        })
                    },
                ),
            })
            .collect(),
        seats,
        results: data
            .results
            .iter()
            .map(|r| ResultJson {
                passe: r.passe.get(),
                table: r.table_no.get(),
                team_a: nr(r.team_a_id),
                team_b: nr(r.team_b_id),
                points_a: r.points_a.get(),
                points_b: r.points_b.get(),
                matches_a: r.matches_a.get(),
                matches_b: r.matches_b.get(),
                visa_a: visa(r.visa_a()),
                visa_b: visa(r.visa_b()),
                version: r.version,
                details: r.details.clone(),
                confirmed: r.confirmed,
            })
            .collect(),
        audit: audit.into_iter().map(AuditJson::of).collect(),
        marathon,
        differenzler: t
            .mode
            .facts()
            .score_kind
            .per_player()
            .then(|| DifferenzlerJson::of(&data.differenzler)),
        table_entry: None,
        prizes: None,
        categories: None,
        persons: Vec::new(),
    }
}

/// A tournament row from an export, with its mode and draw mode already read.
pub fn insert_tournament(
    conn: &mut Conn,
    t: &TournamentJson,
    mode: Mode,
    draw_mode: DrawMode,
) -> QueryResult<TournamentRow> {
    diesel::insert_into(tournaments::table)
        .values((
            // A database copy keeps the id; an import takes the next.
            t.id.map(|id| tournaments::id.eq(TournamentId(id))),
            tournaments::name.eq(&t.name),
            tournaments::date.eq(t.date),
            tournaments::location.eq(&t.location),
            tournaments::mode.eq(mode),
            tournaments::passen.eq(Nat::of(t.passen)?),
            tournaments::spiele_per_passe.eq(Nat::of(t.spiele_per_passe)?),
            tournaments::pauschale.eq(Nat::of(t.pauschale)?),
            tournaments::closed.eq(t.closed),
            tournaments::public.eq(t.public),
            tournaments::draw_mode.eq(draw_mode),
            tournaments::draw_seed.eq(t.draw_seed),
            tournaments::double_entry.eq(t.double_entry),
            tournaments::double_entry_same_user.eq(t.double_entry_same_user),
            tournaments::separate_clubs.eq(t.separate_clubs),
            tournaments::counted_best.eq(t.counted_best.map(Nat::of).transpose()?),
            tournaments::club_best.eq(t.club_best.map(Nat::of).transpose()?),
            tournaments::created_at.eq(t.created_at.unwrap_or_else(now)),
        ))
        .returning(tournaments::all_columns)
        .get_result(conn)
}

/// After rows were written under ids of their own: PostgreSQL's sequence continues after
/// the highest (SQLite takes the highest rowid by itself).
pub fn continue_ids_after_copy(conn: &mut Conn) -> QueryResult<()> {
    if let Conn::Postgres(pg) = conn {
        for table in ["tournaments", "audit_log", "persons", "series"] {
            diesel::sql_query(format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                 COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            ))
            .execute(pg)?;
        }
    }
    Ok(())
}

/// A team from an export; None when its Startnummer is taken already.
pub fn insert_team(
    conn: &mut Conn,
    id: TournamentId,
    team: &TeamJson,
    status: TeamStatus,
    final_visa: VisaMark,
) -> QueryResult<Option<TeamId>> {
    let taken = super::teams::taken(conn, id, team.startnummer, None)?;
    if taken {
        return Ok(None);
    }
    diesel::insert_into(teams::table)
        .values((
            teams::tournament_id.eq(id),
            teams::startnummer.eq(Nat::of(team.startnummer)?),
            teams::name.eq(&team.name),
            teams::player1.eq(&team.player1),
            teams::player2.eq(&team.player2),
            teams::club.eq(&team.club),
            teams::place.eq(&team.place),
            teams::los.eq(team.los.map(Nat::of).transpose()?),
            teams::status.eq(status),
            teams::out_passe.eq(team.out_passe.map(Nat::of).transpose()?),
            teams::out_reason.eq(&team.out_reason),
            teams::final_visa_by.eq(super::teams::signer_user(&final_visa)),
            teams::final_visa_name.eq(super::teams::signer_name(&final_visa)),
            teams::final_visa_at.eq(final_visa.as_ref().map(|v| v.1)),
        ))
        .returning(teams::id)
        .get_result(conn)
        .map(Some)
}

/// A result from an export with its visas (user ids resolved) and version.
pub struct ImportedResult<'a> {
    pub seating: super::results::Seating,
    pub json: &'a ResultJson,
    pub visa_a: VisaMark,
    pub visa_b: VisaMark,
}

pub fn insert_result(conn: &mut Conn, r: ImportedResult<'_>) -> QueryResult<ResultId> {
    let score = crate::domain::result::TableScore {
        points_a: r.json.points_a,
        points_b: r.json.points_b,
        matches_a: r.json.matches_a,
        matches_b: r.json.matches_b,
    };
    let row = super::results::insert(conn, &r.seating, score, r.json.details.clone())?;
    super::results::set_visas(conn, row.id, r.visa_a, r.visa_b)?;
    diesel::update(results::table.find(row.id))
        .set((
            results::version.eq(r.json.version),
            results::confirmed.eq(r.json.confirmed),
        ))
        .execute(conn)?;
    Ok(row.id)
}

/// The audit entries of an export, as data: no local account is their author, they read
/// "importiert: NAME" with their original time (`imported`), or, in a copy of a whole
/// database, the name as it was. `id`: the tournament they belong to (None: the entries of
/// no tournament in a database copy).
pub fn insert_audit(
    conn: &mut Conn,
    id: Option<TournamentId>,
    entries: &[AuditJson],
    imported: bool,
) -> QueryResult<()> {
    for a in entries {
        diesel::insert_into(audit_log::table)
            .values((
                audit_log::at.eq(a.at),
                audit_log::user_id.eq(None::<UserId>),
                audit_log::username.eq(match imported {
                    true => format!("{IMPORTED}{}", a.username),
                    false => a.username.clone(),
                }),
                audit_log::tournament_id.eq(id),
                audit_log::entity.eq(&a.entity),
                audit_log::entity_id.eq(a.entity_id),
                audit_log::action.eq(&a.action),
                audit_log::before.eq(&a.before),
                audit_log::after.eq(&a.after),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The format of a whole database as one document (a PostgreSQL backup, `copy`).
pub const DATABASE_FORMAT: &str = "jassturnier-datenbank-1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatabaseDoc {
    pub format: String,
    pub accounts: Vec<AccountJson>,
    pub tournaments: Vec<Export>,
    /// The Protokoll entries of no tournament (accounts, settings), in their order.
    #[serde(default)]
    pub audit: Vec<AuditJson>,
    /// The whole register, with the office's contact data.
    #[serde(default)]
    pub register: Vec<RegisterPersonJson>,
    /// The Jass-Cup's series (absent in older copies).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<super::series::SeriesJson>,
    /// The key this instance signs reports with, and the tournaments' UUIDs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<super::instance::InstanceJson>,
}

/// An account with its password hash (a backup restores the logins; sessions are not kept:
/// everybody logs in again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccountJson {
    pub username: String,
    pub password_hash: String,
    pub role: String,
    pub active: bool,
    pub created_at: NaiveDateTime,
}

/// The whole database at one moment (a consistent snapshot, also while the office writes).
pub fn dump_database(conn: &mut Conn) -> QueryResult<DatabaseDoc> {
    super::read_snapshot(conn, |conn| -> QueryResult<DatabaseDoc> {
        let accounts = super::users::list(conn)?
            .into_iter()
            .map(|u| AccountJson {
                username: u.username,
                password_hash: u.password_hash,
                role: u.role.as_str().to_string(),
                active: u.active,
                created_at: u.created_at,
            })
            .collect();
        let mut docs = Vec::new();
        let mut tournaments = super::tournaments::list(conn)?;
        // In the order they were created: a copy writes them so, whatever their dates.
        tournaments.sort_by_key(|t| t.id);
        for t in tournaments {
            let mut doc = export(conn, t.id)?;
            doc.tournament.id = Some(t.id.0);
            doc.tournament.created_at = Some(t.created_at);
            docs.push(doc);
        }
        let audit: Vec<AuditRow> = audit_log::table
            .filter(audit_log::tournament_id.is_null())
            .select(AuditRow::as_select())
            .order(audit_log::id)
            .load(conn)?;
        let register = super::persons::list(conn)?
            .into_iter()
            .map(|p| RegisterPersonJson {
                person: PersonJson::of(&p),
                email: p.email,
                phone: p.phone,
                created_at: p.created_at,
            })
            .collect();
        Ok(DatabaseDoc {
            format: DATABASE_FORMAT.into(),
            accounts,
            tournaments: docs,
            audit: audit.into_iter().map(AuditJson::of).collect(),
            register,
            series: super::series::copy_out(conn)?,
            instance: super::instance::copy_out(conn)?,
        })
    })
}

/// A Tafel written at the table, as stored with its report.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct TafelDraft {
    pub lines: Vec<LineJson>,
    pub gong: bool,
}

impl TafelDraft {
    pub fn of(lines: &[crate::domain::marathon::Spiel], gong: bool) -> Self {
        TafelDraft {
            lines: lines.iter().map(LineJson::of).collect(),
            gong,
        }
    }

    /// The lines; a line that no longer reads is an error, never silently dropped.
    pub fn spiele(&self) -> Result<Vec<crate::domain::marathon::Spiel>, String> {
        self.lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                l.spiel()
                    .ok_or_else(|| format!("Tafel line {} unreadable", i + 1))
            })
            .collect()
    }

    /// The stored draft of a report (none: an empty Tafel).
    pub fn read(report: &super::models::TableReportRow) -> Result<TafelDraft, String> {
        match &report.tafel {
            Some(json) => serde_json::from_str(json).map_err(|e| e.to_string()),
            None => Ok(TafelDraft::default()),
        }
    }
}

impl TafelDraft {
    /// As stored with the report.
    pub fn json(&self) -> Result<String, String> {
        serde_json::to_string(self).map_err(|e| e.to_string())
    }
}

/// A person of a database copy, under its number.
pub fn insert_copied_person(conn: &mut Conn, p: &RegisterPersonJson) -> QueryResult<()> {
    diesel::insert_into(persons::table)
        .values((
            persons::id.eq(PersonId(p.person.id)),
            persons::name.eq(&p.person.name),
            persons::vorname.eq(&p.person.vorname),
            persons::verein.eq(&p.person.verein),
            persons::ort.eq(&p.person.ort),
            persons::jahrgang.eq(p.person.jahrgang.map(Nat::of).transpose()?),
            persons::geschlecht.eq(p.person.geschlecht),
            persons::email.eq(&p.email),
            persons::phone.eq(&p.phone),
            persons::created_at.eq(p.created_at),
        ))
        .execute(conn)?;
    Ok(())
}
