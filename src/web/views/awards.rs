//! The prize giving's names as the Absenden screen, the live page and the prints show them.

use crate::app::prizes::Absenden;
use crate::db::tournament_data::TournamentData;
use crate::domain::prizes::Award;
use crate::domain::team::{display_name, players_line};
use crate::web::ranking::ranking_view;
use std::collections::HashMap;

/// One name of the prize giving, as screens and prints show it.
pub struct AwardView {
    /// "12. Rang", or the special prize's title.
    pub what: String,
    pub startnummer: u32,
    pub name: String,
    /// The players of a team (empty for a player).
    pub detail: String,
    pub prize: String,
    /// "3'712 Punkte" as in the official Rangliste.
    pub points: String,
    /// A special prize (not a place of the Rangliste).
    pub special: bool,
}

/// The awards with names and points from the official Rangliste.
pub fn award_views(data: &TournamentData, awards: &[Award]) -> Vec<AwardView> {
    let unit = data.tournament.mode.unit();
    let official: HashMap<u32, (Option<u32>, String)> = ranking_view(data, true)
        .iter()
        .flat_map(|s| &s.rows)
        .map(|r| (r.team.startnummer.get(), (r.rank, r.total_text())))
        .collect();
    let entrant = data.tournament.mode.entrant();
    awards
        .iter()
        .map(|a| {
            let team = data
                .teams
                .iter()
                .find(|t| t.startnummer.get() == a.startnummer);
            let (rank, total) = official.get(&a.startnummer).cloned().unwrap_or_default();
            AwardView {
                what: match (&a.title, rank) {
                    (Some(title), _) => title.clone(),
                    (None, Some(rank)) => format!("{rank}. Rang"),
                    (None, None) => String::new(),
                },
                startnummer: a.startnummer,
                name: team
                    .map(|t| display_name(t.name.as_deref(), &t.player1, &t.player2))
                    .unwrap_or_default(),
                detail: team
                    .filter(|t| t.name.as_deref().is_some_and(|n| !n.is_empty()))
                    .map(|t| players_line(entrant, &t.player1, &t.player2))
                    .unwrap_or_default(),
                prize: a.prize.clone(),
                points: format!("{total} {unit}"),
                special: a.title.is_some(),
            }
        })
        .collect()
}

/// The name on screen, "Preis 3 von 15", and whether it is the last (the winner).
pub fn screen(data: &TournamentData, absenden: &Absenden) -> (Option<AwardView>, String, bool) {
    let current = absenden.current().and_then(|a| {
        award_views(data, std::slice::from_ref(a))
            .into_iter()
            .next()
    });
    (
        current,
        format!("Preis {} von {}", absenden.at + 1, absenden.awards.len()),
        absenden.is_last(),
    )
}
