//! The Rangliste as PDF, CSV and JSON: public unless the Leitung hides the tournament,
//! served to anonymous visitors from the public cache (one rendering per version).

use super::auth::MaybeUser;
use super::ranking::{
    RankingQuery, RowView, SectionView, category_rankings, club_ranking, ensure_visible, notes,
    ranked_rows, ranking_view, served,
};
use super::state::AppState;
use crate::db::tournament_data::TournamentData;
use crate::domain::ids::TournamentId;
use crate::domain::streichresultat::Wertung;
use crate::pdf::documents::{self, ClubSection, RankRow, RankSection, SealBlock};
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use serde::Serialize;

use super::prints::{download_name, excel_csv, file, header, load, made, pdf, round_label};

/// A public Rangliste export: the tournament if visible, and whether the Rangliste is
/// official (closed, or the official preview was asked for).
async fn public_ranking(
    state: &web::Data<AppState>,
    user: &MaybeUser,
    id: TournamentId,
    query: &RankingQuery,
) -> Result<(TournamentData, bool), AppError> {
    let data = load(state, id).await?;
    ensure_visible(&data, user)?;
    let official = data.tournament.closed || query.official.is_some();
    Ok((data, official))
}

async fn ranking_pdf(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<TournamentId>,
    query: web::Query<RankingQuery>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let base = super::hall::phone_base(&state, &req);
    served(&state, &user, id, "pdf", &query, || {
        make_ranking_pdf(&state, &user, id, &query, &base)
    })
    .await
}

/// The seal printed under an official Rangliste: this instance's signature of the
/// tournament's report as it stands, and the QR code to check it.
async fn seal_block(
    state: &web::Data<AppState>,
    id: TournamentId,
    base: &str,
) -> Result<SealBlock, AppError> {
    let s = super::state::db(state, move |conn| {
        Ok(crate::app::reports::printed_seal(conn, id)?)
    })
    .await?;
    Ok(SealBlock {
        lines: vec![
            format!("Unterschrieben von «{}»", s.hall),
            format!("Fingerabdruck {} · Stand {}", s.fingerprint, s.revision),
            format!("Prüfsumme {}…", &s.digest[..16.min(s.digest.len())]),
            "Echtheit prüfen: QR-Code scannen".to_string(),
        ],
        url: format!(
            "{}/pruefen?bericht={}&stand={}&pruefsumme={}",
            base.trim_end_matches('/'),
            s.uuid,
            s.revision,
            // Half the digest (128 bits) keeps the printed code coarse enough for any phone.
            &s.digest[..32.min(s.digest.len())]
        ),
    })
}

async fn make_ranking_pdf(
    state: &web::Data<AppState>,
    user: &MaybeUser,
    id: TournamentId,
    query: &RankingQuery,
    base: &str,
) -> Result<HttpResponse, AppError> {
    let (data, official) = public_ranking(state, user, id, query).await?;
    let seal = match data.tournament.closed {
        true => Some(seal_block(state, id, base).await?),
        false => None,
    };
    let view = ranking_view(&data, official);
    let notes = notes(&data.tournament, &view);
    let clubs = club_ranking(&data.tournament, &view).map(|(rule, clubs)| ClubSection {
        rule,
        rows: clubs
            .into_iter()
            .map(|c| [format!("{}.", c.rank), c.club, c.total, c.counted])
            .collect(),
    });
    let players = data.tournament.mode.draws_players();
    let line = |r: &RowView, rank: String, tie: Option<String>| RankRow {
        rank,
        startnummer: r.team.startnummer.get(),
        team: match &r.team.name {
            Some(name) if players => name.clone(),
            Some(name) => format!("{name} · {}", r.players()),
            None => r.players(),
        },
        rounds: r.passen_text(),
        struck: r.struck.clone(),
        total: r.total_text(),
        tie,
    };
    let mut sections: Vec<RankSection> = view
        .iter()
        .map(|s| RankSection {
            title: (!s.ranked()).then(|| s.title().to_string()),
            rows: s
                .rows
                .iter()
                .map(|r| line(r, r.rank_text(), r.tie.clone()))
                .collect(),
        })
        .collect();
    // One section per category, ranked within it.
    let ranked = ranked_rows(&view);
    sections.extend(category_rankings(&data, &view).into_iter().map(|c| {
        RankSection {
            title: Some(format!("Kategorie {}", c.name)),
            rows: c
                .members
                .iter()
                .map(|&(rank, i)| line(ranked[i], format!("{rank}."), None))
                .collect(),
        }
    }));
    let provisional = !data.tournament.closed;
    let header = header(
        &data,
        if official {
            "Rangliste".into()
        } else {
            "Rangliste (Zwischenstand)".into()
        },
    );
    let (label, rounds) = (round_label(&data), data.tournament.passen.get());
    let bytes = made(move || {
        documents::rangliste(
            header,
            provisional,
            label,
            rounds,
            &sections,
            clubs.as_ref(),
            &notes,
            seal.as_ref(),
        )
    })
    .await?;
    let name = download_name(
        &data,
        &["Rangliste", if official { "" } else { "Zwischenstand" }],
        "pdf",
    );
    Ok(pdf(bytes, &name))
}

fn ranking_rows(sections: &[SectionView]) -> impl Iterator<Item = &RowView> {
    sections.iter().flat_map(|s| &s.rows)
}

async fn ranking_csv(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<TournamentId>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    served(&state, &user, id, "csv", &query, || {
        make_ranking_csv(&state, &user, id, &query)
    })
    .await
}

async fn make_ranking_csv(
    state: &web::Data<AppState>,
    user: &MaybeUser,
    id: TournamentId,
    query: &RankingQuery,
) -> Result<HttpResponse, AppError> {
    let (data, official) = public_ranking(state, user, id, query).await?;
    let sections = ranking_view(&data, official);
    let rounds = data.tournament.passen.get();
    // Einzelschieber: one player per line, his Name and Vorname (as in the import file).
    let players = data.tournament.mode.draws_players();
    let mut header: Vec<String> = match players {
        true => vec!["rang", "startnummer", "name", "vorname"],
        false => vec!["rang", "startnummer", "team", "spieler1", "spieler2"],
    }
    .into_iter()
    .map(String::from)
    .collect();
    let round = data.tournament.mode.round().to_lowercase();
    header.extend((1..=rounds).map(|p| format!("{round}_{p}")));
    header.extend((1..=rounds).map(|p| format!("{round}_{p}_art")));
    // Only under a Streichresultat: without one the file stays as it always was.
    let streich = data.tournament.wertung() != Wertung::Alle;
    if streich {
        header.extend((1..=rounds).map(|p| format!("{round}_{p}_gestrichen")));
    }
    header.extend(["total".to_string(), "status".to_string()]);
    // Only with categories: without them the file stays as it always was.
    let categorised = !data.categories.list.is_empty();
    if categorised {
        header.push("kategorien".into());
    }
    let mode = data.tournament.mode;
    let rows = ranking_rows(&sections)
        .map(|r| {
            let mut row = vec![
                r.rank.map(|x| x.to_string()).unwrap_or_default(),
                r.team.startnummer.to_string(),
            ];
            if !players {
                row.push(r.team.name.clone().unwrap_or_default());
            }
            row.extend([r.team.player1.clone(), r.team.player2.clone()]);
            row.extend(
                r.scores
                    .iter()
                    .map(|s| s.map(|s| s.points.to_string()).unwrap_or_default()),
            );
            row.extend(
                r.scores
                    .iter()
                    .map(|s| s.map(|s| s.kind.label().to_string()).unwrap_or_default()),
            );
            if streich {
                row.extend(
                    r.struck
                        .iter()
                        .map(|&s| if s { "ja" } else { "" }.to_string()),
                );
            }
            row.extend([r.total.to_string(), r.status.label(mode)]);
            if categorised {
                row.push(data.categories.names_of(r.team.id).join(", "));
            }
            row
        })
        .collect();
    Ok(file(
        excel_csv(header, rows)?,
        "text/csv; charset=utf-8",
        &download_name(&data, &["Rangliste"], "csv"),
    ))
}

#[derive(Serialize)]
struct RankingJson<'a> {
    tournament: &'a str,
    date: String,
    location: &'a str,
    mode: &'a str,
    official: bool,
    /// The official Rangliste asked for while the tournament is still open: a preview.
    preview: bool,
    /// In words: "offiziell", "Vorschau (Turnier offen)" or "provisorisch".
    kind: &'static str,
    rounds: u32,
    /// Streichresultat: only the best this many rounds count (absent: all).
    #[serde(skip_serializing_if = "Option::is_none")]
    counted_best: Option<u32>,
    /// The rule in words, as under the Rangliste.
    #[serde(skip_serializing_if = "Option::is_none")]
    counted_rule: Option<String>,
    teams: Vec<TeamJson<'a>>,
    /// The Vereinswertung, when the tournament has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    clubs: Option<Vec<ClubJson>>,
    /// Each category's Rangliste, when the tournament has categories.
    #[serde(skip_serializing_if = "Option::is_none")]
    categories: Option<Vec<CategoryJson>>,
}

#[derive(Serialize)]
struct CategoryJson {
    name: String,
    /// Rank within the category and Startnummer, in order.
    teams: Vec<CategoryMemberJson>,
}

#[derive(Serialize)]
struct CategoryMemberJson {
    rank: u32,
    startnummer: u32,
}

#[derive(Serialize)]
struct ClubJson {
    rank: u32,
    club: String,
    total: u64,
    /// The Startnummern of the teams that counted, best first.
    counted: Vec<u32>,
}

/// Who a line of the Rangliste is: a team and its two players, or (Einzelschieber) one
/// player by Name and Vorname, never as two players.
#[derive(Serialize)]
#[serde(untagged)]
enum WhoJson<'a> {
    Team {
        team: Option<&'a str>,
        player1: &'a str,
        player2: &'a str,
    },
    Player {
        name: &'a str,
        vorname: &'a str,
    },
}

#[derive(Serialize)]
struct TeamJson<'a> {
    rank: Option<u32>,
    startnummer: u32,
    #[serde(flatten)]
    who: WhoJson<'a>,
    /// Points per Passe that count in this Rangliste (null: none yet).
    rounds: Vec<Option<u32>>,
    /// Per Passe: "gespielt", "pauschale" or "spielfrei" (null: no points).
    round_kinds: Vec<Option<&'static str>>,
    /// Under a Streichresultat: per round, struck (true) or counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    struck: Option<Vec<bool>>,
    /// The counted total.
    total: u32,
    /// Stable key: resultate_fehlen, erfasst, visiert, endvisum, nicht_bewertet,
    /// disqualifiziert, zurueckgezogen.
    status: &'static str,
    /// The same status in the words of the page.
    status_label: String,
}

async fn ranking_json(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<TournamentId>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    served(&state, &user, id, "json", &query, || {
        make_ranking_json(&state, &user, id, &query)
    })
    .await
}

async fn make_ranking_json(
    state: &web::Data<AppState>,
    user: &MaybeUser,
    id: TournamentId,
    query: &RankingQuery,
) -> Result<HttpResponse, AppError> {
    let (data, official) = public_ranking(state, user, id, query).await?;
    let sections = ranking_view(&data, official);
    let t = &data.tournament;
    let body = RankingJson {
        tournament: &t.name,
        date: t.date.format("%Y-%m-%d").to_string(),
        location: &t.location,
        mode: t.mode.key(),
        official,
        preview: official && !t.closed,
        kind: match (official, t.closed) {
            (true, true) => "offiziell",
            (true, false) => "Vorschau (Turnier offen)",
            (false, _) => "provisorisch",
        },
        rounds: t.passen.get(),
        counted_best: match t.wertung() {
            Wertung::Beste(k) => Some(k),
            Wertung::Alle => None,
        },
        counted_rule: t.wertung().text(t.passen.get(), t.mode.rounds()),
        categories: (!data.categories.list.is_empty()).then(|| {
            let ranked = ranked_rows(&sections);
            category_rankings(&data, &sections)
                .into_iter()
                .map(|c| CategoryJson {
                    name: c.name,
                    teams: c
                        .members
                        .iter()
                        .map(|&(rank, i)| CategoryMemberJson {
                            rank,
                            startnummer: ranked[i].team.startnummer.get(),
                        })
                        .collect(),
                })
                .collect()
        }),
        clubs: club_ranking(t, &sections).map(|(_, clubs)| {
            clubs
                .into_iter()
                .map(|c| ClubJson {
                    rank: c.rank,
                    club: c.club,
                    total: c.points,
                    counted: c.startnummern,
                })
                .collect()
        }),
        teams: ranking_rows(&sections)
            .map(|r| TeamJson {
                rank: r.rank,
                startnummer: r.team.startnummer.get(),
                who: match t.mode.draws_players() {
                    true => WhoJson::Player {
                        name: &r.team.player1,
                        vorname: &r.team.player2,
                    },
                    false => WhoJson::Team {
                        team: r.team.name.as_deref(),
                        player1: &r.team.player1,
                        player2: &r.team.player2,
                    },
                },
                rounds: r.scores.iter().map(|s| s.map(|s| s.points)).collect(),
                round_kinds: r.scores.iter().map(|s| s.map(|s| s.kind.key())).collect(),
                struck: (t.wertung() != Wertung::Alle).then(|| r.struck.clone()),
                total: r.total,
                status: r.status.key(),
                status_label: r.status.label(t.mode),
            })
            .collect(),
    };
    Ok(HttpResponse::Ok()
        .insert_header(("Access-Control-Allow-Origin", "*"))
        .json(body))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/ranking.pdf", web::get().to(ranking_pdf))
        .route("/tournaments/{id}/ranking.csv", web::get().to(ranking_csv))
        .route(
            "/tournaments/{id}/ranking.json",
            web::get().to(ranking_json),
        );
}
