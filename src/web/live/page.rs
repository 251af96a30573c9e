//! The live page: the provisional (or official) Rangliste for the beamer and the phones,
//! with the current Passe's progress, the clock of a Spielrunde and the QR code to the
//! phone view.

use super::model::{LiveModel, RowModel, SectionModel};
use crate::app::prizes::Absenden;
use crate::db::Conn;
use crate::db::tournament_data::TournamentData;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::web::error::AppError;
use crate::web::ranking::{RowView, SectionView, ranking_view};
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
    model: &'a LiveModel,
    passen: Vec<u32>,
    section_titles: Vec<Option<&'static str>>,
    qr: String,
    phone_url: String,
    /// Without JavaScript a phone can still find its team: `?nr=12`.
    own: Option<&'a RowView>,
}

#[derive(Template)]
#[template(path = "live_row.html")]
struct LiveRow<'a> {
    r: &'a RowView,
    mode: &'a crate::domain::mode::Mode,
    shown_passen: usize,
}

/// The prize giving on the hall's screens while the Leitung reads it out.
#[derive(Template)]
#[template(path = "live_absenden.html")]
struct LiveAbsenden {
    a: crate::web::views::awards::AwardView,
    progress: String,
}

/// Each category's first three, under the podium (a tournament with categories only).
#[derive(Template)]
#[template(path = "live_categories.html")]
struct LiveCategories<'a> {
    categories: Vec<(String, Vec<(u32, &'a RowView)>)>,
}

#[derive(Template)]
#[template(path = "live_podium.html")]
struct LivePodium<'a> {
    top: Vec<&'a RowView>,
}

#[derive(Template)]
#[template(path = "live_clock.html")]
struct LiveClock<'a> {
    c: &'a ClockView,
}

/// The live page as data (see [`LiveModel`]), with the Rangliste it shows.
pub struct LiveView {
    pub model: LiveModel,
    pub sections: Vec<SectionView>,
}

/// The fragments a delta may replace, by element id.
fn parts(
    data: &TournamentData,
    sections: &[SectionView],
    clock: Option<&ClockView>,
    absenden: Option<&Absenden>,
) -> Result<Vec<(&'static str, String)>, AppError> {
    let t = &data.tournament;
    // Separate parts, so that an entered result sends the count alone.
    let progress = current_progress(data);
    let (passe, entered, running) = match &progress {
        Some(p) => (
            format!("{} {} von {}", t.mode.round(), p.passe, t.passen),
            format!("{} / {} Tische erfasst", p.entered, p.expected),
            match p.running {
                0 => String::new(),
                1 => "1 Tafel läuft (Striche provisorisch) · ".into(),
                n => format!("{n} Tafeln laufen (Striche provisorisch) · "),
            },
        ),
        None => Default::default(),
    };
    let top: Vec<&RowView> = sections
        .first()
        .filter(|s| s.ranked())
        .map(|s| s.rows.iter().take(3).collect())
        .unwrap_or_default();
    let podium = if top.is_empty() {
        String::new()
    } else {
        LivePodium { top }.render()?
    };
    let clock = match clock {
        Some(c) => LiveClock { c }.render()?,
        None => String::new(),
    };
    let ranked = crate::web::ranking::ranked_rows(sections);
    let categories: Vec<(String, Vec<(u32, &RowView)>)> =
        crate::web::ranking::category_rankings(data, sections)
            .into_iter()
            .map(|c| {
                let top = c
                    .members
                    .iter()
                    .take(3)
                    .map(|&(rank, i)| (rank, ranked[i]))
                    .collect();
                (c.name, top)
            })
            .filter(|(_, top): &(String, Vec<(u32, &RowView)>)| !top.is_empty())
            .collect();
    let category_box = match categories.is_empty() {
        true => String::new(),
        false => LiveCategories { categories }.render()?,
    };
    // The Streichresultat rule and the marks' legend, each followed by the dot that parts
    // it from the status colours.
    let marks: String = crate::web::ranking::notes(t, sections)
        .iter()
        .map(|note| format!("{} · ", note.trim_end_matches('.')))
        .collect();
    let prize_giving = match absenden {
        Some(a) => match crate::web::views::awards::screen(data, a) {
            (Some(a), progress, _) => LiveAbsenden { a, progress }.render()?,
            (None, _, _) => String::new(),
        },
        None => String::new(),
    };
    Ok(vec![
        ("current-passe", passe),
        ("live-progress", entered),
        ("running-tafeln", running),
        ("updated", format::date_time(crate::app::read::now())),
        ("clock-box", clock),
        ("podium-box", podium),
        ("legend-marks", marks),
        ("absenden-box", prize_giving),
        ("categories-box", category_box),
    ])
}

pub fn live_view(
    data: &TournamentData,
    clock: Option<&ClockView>,
    absenden: Option<&Absenden>,
) -> Result<LiveView, AppError> {
    let sections = ranking_view(data, data.tournament.closed);
    let t = &data.tournament;
    let shown_passen = data.current_passe() as usize;
    let mut model_sections = Vec::with_capacity(sections.len());
    for s in &sections {
        let mut rows = Vec::with_capacity(s.rows.len());
        for r in &s.rows {
            let cells = LiveRow {
                r,
                mode: &t.mode,
                shown_passen,
            }
            .render()?;
            rows.push(RowModel {
                nr: r.team.startnummer.get(),
                rank: r.rank_text(),
                cells: cells.trim_end().to_string(),
            });
        }
        model_sections.push(SectionModel {
            ranked: s.ranked(),
            rows,
        });
    }
    let titles: Vec<&str> = sections.iter().map(SectionView::title).collect();
    let model = LiveModel {
        version: t.version,
        frame: format!(
            "{}|{}|{}|{}|{}|{:?}",
            shown_passen,
            data.drawn_passen() > 0,
            t.passen,
            t.closed,
            titles.join(","),
            t.mode
        ),
        parts: parts(data, &sections, clock, absenden)?,
        sections: model_sections,
    };
    Ok(LiveView { model, sections })
}

pub(super) fn render(
    data: &TournamentData,
    view: &LiveView,
    base: &str,
    own_nr: Option<u32>,
) -> Result<String, AppError> {
    let own = own_nr.and_then(|nr| {
        view.sections
            .iter()
            .flat_map(|s| s.rows.iter())
            .find(|r| r.team.startnummer.get() == nr)
    });
    let phone_url = format!("{base}/tournaments/{}/live", data.tournament.id);
    let shown_passen = data.current_passe();
    Ok(LivePage {
        t: &data.tournament,
        model: &view.model,
        passen: (1..=shown_passen).collect(),
        section_titles: view
            .sections
            .iter()
            .map(|s| (!s.ranked()).then(|| s.title()))
            .collect(),
        qr: qr_svg(&phone_url),
        phone_url,
        own,
    }
    .render()?)
}

pub(super) type LiveData = (TournamentData, Option<ClockView>, Option<Absenden>);

pub(super) fn load_live(conn: &mut Conn, id: TournamentId) -> Result<LiveData, AppError> {
    let (data, clock) = crate::app::read::live(conn, id, |data| {
        current_progress(data).map(|p| p.passe).unwrap_or(1)
    })?;
    let clock = clock.map(|(rules, facts)| clock_view(&rules, facts.as_ref()));
    // The prize giving, while the Leitung reads it out.
    let absenden = crate::app::prizes::current(conn, &data)?;
    Ok((data, clock, absenden))
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
