//! Imports: table results from a CSV file, and a whole tournament from its JSON export.
//! Both all or nothing.

use super::result_write::{
    SaveOutcome, TableEntry, Writer, finish_result_writes, sheets_before_write, write_checked,
    write_new_many,
};
use super::{Refusal, double_entry, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, TournamentAction};
use crate::db::models::SeatRow;
use crate::db::models::{Signer, VisaMark};
use crate::db::table_entry;
use crate::db::transfer::{self, Export, FORMAT, ImportedResult};
use crate::db::types::Nat;
use crate::db::{Conn, audit, marathon, prizes, results, seats, teams, tournament_data, write_tx};
use crate::domain::category::{Rule, same_name};
use crate::domain::clock::ClockFacts;
use crate::domain::draw::DrawMode;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::marathon::tafel::compute;
use crate::domain::mode::Mode;
use crate::domain::prizes::{PrizeForm, PrizeList};
use crate::domain::result_import::ImportedTable;
use crate::domain::role::{Actor, Permission};
use crate::domain::sitz::Sitz;
use crate::domain::table_code;
use crate::domain::team::TeamStatus;
use crate::domain::team::{TeamForm, TeamInput};
use crate::domain::tournament::{MarathonForm, TournamentForm, TournamentSettings};
use std::collections::{HashMap, HashSet};

/// What an import of table results did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ImportedResults {
    /// Tables whose result counts now.
    pub counted: usize,
    /// Double entry: tables kept blind as the importing account's first entry.
    pub first_entries: usize,
    /// Double entry: tables whose file result contradicts the first entry (Passe, Tisch).
    pub contradictions: Vec<(u32, u32)>,
}

impl ImportedResults {
    /// The office's flash message.
    pub fn message(&self) -> String {
        let mut parts = Vec::new();
        if self.counted > 0 || (self.first_entries == 0 && self.contradictions.is_empty()) {
            parts.push(format!("{} Tischresultate importiert.", self.counted));
        }
        if self.first_entries > 0 {
            parts.push(format!(
                "{} Tische 1× erfasst: sie zählen nach der zweiten, blinden Erfassung durch ein anderes Konto.",
                self.first_entries
            ));
        }
        if !self.contradictions.is_empty() {
            let tables: Vec<String> = self
                .contradictions
                .iter()
                .map(|(p, t)| format!("Passe {p} Tisch {t}"))
                .collect();
            parts.push(format!(
                "Widerspruch zur ersten Erfassung: {}. Die Turnierleitung entscheidet.",
                tables.join(", ")
            ));
        }
        parts.join(" ")
    }
}

/// An imported table as a new result: no stored version to match, no Striche, no reason.
fn new_entry(t: &ImportedTable) -> TableEntry {
    TableEntry {
        passe: t.passe,
        table: t.table,
        score: t.score,
        expected_version: None,
        details: None,
        reason: None,
    }
}

/// Writes an imported set of table results; any table already entered refuses the whole
/// file. With double entry a file is the importing account's entry like a typed one: it
/// does not count before a second, independent entry (or confirms one waiting).
#[tracing::instrument(skip_all, fields(tournament = %id, tables = tables.len()))]
pub fn import_results(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    tables: &[ImportedTable],
) -> Result<ImportedResults, Refusal> {
    guard::require(actor, Permission::EnterResults)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::open_tournament(conn, id)?;
        t.mode
            .facts()
            .score_kind
            .csv_import(t.mode)
            .map_err(Refusal::invalid)?;
        let double = t.double_entry && t.mode.facts().double_entry;
        let data = tournament_data::load(conn, id)?;
        let before = sheets_before_write(conn, &data)?;
        let mut imported = ImportedResults::default();
        // The usual import (new results only, nothing waiting from the tables): written
        // together, a few statements for hundreds of tables.
        if !double {
            let entries: Vec<TableEntry> = tables.iter().map(new_entry).collect();
            if let Some(written) = write_new_many(conn, Writer::Office(actor), &data, &entries)? {
                imported.counted = written.len();
                finish_result_writes(conn, id, before.as_deref())?;
                return Ok(imported);
            }
        }
        for t in tables {
            let entry = new_entry(t);
            let here = |message: String| {
                Refusal::invalid(format!(
                    "Zeile {}: {} {}, Tisch {}: {message} Nichts wurde importiert.",
                    t.line,
                    data.tournament.mode.round(),
                    t.passe,
                    t.table
                ))
            };
            let outcome = if double && data.result_at(t.passe, t.table).is_none() {
                double_entry::enter(conn, actor, &data, &entry)
            } else {
                write_checked(conn, Writer::Office(actor), &data, &entry)
            }
            .map_err(|refusal| match refusal {
                Refusal::Invalid(m) | Refusal::Forbidden(m) => here(m),
                other => other,
            })?;
            match outcome {
                SaveOutcome::Saved(_) | SaveOutcome::Corrected { .. } => imported.counted += 1,
                SaveOutcome::FirstEntry => imported.first_entries += 1,
                SaveOutcome::Mismatch(_) => imported.contradictions.push((t.passe, t.table)),
                SaveOutcome::Conflict(_) => {
                    return Err(here("es ist schon ein Resultat erfasst.".into()));
                }
            }
        }
        finish_result_writes(conn, id, before.as_deref())?;
        Ok(imported)
    })
}

/// How many problems of a refused document are named.
const PROBLEMS_SHOWN: usize = 10;

/// Checks an export the way the forms check what is typed: settings, names, numbers in
/// range, no team against itself, table sums, known statuses. All problems, in file order.
pub fn check_document(doc: &Export) -> Result<(Mode, DrawMode), Vec<String>> {
    let mut problems = Vec::new();
    if doc.format != FORMAT {
        problems.push(format!(
            "Unbekanntes Format «{}» (erwartet {FORMAT}).",
            doc.format
        ));
        return Err(problems);
    }
    let t = &doc.tournament;
    let mode = Mode::from_key(&t.mode);
    let draw_mode = DrawMode::parse(&t.draw_mode);
    if draw_mode.is_none() {
        problems.push(format!("Unbekannte Art der Auslosung «{}».", t.draw_mode));
    }
    let form = TournamentForm {
        name: t.name.clone(),
        date: t.date.format("%Y-%m-%d").to_string(),
        location: t.location.clone(),
        mode: t.mode.clone(),
        passen: t.passen.to_string(),
        spiele_per_passe: t.spiele_per_passe.to_string(),
        pauschale: t.pauschale.to_string(),
        counted_best: t.counted_best.map(|k| k.to_string()).unwrap_or_default(),
        club_best: t.club_best.map(|k| k.to_string()).unwrap_or_default(),
        marathon: doc
            .marathon
            .as_ref()
            .map(|m| MarathonForm::of(&m.rules))
            .unwrap_or_default(),
        ..Default::default()
    };
    if let Err(errors) = TournamentSettings::try_from(&form) {
        problems.extend(errors.messages().map(|m| format!("Turnier: {m}")));
    }
    let (Some(mode), Some(draw_mode)) = (mode, draw_mode) else {
        return Err(problems);
    };
    let passen = t.passen;
    let in_round = |p: u32| (1..=passen).contains(&p);
    let tables = u32::try_from(doc.teams.len())
        .unwrap_or(u32::MAX)
        .div_ceil(2);
    let on_table = |table: u32| (1..=tables).contains(&table);
    let mut numbers = HashSet::new();
    for team in &doc.teams {
        let nr = team.startnummer;
        let form = TeamForm {
            startnummer: nr.to_string(),
            name: team.name.clone().unwrap_or_default(),
            player1: team.player1.clone(),
            player2: team.player2.clone(),
            club: team.club.clone().unwrap_or_default(),
            place: team.place.clone().unwrap_or_default(),
        };
        if let Err(errors) = TeamInput::try_from(&form) {
            problems.extend(errors.messages().map(|m| format!("Team {nr}: {m}")));
        }
        if !numbers.insert(nr) {
            problems.push(format!("Startnummer {nr} kommt doppelt vor."));
        }
        if !TeamStatus::ALL.iter().any(|s| s.as_str() == team.status) {
            problems.push(format!("Team {nr}: unbekannter Status «{}».", team.status));
        }
        // One past the last Passe: left after it was played (results stay, no Pauschale).
        if team
            .out_passe
            .is_some_and(|p| !in_round(p) && !p.checked_sub(1).is_some_and(in_round))
        {
            problems.push(format!(
                "Team {nr}: ausgeschieden in einer {} ausserhalb des Turniers.",
                mode.round()
            ));
        }
        if team
            .los
            .is_some_and(|l| l < 1 || usize::try_from(l).map_or(true, |l| l > doc.teams.len()))
        {
            problems.push(format!(
                "Team {nr}: Los ausserhalb 1 bis {}.",
                doc.teams.len()
            ));
        }
    }
    let known = |nr: u32| numbers.contains(&nr);
    let mut seated = HashSet::new();
    for s in &doc.seats {
        let where_ = format!("{} {}, Team {}", mode.round(), s.passe, s.startnummer);
        if !in_round(s.passe) || !known(s.startnummer) || s.table.is_some_and(|t| !on_table(t)) {
            problems.push(format!("{where_}: Runde, Team oder Tisch gibt es nicht."));
        }
        if s.opponent == Some(s.startnummer) || s.opponent.is_some_and(|o| !known(o)) {
            problems.push(format!("{where_}: unmöglicher Gegner."));
        }
        if !seated.insert((s.passe, s.startnummer)) {
            problems.push(format!("{where_}: sitzt zweimal."));
        }
    }
    problems.extend(seating_problems(doc, mode));
    let seat_of: HashMap<(u32, u32), &transfer::SeatJson> = doc
        .seats
        .iter()
        .map(|s| ((s.passe, s.startnummer), s))
        .collect();
    let mut entered = HashSet::new();
    for r in &doc.results {
        let where_ = format!("{} {}, Tisch {}", mode.round(), r.passe, r.table);
        if !in_round(r.passe) || !on_table(r.table) || !known(r.team_a) || !known(r.team_b) {
            problems.push(format!("{where_}: Runde, Tisch oder Team gibt es nicht."));
        }
        if r.team_a == r.team_b {
            problems.push(format!(
                "{where_}: ein Team spielt nicht gegen sich selbst."
            ));
        }
        let sum_ok = match mode.table_total(t.spiele_per_passe) {
            Some(total) => r.points_a.checked_add(r.points_b) == Some(total),
            None => true,
        };
        // The columns hold at most i32::MAX; a larger number is refused here, not at the write.
        let fits = [r.points_a, r.points_b, r.matches_a, r.matches_b]
            .iter()
            .all(|n| Nat::of(*n).is_ok());
        if !fits || !sum_ok {
            problems.push(format!("{where_}: die Summe stimmt nicht."));
        }
        if !entered.insert((r.passe, r.table)) {
            problems.push(format!("{where_}: zwei Resultate für denselben Tisch."));
        }
        // A result belongs to the sides the draw seated at that table: not to teams that sat
        // elsewhere, and (teams) to the two that the draw made opponents.
        let at_table = |nr: u32| {
            seat_of
                .get(&(r.passe, nr))
                .is_some_and(|s| s.table == Some(r.table))
        };
        let opponents = mode.entrant().per_side() > 1
            || seat_of
                .get(&(r.passe, r.team_a))
                .is_some_and(|s| s.opponent == Some(r.team_b));
        if !at_table(r.team_a) || !at_table(r.team_b) || !opponents {
            problems.push(format!(
                "{where_}: die {} des Resultats sitzen laut Auslosung nicht an diesem Tisch.",
                mode.entrant().sides()
            ));
        }
        for visa in [&r.visa_a, &r.visa_b] {
            problems.extend(visa_problem(visa, &where_));
        }
    }
    for team in &doc.teams {
        let where_ = format!("Team {}", team.startnummer);
        problems.extend(visa_problem(&team.final_visa, &where_));
        if let Some(held) = &team.suspended_final_visa {
            problems.extend(visa_problem(&Some(held.visa.clone()), &where_));
        }
    }
    if let Some(entry) = doc
        .audit
        .iter()
        .find(|a| a.username.chars().count() > NAME_CHARS)
    {
        problems.push(format!(
            "Protokoll vom {}: Name länger als {NAME_CHARS} Zeichen.",
            entry.at.format("%d.%m.%Y %H:%M")
        ));
    }
    if let Some(m) = &doc.marathon {
        if !mode.has_tafel() {
            problems.push(format!("Im {} gibt es keine Tafeln.", mode.label()));
        }
        for tafel in &m.tafeln {
            let where_ = format!(
                "Tafel {} {}, Tisch {}",
                mode.round(),
                tafel.passe,
                tafel.table
            );
            if !in_round(tafel.passe) || !on_table(tafel.table) {
                problems.push(format!("{where_}: Runde oder Tisch gibt es nicht."));
            }
            let lines: Option<Vec<_>> = tafel.lines.iter().map(|l| l.spiel()).collect();
            match lines {
                None => problems.push(format!("{where_}: eine Zeile ist unlesbar.")),
                Some(lines) => {
                    if let Err(e) = compute(&m.rules, &lines, tafel.gong) {
                        problems.push(format!("{where_}, Zeile {}: {}", e.line, e.message));
                    }
                }
            }
        }
        for clock in &m.clocks {
            if !in_round(clock.passe) {
                problems.push(format!(
                    "Uhr der {} {}: gibt es nicht.",
                    mode.round(),
                    clock.passe
                ));
            }
        }
    }
    if let Some(c) = &doc.categories
        && let Err(errors) = crate::domain::category::parse_names(&c.names.join("\n"))
    {
        problems.extend(errors.messages().map(|m| format!("Kategorien: {m}")));
    }
    if let Some(c) = &doc.categories {
        for r in &c.rules {
            if r.rule().is_none() || !c.names.iter().any(|n| same_name(n, &r.name)) {
                problems.push(format!("Kategorien: ungültige Regel bei «{}».", r.name));
            }
        }
    }
    // The prize list as the form checks it: texts, and Startnummern of this field.
    if let Some(list) = &doc.prizes {
        let known = |n: u32| doc.teams.iter().any(|t| t.startnummer == n);
        let categories = doc
            .categories
            .as_ref()
            .map(|c| c.names.clone())
            .unwrap_or_default();
        if let Err(errors) = PrizeList::parse(&PrizeForm::of(list), &known, &categories) {
            problems.extend(errors.messages().map(|m| format!("Preisliste: {m}")));
        }
    }
    if problems.is_empty() {
        Ok((mode, draw_mode))
    } else {
        Err(problems)
    }
}

/// The longest name a visa or a Protokoll entry may carry: a username (64) with room for
/// a prefix such as "importiert: ".
const NAME_CHARS: usize = 80;

/// A visa whose name is longer than any account's.
fn visa_problem(visa: &Option<transfer::VisaJson>, where_: &str) -> Option<String> {
    visa.as_ref()
        .filter(|v| v.by.chars().count() > NAME_CHARS)
        .map(|_| format!("{where_}: Visum mit einem Namen länger als {NAME_CHARS} Zeichen."))
}

/// The draw of a document as the draw makes it: at most two sides of a table, opponents
/// (and Einzelschieber partners) at the same table and each other's.
fn seating_problems(doc: &Export, mode: Mode) -> Vec<String> {
    let mut problems = Vec::new();
    let seat_of: HashMap<(u32, u32), &transfer::SeatJson> = doc
        .seats
        .iter()
        .map(|s| ((s.passe, s.startnummer), s))
        .collect();
    let mut at_table: HashMap<(u32, u32), usize> = HashMap::new();
    for s in &doc.seats {
        if let Some(table) = s.table {
            *at_table.entry((s.passe, table)).or_default() += 1;
        }
    }
    let most = 2 * mode.entrant().per_side();
    let mut crowded: Vec<&(u32, u32)> = at_table
        .iter()
        .filter(|(_, n)| **n > most)
        .map(|(key, _)| key)
        .collect();
    crowded.sort();
    for (passe, table) in crowded {
        problems.push(format!(
            "{} {passe}, Tisch {table}: mehr als {most} {} am Tisch.",
            mode.round(),
            mode.entrant().many()
        ));
    }
    for s in &doc.seats {
        let where_ = format!(
            "{} {}, {} {}",
            mode.round(),
            s.passe,
            mode.entrant().one(),
            s.startnummer
        );
        // Team modes: the opponent's opponent is this team. Einzelschieber: the partner's
        // partner is this player (his opponents are the other pair, not one player).
        let teams = mode.entrant().per_side() == 1;
        let back = |o: &transfer::SeatJson| if teams { o.opponent } else { o.partner };
        let other = if teams { s.opponent } else { s.partner };
        let Some(other) = other else { continue };
        let matches = seat_of
            .get(&(s.passe, other))
            .is_some_and(|o| o.table == s.table && back(o) == Some(s.startnummer));
        if !matches {
            problems.push(format!(
                "{where_}: {} {other} sitzt nicht am selben Tisch oder nennt ein anderes Gegenüber.",
                mode.entrant().one()
            ));
        }
    }
    problems
}

/// The visa of an imported document: its author's name, no account of this instance.
fn imported_visa(visa: &Option<transfer::VisaJson>) -> VisaMark {
    visa.as_ref()
        .map(|v| (Signer::Imported(v.by.clone()), v.at))
}

/// Imports a tournament export as a new tournament; all or nothing. It is checked like typed
/// input first; it creates no accounts: visas and audit entries keep their author's name and
/// time as data ("importiert: NAME").
#[tracing::instrument(skip_all)]
pub fn import_tournament(
    conn: &mut Conn,
    actor: &Actor,
    doc: &Export,
) -> Result<TournamentId, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let checked = checked(doc)?;
    write_tx(conn, Lock::Global, |conn| {
        write_imported(conn, actor, doc, checked, Register::ByName)
    })
}

/// The document's mode and draw mode, or why it is refused (nothing written).
pub fn checked(doc: &Export) -> Result<(Mode, DrawMode), Refusal> {
    check_document(doc).map_err(|problems| {
        let more = problems.len().saturating_sub(PROBLEMS_SHOWN);
        let mut text = format!(
            "Die Datei wurde abgelehnt, nichts wurde importiert: {}",
            problems
                .iter()
                .take(PROBLEMS_SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(" · ")
        );
        if more > 0 {
            text += &format!(" · … und {more} weitere Probleme.");
        }
        Refusal::Invalid(text)
    })
}

/// Writes a checked document as a new tournament, inside the caller's write transaction.
pub fn write_imported(
    conn: &mut Conn,
    actor: &Actor,
    doc: &Export,
    (mode, draw_mode): (Mode, DrawMode),
    register: Register<'_>,
) -> Result<TournamentId, Refusal> {
    let id = write_tournament(
        conn,
        doc,
        (mode, draw_mode),
        &imported_visa,
        Identity::New,
        register,
    )?;
    transfer::insert_audit(conn, Some(id), &doc.audit, true)?;
    let t = &doc.tournament;
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(id),
            event: AuditEvent::Tournament(TournamentAction::Import),
            entity_id: Some(id.0),
        },
        None::<&()>,
        Some(&serde_json::json!({
            "name": t.name,
            "teams": doc.teams.len(),
            "results": doc.results.len(),
        })),
    )?;
    Ok(id)
}

/// How a visa of a document becomes a visa here: as imported data, or (a copy of a whole
/// database, accounts included) as the account's own.
pub type VisaOf<'a> = &'a dyn Fn(&Option<transfer::VisaJson>) -> VisaMark;

/// How the players of a written tournament find their persons in the register.
#[derive(Clone, Copy)]
pub enum Register<'a> {
    /// By Name, Vorname and Ort (a new person where none is alike).
    ByName,
    /// As the office chose in the preview for the players it had to choose (a sealed
    /// report); the others by name.
    Chosen(
        &'a [super::persons::SeatMatch],
        &'a HashMap<(usize, u32), super::persons::SeatChoice>,
    ),
}

/// Which id a written tournament gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// An import: the next id, created now (whatever the file says).
    New,
    /// A copy of a whole database: the id and creation time of the document.
    Kept,
}

/// Writes a checked tournament document as a new tournament (inside the caller's write):
/// teams, schedule, results with their visas, Tafeln and clocks; not its audit entries.
pub fn write_tournament(
    conn: &mut Conn,
    doc: &Export,
    (mode, draw_mode): (Mode, DrawMode),
    visa_of: VisaOf<'_>,
    identity: Identity,
    register: Register<'_>,
) -> Result<TournamentId, Refusal> {
    let t = &doc.tournament;
    let row = match identity {
        Identity::Kept => transfer::insert_tournament(conn, t, mode, draw_mode)?,
        Identity::New => {
            let fresh = transfer::TournamentJson {
                id: None,
                created_at: None,
                ..t.clone()
            };
            transfer::insert_tournament(conn, &fresh, mode, draw_mode)?
        }
    };
    let id = row.id;
    let mut team_ids: HashMap<u32, TeamId> = HashMap::new();
    for team in &doc.teams {
        let status = TeamStatus::ALL
            .into_iter()
            .find(|s| s.as_str() == team.status)
            .ok_or_else(|| Refusal::invalid(format!("Unbekannter Status «{}».", team.status)))?;
        let new_id = transfer::insert_team(conn, id, team, status, visa_of(&team.final_visa))?
            .ok_or_else(|| {
                Refusal::invalid(format!(
                    "Startnummer {} kommt doppelt vor.",
                    team.startnummer
                ))
            })?;
        team_ids.insert(team.startnummer, new_id);
    }
    let team = |nr: u32| {
        team_ids
            .get(&nr)
            .copied()
            .ok_or_else(|| Refusal::invalid(format!("Team {nr} fehlt in der Datei.")))
    };
    // The register follows. A database copy links the seats as they were (its register is
    // copied first, under the same numbers); an import finds or adds the persons.
    if matches!(identity, Identity::Kept) {
        for seat in &doc.persons {
            let person = crate::domain::ids::PersonId(seat.person.id);
            // A copy without its register (an older one): found by name below.
            if crate::db::persons::find(conn, person)?.is_some() {
                crate::db::persons::link(conn, id, team(seat.startnummer)?, seat.seat, person)?;
            }
        }
    }
    match register {
        Register::ByName => {
            crate::db::persons::link_tournament(conn, &row)?;
        }
        // The office's choices first, then every other seat by name (seat by seat).
        Register::Chosen(seats, choices) => {
            super::persons::apply_import_choices(conn, &row, seats, choices, &team_ids)?;
            let rows = teams::list(conn, id)?;
            crate::db::persons::link_teams(conn, &row, &rows)?;
        }
    }
    // Final visas held aside while another team is out come back when it returns.
    for t in &doc.teams {
        if let Some(s) = &t.suspended_final_visa {
            let held = teams::SuspendedVisa {
                team: team(t.startnummer)?,
                visa: visa_of(&Some(s.visa.clone())),
                total: s.total,
            };
            teams::suspend_final_visa(conn, team(s.cause)?, &held)?;
        }
    }
    let mut seat_rows = Vec::with_capacity(doc.seats.len());
    for s in &doc.seats {
        seat_rows.push(SeatRow {
            id: 0,
            tournament_id: id,
            passe: Nat::of(s.passe)?,
            team_id: team(s.startnummer)?,
            table_no: s.table.map(Nat::of).transpose()?,
            opponent_id: s.opponent.map(team).transpose()?,
            partner_id: s.partner.map(team).transpose()?,
            position: match &s.seat {
                None => None,
                Some(key) => Some(Sitz::from_key(key).ok_or_else(|| {
                    Refusal::invalid(format!("Unbekannter Sitz «{key}» in der Datei."))
                })?),
            },
        });
    }
    seats::insert(conn, &seat_rows)?;
    for r in &doc.results {
        transfer::insert_result(
            conn,
            ImportedResult {
                seating: results::Seating {
                    tournament: id,
                    passe: r.passe,
                    table: r.table,
                    team_a: team(r.team_a)?,
                    team_b: team(r.team_b)?,
                },
                json: r,
                visa_a: visa_of(&r.visa_a),
                visa_b: visa_of(&r.visa_b),
            },
        )?;
    }
    if let Some(d) = &doc.differenzler {
        let rules = d.rules(doc.tournament.pauschale);
        crate::db::differenzler::save_rules(conn, id, &rules)?;
    }
    if let Some(m) = &doc.marathon {
        marathon::save_rules(conn, id, &m.rules)?;
        for tafel in &m.tafeln {
            let lines: Vec<_> = tafel.lines.iter().filter_map(|l| l.spiel()).collect();
            let (passe, table) = (tafel.passe, tafel.table);
            marathon::save_tafel(conn, id, passe, table, &lines, tafel.gong)?;
            if tafel.multiplied {
                marathon::set_entry_multiplied(conn, id, passe, table, true)?;
            }
        }
        for clock in &m.clocks {
            let facts = ClockFacts {
                started_at: clock.started_at,
                paused_at: clock.paused_at,
                paused_seconds: clock.paused_seconds,
                ended_at: clock.ended_at,
            };
            marathon::save_clock(conn, id, clock.passe, &facts)?;
        }
    }
    if let Some(list) = &doc.prizes {
        prizes::replace(conn, id, list)?;
    }
    if let Some(c) = &doc.categories {
        crate::db::categories::replace_list(conn, id, &c.names, |_| Rule::ByHand)?;
        let listed = crate::db::categories::load(conn, id)?.list;
        for r in &c.rules {
            let same = listed.iter().find(|x| same_name(&x.name, &r.name));
            if let (Some(category), Some(rule)) = (same, r.rule()) {
                crate::db::categories::set_rule(conn, category.id, rule)?;
            }
        }
        // Members as the file lists them, whatever the rules say here.
        let stored = crate::db::categories::load(conn, id)?;
        let mut pairs = Vec::new();
        for (startnummer, names) in &c.members {
            for name in names {
                let category = stored
                    .list
                    .iter()
                    .find(|x| same_name(&x.name, name))
                    .ok_or_else(|| {
                        Refusal::invalid(format!(
                            "Unbekannte Kategorie «{name}» bei Team {startnummer}."
                        ))
                    })?;
                pairs.push((team(*startnummer)?, category.id));
            }
        }
        pairs.sort();
        pairs.dedup();
        // A closed tournament's rules answer as at its closing (here: from the persons
        // as they are now); the members are the file's either way.
        if row.closed {
            crate::db::categories::freeze(conn, id)?;
        }
        let all: Vec<TeamId> = team_ids.values().copied().collect();
        crate::db::categories::set_members(conn, id, &all, &pairs)?;
    }
    if let Some(entry) = &doc.table_entry {
        let mut codes = Vec::with_capacity(entry.codes.len());
        for c in &entry.codes {
            let code = table_code::parse(&c.code).ok_or_else(|| {
                Refusal::invalid(format!("Ungültiger Tisch-Code für Team {}.", c.startnummer))
            })?;
            codes.push((team(c.startnummer)?, code));
        }
        table_entry::put_codes(conn, id, &codes)?;
        table_entry::set(conn, id, entry.open_passe)?;
    }
    Ok(id)
}
