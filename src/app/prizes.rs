//! Gabentisch and Absenden: the prize list (Leitung), and the prize giving read out from
//! the official Rangliste, last prize first, one name per step (Leitung; mirrored on the
//! live page while it runs).

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{self, AuditEvent, TournamentAction};
use crate::db::models::TournamentRow;
use crate::db::tournament_data::{self, TournamentData};
use crate::db::types::Nat;
use crate::db::{Conn, prizes, tournaments, write_tx};
use crate::domain::category::same_name;
use crate::domain::form::FieldErrors;
use crate::domain::ids::TournamentId;
use crate::domain::prizes::{Award, PrizeForm, PrizeList, readout};
use crate::domain::role::{Actor, Permission};
use crate::domain::standblatt::{RanglisteKind, Section, rangliste};
use serde::Serialize;

/// What became of a prize list sent from the form.
pub enum Saved {
    Done,
    /// A line does not fit; nothing was written.
    Invalid(FieldErrors),
}

/// The Protokoll's view of a prize list: whose, and what it holds.
#[derive(Serialize)]
struct ListEntry<'a> {
    name: &'a str,
    #[serde(flatten)]
    list: &'a PrizeList,
}

pub fn list(conn: &mut Conn, id: TournamentId) -> Result<(TournamentRow, PrizeList), Refusal> {
    let t = guard::tournament(conn, id)?;
    let list = prizes::load(conn, &t)?;
    Ok((t, list))
}

/// Saves the prize list: allowed also on a closed tournament (the prizes are not results),
/// but not while the Absenden runs (the screen would change under the speaker).
pub fn save(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    form: &PrizeForm,
) -> Result<Saved, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::tournament(conn, id)?;
        if t.absenden_step.is_some() {
            return Err(Refusal::invalid(
                "Das Absenden läuft: die Preisliste lässt sich erst nach dem Beenden ändern.",
            ));
        }
        let numbers: std::collections::HashSet<u32> = crate::db::teams::list(conn, id)?
            .iter()
            .map(|team| team.startnummer.get())
            .collect();
        let categories: Vec<String> = crate::db::categories::load(conn, id)?
            .list
            .into_iter()
            .map(|c| c.name)
            .collect();
        let list = match PrizeList::parse(form, &|n| numbers.contains(&n), &categories) {
            Ok(list) => list,
            Err(errors) => return Ok(Saved::Invalid(errors)),
        };
        let before = prizes::load(conn, &t)?;
        tournaments::bump_version(conn, id)?;
        prizes::replace(conn, id, &list)?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Tournament(TournamentAction::Prizes),
                entity_id: Some(id.0),
            },
            Some(&ListEntry {
                name: &t.name,
                list: &before,
            }),
            Some(&ListEntry {
                name: &t.name,
                list: &list,
            }),
        )?;
        Ok(Saved::Done)
    })
}

/// A step of the Absenden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Start,
    Next,
    Back,
    Stop,
}

impl Move {
    pub fn parse(text: &str) -> Option<Move> {
        match text {
            "start" => Some(Move::Start),
            "next" => Some(Move::Next),
            "back" => Some(Move::Back),
            "stop" => Some(Move::Stop),
            _ => None,
        }
    }
}

/// The Absenden as it stands: every name in the order read out, and the one on screen.
#[derive(Debug, Clone)]
pub struct Absenden {
    pub awards: Vec<Award>,
    /// Index into `awards` of the name on screen.
    pub at: usize,
}

impl Absenden {
    pub fn current(&self) -> Option<&Award> {
        self.awards.get(self.at)
    }
    pub fn is_last(&self) -> bool {
        self.at + 1 >= self.awards.len()
    }
}

/// The ranked Startnummern of the official Rangliste, in order: what is read out.
pub fn official_order(data: &TournamentData) -> Vec<u32> {
    let sheets = data.standblaetter();
    rangliste(
        RanglisteKind::Offiziell,
        &sheets,
        data.tournament.wertung(),
        &|_| true,
        data.tournament.mode.facts().better,
    )
    .iter()
    .filter(|row| row.section == Section::Rangiert)
    .map(|row| row.sheet.startnummer)
    .collect()
}

/// Every name of the prize giving in the order it is read out.
pub fn awards(conn: &mut Conn, data: &TournamentData) -> Result<Vec<Award>, Refusal> {
    let list = prizes::load(conn, &data.tournament)?;
    let order = official_order(data);
    let winners = category_winners(data, &order);
    let winner = |name: &str| {
        winners
            .iter()
            .find(|(category, _)| same_name(category, name))
            .map(|(_, nr)| *nr)
    };
    Ok(readout(&list, &order, &winner))
}

/// Who gets an Urkunde: the first three places (prize or not), each category winner, each
/// special prize.
pub fn certificates(conn: &mut Conn, data: &TournamentData) -> Result<Vec<Award>, Refusal> {
    let order = official_order(data);
    let podium = order
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, &startnummer)| Award {
            title: None,
            place: Some(i + 1),
            startnummer,
            prize: String::new(),
        });
    let winners = category_winners(data, &order)
        .into_iter()
        .map(|(category, startnummer)| Award {
            title: Some(format!("1. Rang Kategorie {category}")),
            place: None,
            startnummer,
            prize: String::new(),
        });
    let special = awards(conn, data)?
        .into_iter()
        .filter(|a| a.title.is_some());
    Ok(podium.chain(winners).chain(special).collect())
}

/// Each category's winner (its best ranked member in `order`, the official Rangliste), for
/// the categories that have a ranked member.
pub fn category_winners(data: &TournamentData, order: &[u32]) -> Vec<(String, u32)> {
    let c = &data.categories;
    c.list
        .iter()
        .filter_map(|category| {
            let winner = order.iter().copied().find(|nr| {
                data.teams
                    .iter()
                    .find(|t| t.startnummer.get() == *nr)
                    .is_some_and(|t| c.is_member(t.id, category.id))
            })?;
            Some((category.name.clone(), winner))
        })
        .collect()
}

/// The Absenden under way, if it is (for the Absenden screen and the live page).
pub fn current(conn: &mut Conn, data: &TournamentData) -> Result<Option<Absenden>, Refusal> {
    let Some(step) = data.tournament.absenden_step else {
        return Ok(None);
    };
    let awards = awards(conn, data)?;
    let at = usize::try_from(step.get())
        .unwrap_or(usize::MAX)
        .saturating_sub(1)
        .min(awards.len().saturating_sub(1));
    Ok(Some(Absenden { awards, at }))
}

/// Moves the Absenden: only on the official Rangliste (a closed tournament). Start and
/// stop are in the Protokoll; a step only changes what the screens show.
pub fn step(conn: &mut Conn, actor: &Actor, id: TournamentId, to: Move) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let before = guard::tournament(conn, id)?;
        if !before.closed && to != Move::Stop {
            return Err(Refusal::invalid(
                "Abgesendet wird die offizielle Rangliste: zuerst das Turnier abschliessen.",
            ));
        }
        let data = tournament_data::load_row(conn, before.clone())?;
        let count = awards(conn, &data)?.len();
        let step = before.absenden_step.map(Nat::get);
        let next = match (to, step) {
            (Move::Start, _) if count == 0 => {
                return Err(Refusal::invalid(
                    "Keine Preise zu verlesen: zuerst die Preisliste erfassen.",
                ));
            }
            (Move::Start, _) => Some(1),
            (Move::Next, Some(s)) => Some((s + 1).min(u32::try_from(count).unwrap_or(u32::MAX))),
            (Move::Back, Some(s)) => Some(s.saturating_sub(1).max(1)),
            (Move::Stop, _) => None,
            (Move::Next | Move::Back, None) => {
                return Err(Refusal::invalid("Das Absenden läuft nicht."));
            }
        };
        tournaments::bump_version(conn, id)?;
        let after = prizes::set_step(conn, id, next.map(Nat::of).transpose()?)?;
        if matches!(to, Move::Start | Move::Stop) {
            audit::record(
                conn,
                Some(actor),
                audit::Entry {
                    tournament: Some(id),
                    event: AuditEvent::Tournament(TournamentAction::Absenden),
                    entity_id: Some(id.0),
                },
                Some(&before),
                Some(&after),
            )?;
        }
        Ok(())
    })
}
