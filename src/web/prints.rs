//! Prints and exports of the office: Standblätter, Tischliste, Wer sitzt wo, Start-/Losliste,
//! Jasszettel and the results as CSV (login); the parts every document needs (header, file
//! name, the documents thread). The public Rangliste exports are in `ranking_exports`.

use super::auth::User;
use super::hall::phone_base;
use super::state::{AppState, db};
use super::team_page::team_page_path;
use super::views::{opponents_cell, seat_cells, side_label, table_cell, team_label};
use crate::app::guard;
use crate::app::read;
use crate::db::tournament_data::TournamentData;
use crate::domain::collation;
use crate::domain::differenzler::TableSheet;
use crate::domain::format;
use crate::domain::ids::{RoundNo, TeamId, TournamentId};
use crate::domain::mode::POINTS_PER_SPIEL;
use crate::domain::standblatt::PasseLine;
use crate::domain::table_code;
use crate::domain::team::{display_name, players_line};
use crate::pdf::Header;
use crate::pdf::documents::{
    self, SeatEntry, Sheet, SheetLine, SheetTable, StartEntry, TableEntry,
};
use crate::web::error::AppError;
use actix_web::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::collections::HashMap;

pub(super) fn round_label(data: &TournamentData) -> &'static str {
    data.tournament.mode.round()
}

/// What the numbers of a round are: Punkte, or Striche.
pub(super) fn unit_label(data: &TournamentData) -> &'static str {
    data.tournament.mode.unit()
}

pub(super) fn header(data: &TournamentData, subtitle: String) -> Header {
    let t = &data.tournament;
    let place = if t.location.is_empty() {
        String::new()
    } else {
        format!(", {}", t.location)
    };
    Header {
        title: t.name.clone(),
        subtitle,
        footer: format!(
            "{}{} · gedruckt {}",
            format::date(t.date),
            place,
            format::date_time(read::now())
        ),
    }
}

pub(super) fn file(bytes: Vec<u8>, content_type: &str, name: &str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, content_type))
        .insert_header((CONTENT_DISPOSITION, format!("inline; filename=\"{name}\"")))
        .body(bytes)
}

/// A document made on the documents thread (see [`crate::pdf::render`]).
pub(super) async fn made<T: Send + 'static>(
    make: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    crate::pdf::render(make)
        .await
        .ok_or_else(|| AppError::Internal("the documents thread is gone".into()))
}

pub(super) fn pdf(bytes: Vec<u8>, name: &str) -> HttpResponse {
    file(bytes, "application/pdf", name)
}

/// The file name a document of this tournament downloads under: what it is, then the
/// tournament ("Tischliste_Passe-2_Herbstturnier-Zuerich.pdf").
pub(super) fn download_name(data: &TournamentData, what: &[&str], extension: &str) -> String {
    let mut parts = what.to_vec();
    parts.push(&data.tournament.name);
    format::file_name(&parts, extension)
}

pub(super) async fn load(
    state: &web::Data<AppState>,
    id: TournamentId,
) -> Result<TournamentData, AppError> {
    db(state, move |conn| Ok(guard::load(conn, id)?)).await
}

#[derive(Deserialize)]
struct SheetQuery {
    /// `leer` prints the schedule only, for the start of the tournament.
    variant: Option<String>,
    /// Part N of a big field (see [`SHEETS_PER_PDF`]).
    teil: Option<usize>,
}

/// Standblätter per PDF: a document is built in memory, so a field of 5000 teams is printed
/// in parts (about 80 MB at most while one part is made, one part at a time).
pub const SHEETS_PER_PDF: usize = 1000;

/// The parts a field's Standblätter are printed in (1 for up to [`SHEETS_PER_PDF`] teams).
pub fn sheet_parts(teams: usize) -> usize {
    teams.div_ceil(SHEETS_PER_PDF).max(1)
}

/// The Standblätter of the teams `keep` chooses (by position in the list and id).
fn sheets(
    data: &TournamentData,
    base: &str,
    blank: bool,
    codes: &HashMap<TeamId, String>,
    keep: impl Fn(usize, TeamId) -> bool,
) -> Vec<Sheet> {
    let standblaetter = data.standblaetter();
    let player = data.tournament.mode.draws_players();
    let rule = super::standblatt::SheetRule::of(data);
    let note = super::ranking::wertung_note(&data.tournament);
    data.teams
        .iter()
        .zip(&standblaetter)
        .enumerate()
        .filter(|(index, (team, _))| keep(*index, team.id))
        .map(|(_, pair)| pair)
        .map(|(team, sheet)| (team, sheet, rule.coming(sheet), rule.struck(sheet)))
        .map(|(team, sheet, coming, struck)| Sheet {
            startnummer: team.startnummer.get(),
            team: crate::domain::team::display_name(
                team.name.as_deref(),
                &team.player1,
                &team.player2,
            ),
            players: players_line(data.tournament.mode.entrant(), &team.player1, &team.player2),
            club: [team.club.clone(), team.place.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
            los: team.los.map(|l| l.to_string()).unwrap_or_default(),
            url: data.tournament.public.then(|| {
                format!(
                    "{base}{}",
                    team_page_path(data.tournament.id.0, team.startnummer.get())
                )
            }),
            lines: sheet
                .lines
                .iter()
                .enumerate()
                .map(|(index, line)| {
                    let (points, visa) = match line {
                        // The kind goes to the wide visa column (a Pauschale needs no visa),
                        // so the points column keeps its size and nothing is cut.
                        PasseLine::Spielfrei { points } => {
                            (format::number(i64::from(*points)), "spielfrei".to_string())
                        }
                        PasseLine::Pauschale { points, .. } if !blank => {
                            (format::number(i64::from(*points)), "Pauschale".to_string())
                        }
                        PasseLine::Gespielt { points, visa, .. } if !blank => (
                            format::number(i64::from(*points)),
                            visa.as_ref()
                                .map(|v| format!("{} {}", v.by, v.at.format("%H:%M")))
                                .unwrap_or_default(),
                        ),
                        _ => (String::new(), String::new()),
                    };
                    let passe = index as u32 + 1;
                    // Shown, but counted in the total only once its Passe is under way.
                    let visa = match coming.contains(&passe) {
                        true => format!("{visa}, zählt ab {} {passe}", round_label(data)),
                        false => visa,
                    };
                    let (seat, partner) = seat_cells(data, passe, team.id);
                    SheetLine {
                        round: passe,
                        table: table_cell(line),
                        seat,
                        partner,
                        // Both opponents, one per line of the cell.
                        opponent: opponents_cell(data, passe, team.id, line, "\n"),
                        struck: !blank && struck.contains(&passe),
                        points,
                        visa,
                    }
                })
                .collect(),
            total: if blank {
                String::new()
            } else {
                format::number(i64::from(rule.total(sheet)))
            },
            rule: note.clone(),
            final_visa: match (&sheet.final_visa, blank) {
                (Some(v), false) => format!("{} {}", v.by, v.at.format("%H:%M")),
                _ => String::new(),
            },
            player,
            pairs: data.tournament.mode.plays_in_pairs(),
            table_code: codes.get(&team.id).map(|c| table_code::printed(c)),
        })
        .collect()
}

/// The teams' codes for results from the table, while it is on (else none is printed).
async fn printed_codes(
    state: &web::Data<AppState>,
    id: TournamentId,
) -> Result<HashMap<TeamId, String>, AppError> {
    db(state, move |conn| Ok(read::printed_codes(conn, id)?)).await
}

async fn standblaetter(
    state: web::Data<AppState>,
    req: HttpRequest,
    _user: User,
    path: web::Path<TournamentId>,
    query: web::Query<SheetQuery>,
) -> Result<HttpResponse, AppError> {
    let data = load(&state, path.into_inner()).await?;
    let codes = printed_codes(&state, data.tournament.id).await?;
    let blank = query.variant.as_deref() == Some("leer");
    let parts = sheet_parts(data.teams.len());
    let part = match query.teil {
        None if parts == 1 => 1,
        Some(part) if (1..=parts).contains(&part) => part,
        _ => {
            return Err(AppError::BadRequest(format!(
                "Die Standblätter von {} Teams werden in {parts} Teilen zu höchstens {} gedruckt: \
                 bitte Teil 1 bis {parts} wählen (Turnierseite, «Drucken und Exporte»).",
                format::count(data.teams.len()),
                format::count(SHEETS_PER_PDF),
            )));
        }
    };
    let chosen = (part - 1) * SHEETS_PER_PDF..part * SHEETS_PER_PDF;
    let base = phone_base(&state, &req);
    let subtitle = if parts > 1 {
        format!("Standblätter, Teil {part} von {parts}")
    } else {
        "Standblätter".into()
    };
    let header = header(&data, subtitle);
    let (label, unit) = (round_label(&data), unit_label(&data));
    let part_word = format!("Teil {part}");
    let name = download_name(
        &data,
        &[
            "Standblaetter",
            if blank { "leer" } else { "" },
            if parts > 1 { &part_word } else { "" },
        ],
        "pdf",
    );
    // The sheets too are made on the documents thread, and the tournament dropped there, so
    // that their memory is given back with the document's.
    let bytes = made(move || {
        let sheets = sheets(&data, &base, blank, &codes, |index, _| {
            chosen.contains(&index)
        });
        drop(data);
        documents::standblaetter(header, label, unit, &sheets)
    })
    .await?;
    Ok(pdf(bytes, &name))
}

async fn standblatt(
    state: web::Data<AppState>,
    req: HttpRequest,
    _user: User,
    path: web::Path<(TournamentId, TeamId)>,
    query: web::Query<SheetQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, team) = path.into_inner();
    let data = load(&state, id).await?;
    data.team(team).ok_or_else(AppError::not_found)?;
    let codes = printed_codes(&state, data.tournament.id).await?;
    let blank = query.variant.as_deref() == Some("leer");
    let sheets = sheets(&data, &phone_base(&state, &req), blank, &codes, |_, id| {
        id == team
    });
    let startnummer = data
        .team(team)
        .map(|t| format!("Standblatt {}", t.startnummer))
        .unwrap_or_default();
    Ok(pdf(
        documents::standblaetter(
            header(&data, "Standblatt".into()),
            round_label(&data),
            unit_label(&data),
            &sheets,
        ),
        &download_name(&data, &[&startnummer], "pdf"),
    ))
}

pub(super) fn table_entries(
    data: &TournamentData,
    passe: u32,
) -> Result<Vec<TableEntry>, AppError> {
    if passe == 0 || passe > data.drawn_passen() {
        return Err(AppError::NotFound(format!(
            "{} {passe} ist nicht ausgelost.",
            round_label(data)
        )));
    }
    Ok(data
        .tables(passe)
        .iter()
        .map(|t| TableEntry {
            number: t.number,
            team_a: side_label(data, passe, t.team_a, true),
            team_b: side_label(data, passe, t.team_b, true),
            played: !data.table_has_left(passe, t),
        })
        .collect())
}

/// The tables of a Passe that are played: a sheet for each (none where somebody has left).
pub(super) fn tables_to_play(
    data: &TournamentData,
    passe: u32,
) -> Result<Vec<TableEntry>, AppError> {
    let mut tables = table_entries(data, passe)?;
    tables.retain(|t| t.played);
    if tables.is_empty() {
        return Err(AppError::NotFound(format!(
            "In {} {passe} wird an keinem Tisch gespielt.",
            round_label(data)
        )));
    }
    Ok(tables)
}

async fn tischliste(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let data = load(&state, id).await?;
    let tables = table_entries(&data, passe)?;
    let byes: Vec<String> = data.byes(passe).into_iter().map(team_label).collect();
    let round = format!("{} {passe}", round_label(&data));
    Ok(pdf(
        documents::tischliste(
            header(&data, format!("Tischliste {round}")),
            &round,
            data.tournament.mode,
            &tables,
            &byes,
        ),
        &download_name(&data, &["Tischliste", &round], "pdf"),
    ))
}

/// "Wer sitzt wo" of a Passe, by Startnummer (default) or `?order=name`.
async fn seating(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<(TournamentId, RoundNo)>,
    query: web::Query<StartlisteQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let data = load(&state, id).await?;
    table_entries(&data, passe)?;
    let mut seats: Vec<SeatEntry> = Vec::with_capacity(data.teams.len());
    for t in data.tables(passe) {
        let has_left = data.table_has_left(passe, &t);
        for team in data
            .side(passe, t.team_a)
            .into_iter()
            .chain(data.side(passe, t.team_b))
        {
            let seat = data.seat(passe, team.id).and_then(|s| s.position);
            seats.push(SeatEntry {
                startnummer: team.startnummer.get(),
                team: display_name(team.name.as_deref(), &team.player1, &team.player2),
                table: match (team.left_mark(passe, has_left), seat) {
                    (Some(mark), _) => mark.into(),
                    (None, Some(sitz)) => {
                        format!("{} {}", t.number, sitz.name_in(data.tournament.mode))
                    }
                    (None, None) => t.number.to_string(),
                },
            });
        }
    }
    for team in data.byes(passe) {
        seats.push(SeatEntry {
            startnummer: team.startnummer.get(),
            team: display_name(team.name.as_deref(), &team.player1, &team.player2),
            table: "spielfrei".into(),
        });
    }
    let by_name = query.order.as_deref() == Some("name");
    if by_name {
        seats.sort_by(|a, b| {
            collation::compare(&a.team, &b.team).then(a.startnummer.cmp(&b.startnummer))
        });
    } else {
        seats.sort_by_key(|s| s.startnummer);
    }
    let title = format!(
        "Wer sitzt wo · {} {passe} · nach {}",
        round_label(&data),
        if by_name { "Name" } else { "Startnummer" }
    );
    Ok(pdf(
        documents::seating_list(
            header(&data, title.clone()),
            &title,
            data.tournament.mode,
            &seats,
        ),
        &download_name(
            &data,
            &[
                "Wer sitzt wo",
                &format!("{} {passe}", round_label(&data)),
                if by_name { "nach Name" } else { "" },
            ],
            "pdf",
        ),
    ))
}

async fn jasszettel(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let data = load(&state, id).await?;
    if !data.tournament.mode.has_jasszettel() {
        return Err(AppError::NotFound(format!(
            "Im {} wird auf der Tafel geschrieben: Jasszettel gibt es hier nicht.",
            data.tournament.mode.label()
        )));
    }
    let tables = tables_to_play(&data, passe)?;
    let spiele = data.spiele();
    let total = format::number(i64::from(spiele * POINTS_PER_SPIEL));
    Ok(pdf(
        documents::jasszettel(
            header(&data, format!("Jasszettel Passe {passe}")),
            passe,
            spiele,
            &total,
            data.tournament.mode.entrant(),
            &tables,
        ),
        &download_name(&data, &["Jasszettel", &format!("Passe {passe}")], "pdf"),
    ))
}

/// The Differenzler's Schätzzettel of a Passe: one page per table played, with what was
/// typed where the table is entered.
async fn schaetzzettel(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let data = load(&state, id).await?;
    if !data.tournament.mode.has_schaetzzettel() {
        return Err(AppError::NotFound(format!(
            "Schätzzettel gibt es im Differenzler, nicht im {}.",
            data.tournament.mode.label()
        )));
    }
    let played: Vec<u32> = tables_to_play(&data, passe)?
        .iter()
        .map(|t| t.number)
        .collect();
    let tables: Vec<SheetTable> = data
        .tables(passe)
        .iter()
        .filter(|t| played.contains(&t.number))
        .filter_map(|t| {
            let four = data.foursome(passe, t)?;
            let sheet = data
                .result_at(passe, t.number)
                .and_then(|r| TableSheet::parse(r.details.as_deref()));
            Some(SheetTable {
                number: t.number,
                names: four.map(team_label),
                differenzen: sheet.as_ref().map(|s| s.differenzen),
                lines: sheet.map(|s| s.spiele).unwrap_or_default(),
            })
        })
        .collect();
    let sums: Vec<String> = data
        .differenzler
        .options
        .allowed_sums()
        .iter()
        .map(|s| s.to_string())
        .collect();
    Ok(pdf(
        documents::schaetzzettel(
            header(&data, format!("Schätzzettel Passe {passe}")),
            passe,
            data.spiele(),
            &sums.join(" oder "),
            &tables,
        ),
        &download_name(&data, &["Schätzzettel", &format!("Passe {passe}")], "pdf"),
    ))
}

#[derive(Deserialize)]
struct StartlisteQuery {
    order: Option<String>,
}

async fn startliste(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<TournamentId>,
    query: web::Query<StartlisteQuery>,
) -> Result<HttpResponse, AppError> {
    let data = load(&state, path.into_inner()).await?;
    let by_los = query.order.as_deref() == Some("los");
    let mut teams: Vec<&crate::db::models::TeamRow> = data.teams.iter().collect();
    if by_los {
        // Without a Los last.
        teams.sort_by_key(|t| (t.los.is_none(), t.los, t.startnummer));
    }
    let entries: Vec<StartEntry> = teams
        .iter()
        .map(|t| StartEntry {
            los: t.los.map(|l| l.to_string()).unwrap_or_default(),
            startnummer: t.startnummer.get(),
            team: t.name.clone().unwrap_or_default(),
            players: players_line(data.tournament.mode.entrant(), &t.player1, &t.player2),
            club: [t.club.clone(), t.place.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect();
    let title = if by_los { "Losliste" } else { "Startliste" };
    Ok(pdf(
        documents::startliste(
            header(&data, title.into()),
            title,
            data.tournament.mode.entrant(),
            &entries,
        ),
        &download_name(&data, &[title], "pdf"),
    ))
}

/// A cell that a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, tab, CR at the
/// start: a team called `=HYPERLINK(…)`) is written with a leading `'`, so that Excel shows
/// it as text.
pub(super) fn neutral_cell(cell: String) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// CSV for Excel on Swiss Windows: UTF-8 with BOM, `;`, no cell read as a formula.
pub(super) fn excel_csv(header: Vec<String>, rows: Vec<Vec<String>>) -> Result<Vec<u8>, AppError> {
    let mut out = b"\xEF\xBB\xBF".to_vec();
    {
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(csv::Terminator::CRLF)
            .from_writer(&mut out);
        writer
            .write_record(&header)
            .map_err(|e| AppError::Internal(e.to_string()))?;
        for row in rows {
            writer
                .write_record(row.into_iter().map(neutral_cell))
                .map_err(|e| AppError::Internal(e.to_string()))?;
        }
        writer.flush()?;
    }
    Ok(out)
}

/// All results in the import format, so a tournament's results round-trip.
async fn results_csv(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let data = load(&state, path.into_inner()).await?;
    // From the Standblätter, so that a Pauschale or bye is there with its kind (and a
    // result replaced by a Pauschale is not); the import skips all but `gespielt`.
    let sheets = data.standblaetter();
    let mut lines: Vec<(u32, u32, Vec<String>)> = Vec::with_capacity(data.results.len() * 2);
    for (team, sheet) in data.teams.iter().zip(&sheets) {
        for (passe, line) in (1u32..).zip(&sheet.lines) {
            if let Some(score) = line.score() {
                lines.push((
                    passe,
                    team.startnummer.get(),
                    vec![
                        passe.to_string(),
                        team.startnummer.to_string(),
                        score.points.to_string(),
                        score.kind.key().to_string(),
                    ],
                ));
            }
        }
    }
    lines.sort_by_key(|(passe, startnummer, _)| (*passe, *startnummer));
    let rows = lines.into_iter().map(|(_, _, row)| row).collect();
    let mode = data.tournament.mode;
    let header = vec![
        mode.round().to_lowercase(),
        "startnummer".into(),
        mode.unit().to_lowercase(),
        "art".into(),
    ];
    Ok(file(
        excel_csv(header, rows)?,
        "text/csv; charset=utf-8",
        &download_name(&data, &["Resultate"], "csv"),
    ))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/standblaetter.pdf",
        web::get().to(standblaetter),
    )
    .route(
        "/tournaments/{id}/teams/{team}/standblatt.pdf",
        web::get().to(standblatt),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/wer-sitzt-wo.pdf",
        web::get().to(seating),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/tischliste.pdf",
        web::get().to(tischliste),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/jasszettel.pdf",
        web::get().to(jasszettel),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/schaetzzettel.pdf",
        web::get().to(schaetzzettel),
    )
    .route(
        "/tournaments/{id}/startliste.pdf",
        web::get().to(startliste),
    )
    .route("/tournaments/{id}/results.csv", web::get().to(results_csv));
}
