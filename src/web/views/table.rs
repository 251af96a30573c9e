//! One table of a Passe or Spielrunde as the office sees it.

use crate::db::models::{Nat, ResultRow, TeamRow};
use crate::db::tournament_data::TournamentData;
use crate::domain::format;
use crate::domain::ids::ResultId;
use crate::domain::team::display_name;

pub fn team_label(team: &TeamRow) -> String {
    format!(
        "{} {}",
        team.startnummer,
        display_name(team.name.as_deref(), &team.player1, &team.player2)
    )
}

/// The labels of one side of a table: the team, or (Einzelschieber) both players of the
/// pair, each with its seat when `seats` is asked for ("A1 12 Muster Hans").
fn side_labels(data: &TournamentData, passe: u32, first: &TeamRow, seats: bool) -> Vec<String> {
    data.side(passe, first)
        .into_iter()
        .map(|player| {
            let seat = data
                .seat(passe, player.id)
                .and_then(|s| s.position)
                .filter(|_| seats);
            // Who has left is named at the table he would have played (nobody plays it).
            let left = if player.is_out(passe) {
                " (ausgeschieden)"
            } else {
                ""
            };
            match seat {
                Some(sitz) => format!(
                    "{} {}{left}",
                    sitz.name_in(data.tournament.mode),
                    team_label(player)
                ),
                None => format!("{}{left}", team_label(player)),
            }
        })
        .collect()
}

/// One side of a table in one line: "12 Muster Hans & 5 Bär Anna", or with the seats
/// "A1 12 Muster Hans · A2 5 Bär Anna".
pub fn side_label(data: &TournamentData, passe: u32, first: &TeamRow, seats: bool) -> String {
    side_labels(data, passe, first, seats).join(if seats { " · " } else { " & " })
}

/// Einzelschieber: a player's seat and partner in a Passe ("A2", "5 Bär Anna"); empty for a
/// team, a bye, or a Passe not drawn yet.
pub fn seat_cells(
    data: &TournamentData,
    passe: u32,
    team: crate::domain::ids::TeamId,
) -> (String, String) {
    let Some(seat) = data.seat(passe, team).filter(|s| s.position.is_some()) else {
        return Default::default();
    };
    // Differenzler: a place on the Schätzzettel, nobody's partner.
    if !data.tournament.mode.plays_in_pairs() {
        let place = seat.position.map(|p| p.place().to_string());
        return (place.unwrap_or_default(), String::new());
    }
    (
        seat.position
            .map(|p| p.key().to_string())
            .unwrap_or_default(),
        // A partner who has left by this Passe is marked: the Pauschale comes from him.
        seat.partner_id
            .and_then(|p| data.team(p))
            .map(|partner| match partner.is_out(passe) {
                true => format!("{} (ausgeschieden)", team_label(partner)),
                false => team_label(partner),
            })
            .unwrap_or_default(),
    )
}

/// The opponents of a Standblatt line: the other team, or (Einzelschieber) both players of
/// the other pair, joined by `join`; in a Differenzler the three others at the table.
pub fn opponents_cell(
    data: &TournamentData,
    passe: u32,
    team: crate::domain::ids::TeamId,
    line: &crate::domain::standblatt::PasseLine,
    join: &str,
) -> String {
    let mut cells: Vec<String> = Vec::new();
    if !data.tournament.mode.plays_in_pairs() {
        let partner = data.seat(passe, team).and_then(|s| s.partner_id);
        cells.extend(
            partner
                .and_then(|p| data.team(p))
                .map(|p| match p.is_out(passe) {
                    true => format!("{} (ausgeschieden)", team_label(p)),
                    false => team_label(p),
                }),
        );
    }
    cells.extend(
        line.opponent()
            .and_then(|o| data.team(o))
            .map(|first| side_labels(data, passe, first, false))
            .unwrap_or_default(),
    );
    cells.join(join)
}

pub struct TableView {
    pub number: u32,
    pub team_a: String,
    pub team_b: String,
    pub result: Option<ResultView>,
    /// "Pauschale" when a team of the table has left the tournament.
    pub pauschale: bool,
    /// At such a table: whether side A, side B gets the Pauschale (somebody of it is still
    /// in); a side that has left gets nothing.
    pub pauschale_a: bool,
    pub pauschale_b: bool,
    /// A Tafel still being played: its Striche are provisional, the table not final.
    pub open_tafel: bool,
    /// Double entry: entries not yet confirmed. Their values are shown only once they
    /// contradict each other, so that the second clerk types blind.
    pub pending: Vec<PendingView>,
    /// Results from the table: the table's report, where the page shows it.
    pub report: Option<ReportView>,
    /// Four numbers per table (Differenzler): places 1 to 4, each with its differences once
    /// entered; empty in the other modes.
    pub places: Vec<(String, String)>,
}

/// A table's report from the phones, for the office.
pub struct ReportView {
    pub label: &'static str,
    /// Open: reported and waiting, or disputed (the office may decide).
    pub open: bool,
    /// The office may decide it (reported or disputed; not a Tafel still being written).
    pub decidable: bool,
    pub disputed: bool,
    pub by: String,
    pub reported: String,
    pub answer_by: String,
    pub answer: String,
    pub note: String,
    pub version: i32,
}

pub struct PendingView {
    pub by: String,
    pub points: String,
}

impl TableView {
    /// Whether the table counts as entered: it plays, and its result is final (not on a
    /// Tafel still being played).
    pub fn is_entered(&self) -> bool {
        !self.pauschale && self.result.is_some() && !self.open_tafel
    }

    pub fn contradiction(&self) -> bool {
        self.pending.len() > 1
    }
    /// Progress word: offen, 1× erfasst, Widerspruch, erfasst, or bestätigt where double
    /// entry confirmed it (a result entered once before double entry was switched on, or
    /// without it, is "erfasst").
    pub fn state(&self, double_entry: &bool) -> &'static str {
        match (&self.result, self.pending.len()) {
            (Some(r), _) if *double_entry && r.confirmed => "bestätigt",
            (Some(_), _) => "erfasst",
            (None, 0) => "offen",
            (None, 1) => "1× erfasst",
            (None, _) => "Widerspruch",
        }
    }
}

fn pending_views(data: &TournamentData, passe: u32, table: u32) -> Vec<PendingView> {
    data.pending_at(passe, table)
        .into_iter()
        .map(|p| PendingView {
            by: data.usernames.get(&p.user_id).cloned().unwrap_or_default(),
            points: format!(
                "{} : {}",
                format::number(i64::from(p.points_a)),
                format::number(i64::from(p.points_b))
            ),
        })
        .collect()
}

pub struct ResultView {
    pub id: ResultId,
    pub points_a: String,
    pub points_b: String,
    pub matches: String,
    pub visa_a: bool,
    pub visa_b: bool,
    pub version: i32,
    /// Double entry: two accounts typed it alike (or the Leitung decided).
    pub confirmed: bool,
}

impl ResultView {
    pub fn new(r: &ResultRow) -> Self {
        ResultView {
            id: r.id,
            points_a: format::number(i64::from(r.points_a)),
            points_b: format::number(i64::from(r.points_b)),
            matches: if r.matches_a > Nat::ZERO || r.matches_b > Nat::ZERO {
                format!("{} : {}", r.matches_a, r.matches_b)
            } else {
                String::new()
            },
            visa_a: r.visa_a_at.is_some(),
            visa_b: r.visa_b_at.is_some(),
            version: r.version,
            confirmed: r.confirmed,
        }
    }
}

pub fn table_views(data: &TournamentData, passe: u32) -> Vec<TableView> {
    data.tables(passe)
        .iter()
        .map(|t| TableView {
            number: t.number,
            team_a: side_label(data, passe, t.team_a, false),
            team_b: side_label(data, passe, t.team_b, false),
            result: data.result_at(passe, t.number).map(ResultView::new),
            pauschale: data.table_has_left(passe, t),
            pauschale_a: data.side_stays(passe, t.team_a),
            pauschale_b: data.side_stays(passe, t.team_b),
            open_tafel: data.open_tafeln.contains(&(passe, t.number)),
            pending: pending_views(data, passe, t.number),
            report: None,
            places: places(data, passe, t),
        })
        .collect()
}

/// A Differenzler table's four players with their differences (once entered).
fn places(
    data: &TournamentData,
    passe: u32,
    table: &crate::domain::schedule::Table<&TeamRow>,
) -> Vec<(String, String)> {
    if !data.tournament.mode.facts().score_kind.per_player() {
        return Vec::new();
    }
    let Some(four) = data.foursome(passe, table) else {
        return Vec::new();
    };
    let sheet = data
        .result_at(passe, table.number)
        .and_then(|r| crate::domain::differenzler::TableSheet::parse(r.details.as_deref()));
    four.iter()
        .enumerate()
        .map(|(i, player)| {
            let name = match player.is_out(passe) {
                true => format!("{} (ausgeschieden)", team_label(player)),
                false => team_label(player),
            };
            let d = sheet
                .as_ref()
                .map(|s| format::number(i64::from(s.differenzen[i])))
                .unwrap_or_default();
            (name, d)
        })
        .collect()
}

/// Adds the tables' reports from the phones to a Tischliste.
pub fn with_reports(
    data: &TournamentData,
    tables: &mut [TableView],
    reports: &[crate::db::models::TableReportRow],
) {
    use crate::domain::table_report::ReportState;
    let name = |id| data.team(id).map(team_label).unwrap_or_default();
    let kind = data.tournament.mode.facts().score_kind;
    let score = |a: Nat, b: Nat| {
        format!(
            "{} : {}",
            crate::domain::format::number(i64::from(a)),
            crate::domain::format::number(i64::from(b))
        )
    };
    for report in reports {
        let Some(table) = tables
            .iter_mut()
            .find(|t| t.number == report.table_no.get())
        else {
            continue;
        };
        table.report = Some(ReportView {
            label: report.state.label(),
            open: report.state.is_open(),
            decidable: report.state.is_decidable(),
            disputed: report.state == ReportState::Widerspruch,
            by: name(report.reporter_id),
            // Differenzler: the four places' figures from the reported sheet.
            reported: match kind.per_player() {
                true => kind.score_text(
                    report.points_a.get(),
                    report.points_b.get(),
                    report.tafel.as_deref(),
                ),
                false => score(report.points_a, report.points_b),
            },
            answer_by: report.answer_by.map(name).unwrap_or_default(),
            answer: match (report.answer_points_a, report.answer_points_b) {
                (Some(a), Some(b)) => score(a, b),
                _ => String::new(),
            },
            note: report.note.clone().unwrap_or_default(),
            version: report.version,
        });
    }
}

/// (entered, expected): tables with a final result among those that play (not the
/// Pauschale). A Tafel still being played is not entered yet.
pub fn progress(tables: &[TableView]) -> (usize, usize) {
    let expected = tables.iter().filter(|t| !t.pauschale).count();
    let entered = tables.iter().filter(|t| t.is_entered()).count();
    (entered, expected)
}

/// The table of a Standblatt line as printed: the number, "–" for a bye, empty otherwise.
pub fn table_cell(line: &crate::domain::standblatt::PasseLine) -> String {
    match line {
        crate::domain::standblatt::PasseLine::Spielfrei { .. } => "–".into(),
        other => other.table().map(|t| t.to_string()).unwrap_or_default(),
    }
}
