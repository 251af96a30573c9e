//! The live page: the provisional (or official) Rangliste for the beamer and the phones,
//! with the current Passe's progress, the clock of a Spielrunde and the QR code to the
//! phone view.

use crate::db::tournament_data::TournamentData;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::web::error::AppError;
use crate::web::ranking::{SectionView, ranking_view};
use crate::web::views::{ClockView, clock_view, progress, table_views};
use askama::Template;

/// What the hall sees about one Passe: the one being played (the first with missing results).
pub struct Progress {
    pub passe: u32,
    pub entered: usize,
    pub expected: usize,
    /// Tafeln still being played: their Striche in the Rangliste are provisional.
    pub running: usize,
}

fn current_progress(data: &TournamentData) -> Option<Progress> {
    let drawn = data.drawn_passen();
    let all: Vec<Progress> = (1..=drawn)
        .map(|passe| {
            let tables = table_views(data, passe);
            let (entered, expected) = progress(&tables);
            Progress {
                passe,
                entered,
                expected,
                running: tables.iter().filter(|t| t.open_tafel).count(),
            }
        })
        .collect();
    let open = all.iter().position(|p| p.entered < p.expected);
    let index = open.unwrap_or(all.len().checked_sub(1)?);
    all.into_iter().nth(index)
}

/// The QR code of `text` as inline SVG (one path, crisp at any size).
pub fn qr_svg(text: &str) -> String {
    let Some((width, modules)) = crate::pdf::documents::qr_modules(text) else {
        return String::new();
    };
    let mut path = String::new();
    for (index, _) in modules.iter().enumerate().filter(|(_, dark)| **dark) {
        path += &format!("M{} {}h1v1h-1z", index % width + 4, index / width + 4);
    }
    let side = width + 8;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" role="img" aria-label="QR-Code zur Handy-Ansicht"><rect width="{side}" height="{side}" fill="#fff"/><path d="{path}" fill="#000"/></svg>"##
    )
}

#[derive(Template)]
#[template(path = "live.html")]
struct LivePage<'a> {
    t: &'a crate::db::models::TournamentRow,
    version: i32,
    progress: Option<Progress>,
    updated: String,
    passen: Vec<u32>,
    top: Vec<&'a crate::web::ranking::RowView>,
    sections: &'a [SectionView],
    qr: String,
    phone_url: String,
    /// Without JavaScript a phone can still find its team: `?nr=12`.
    own: Option<&'a crate::web::ranking::RowView>,
    /// Jassmarathon: the clock of the current Spielrunde.
    clock: Option<ClockView>,
    marks: bool,
    legend: &'static str,
    /// Passen shown as columns: those under way (no room spent on future Passen).
    shown_passen: usize,
}

impl LivePage<'_> {
    /// Changes of this string mark a row as updated in the browser.
    fn signature(row: &crate::web::ranking::RowView) -> String {
        format!(
            "{}|{}|{:?}|{}",
            row.total,
            row.status.key(),
            row.rank,
            row.passen_text().join(",")
        )
    }
}

pub(super) fn render(
    data: &TournamentData,
    base: &str,
    own_nr: Option<i32>,
    clock: Option<ClockView>,
) -> Result<String, AppError> {
    let sections = ranking_view(data, data.tournament.closed);
    let top: Vec<&crate::web::ranking::RowView> = sections
        .first()
        .filter(|s| s.ranked())
        .map(|s| s.rows.iter().take(3).collect())
        .unwrap_or_default();
    let own = own_nr.and_then(|nr| {
        sections
            .iter()
            .flat_map(|s| s.rows.iter())
            .find(|r| r.team.startnummer == nr)
    });
    let phone_url = format!("{base}/tournaments/{}/live", data.tournament.id);
    let shown_passen = data.current_passe() as usize;
    Ok(LivePage {
        t: &data.tournament,
        version: data.tournament.version,
        progress: current_progress(data),
        updated: format::date_time(crate::db::now()),
        passen: (1..=shown_passen as u32).collect(),
        shown_passen,
        top,
        sections: &sections,
        qr: qr_svg(&phone_url),
        phone_url,
        own,
        marks: crate::web::ranking::any_marks(&sections),
        legend: crate::web::ranking::MARKS_LEGEND,
        clock,
    }
    .render()?)
}

pub(super) enum Rendered {
    /// With a team highlighted (`?nr=`): for one viewer, not cached.
    Personal(String),
    Shared(super::hub::CachedPage),
}

pub(super) type LiveData = (TournamentData, Option<ClockView>);

pub(super) fn load_live(conn: &mut crate::db::Conn, id: i32) -> Result<LiveData, AppError> {
    let data = crate::app::guard::load(conn, TournamentId(id))?;
    let clock = if data.tournament.mode.has_clock() {
        let passe = current_progress(&data).map(|p| p.passe).unwrap_or(1);
        let rules = crate::db::marathon::rules(conn, TournamentId(id))?;
        let facts = crate::db::marathon::clock(conn, TournamentId(id), passe)?;
        Some(clock_view(&rules, facts.as_ref()))
    } else {
        None
    };
    Ok((data, clock))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qr_svg_has_dark_modules() {
        let svg = qr_svg("http://192.168.1.20:8080/tournaments/1/live");
        assert!(svg.starts_with("<svg") && svg.contains("h1v1h-1z"));
    }
}
