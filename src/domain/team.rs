//! Teams: fixed pairs of players with a stable Startnummer.

use super::form::{FieldErrors, parse_number, parse_required_text, parse_text};
use super::mode::Entrant;
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

pub const MAX_STARTNUMMER: u32 = 99_999;
const MAX_NAME: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TeamStatus {
    Aktiv,
    Disqualifiziert,
    Zurueckgezogen,
}

impl TeamStatus {
    pub const ALL: [TeamStatus; 3] = [
        TeamStatus::Aktiv,
        TeamStatus::Disqualifiziert,
        TeamStatus::Zurueckgezogen,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TeamStatus::Aktiv => "aktiv",
            TeamStatus::Disqualifiziert => "disqualifiziert",
            TeamStatus::Zurueckgezogen => "zurueckgezogen",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            TeamStatus::Aktiv => "aktiv",
            TeamStatus::Disqualifiziert => "disqualifiziert",
            TeamStatus::Zurueckgezogen => "zurückgezogen",
        }
    }
}

impl fmt::Display for TeamStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl FromStr for TeamStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "aktiv" => Ok(TeamStatus::Aktiv),
            "disqualifiziert" => Ok(TeamStatus::Disqualifiziert),
            "zurueckgezogen" => Ok(TeamStatus::Zurueckgezogen),
            other => Err(format!("unbekannter Teamstatus {other}")),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct TeamForm {
    #[serde(default)]
    pub startnummer: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub player1: String,
    #[serde(default)]
    pub player2: String,
    #[serde(default)]
    pub club: String,
    #[serde(default)]
    pub place: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamInput {
    /// None: the next free number after the highest one is assigned.
    pub startnummer: Option<u32>,
    pub name: Option<String>,
    pub player1: String,
    pub player2: String,
    pub club: Option<String>,
    pub place: Option<String>,
}

impl TeamInput {
    /// One Einzelschieber player. The row keeps Name and Vorname in the two player columns,
    /// and "Name Vorname" as the name every list, sheet and ranking shows.
    pub fn player(
        startnummer: Option<u32>,
        name: &str,
        vorname: &str,
        club: Option<String>,
        place: Option<String>,
    ) -> TeamInput {
        TeamInput {
            startnummer,
            name: Some(format!("{name} {vorname}")),
            player1: name.to_string(),
            player2: vorname.to_string(),
            club,
            place,
        }
    }

    /// The registration form, as a team or as one player (fields `player1` = Name,
    /// `player2` = Vorname).
    pub fn parse(form: &TeamForm, entrant: Entrant) -> Result<TeamInput, FieldErrors> {
        match entrant {
            Entrant::Team => TeamInput::try_from(form),
            Entrant::Player => {
                let mut errors = FieldErrors::new();
                let startnummer = parse_startnummer(&mut errors, &form.startnummer);
                let name =
                    parse_required_text(&mut errors, "player1", "Name", &form.player1, MAX_NAME);
                let vorname =
                    parse_required_text(&mut errors, "player2", "Vorname", &form.player2, MAX_NAME);
                let club = parse_text(&mut errors, "club", "Verein", &form.club, MAX_NAME);
                let place = parse_text(&mut errors, "place", "Ort", &form.place, MAX_NAME);
                match (name, vorname) {
                    (Some(name), Some(vorname)) if errors.is_empty() => {
                        Ok(TeamInput::player(startnummer, &name, &vorname, club, place))
                    }
                    _ => Err(errors),
                }
            }
        }
    }
}

fn parse_startnummer(errors: &mut FieldErrors, raw: &str) -> Option<u32> {
    if raw.trim().is_empty() {
        None
    } else {
        parse_number(
            errors,
            "startnummer",
            "Startnummer",
            raw,
            1,
            MAX_STARTNUMMER,
        )
    }
}

impl TryFrom<&TeamForm> for TeamInput {
    type Error = FieldErrors;

    fn try_from(form: &TeamForm) -> Result<Self, Self::Error> {
        let mut errors = FieldErrors::new();
        let startnummer = parse_startnummer(&mut errors, &form.startnummer);
        let name = parse_text(&mut errors, "name", "Teamname", &form.name, MAX_NAME);
        let player1 =
            parse_required_text(&mut errors, "player1", "Spieler 1", &form.player1, MAX_NAME);
        let player2 =
            parse_required_text(&mut errors, "player2", "Spieler 2", &form.player2, MAX_NAME);
        let club = parse_text(&mut errors, "club", "Verein", &form.club, MAX_NAME);
        let place = parse_text(&mut errors, "place", "Ort", &form.place, MAX_NAME);
        match (player1, player2) {
            (Some(player1), Some(player2)) if errors.is_empty() => Ok(TeamInput {
                startnummer,
                name,
                player1,
                player2,
                club,
                place,
            }),
            _ => Err(errors),
        }
    }
}

/// A player registering alone ("sucht Partner").
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SingleForm {
    #[serde(default)]
    pub player: String,
    #[serde(default)]
    pub club: String,
    #[serde(default)]
    pub place: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingleInput {
    pub player: String,
    pub club: Option<String>,
    pub place: Option<String>,
}

impl TryFrom<&SingleForm> for SingleInput {
    type Error = FieldErrors;

    fn try_from(form: &SingleForm) -> Result<Self, Self::Error> {
        let mut errors = FieldErrors::new();
        let player = parse_required_text(&mut errors, "player", "Spieler", &form.player, MAX_NAME);
        let club = parse_text(&mut errors, "club", "Verein", &form.club, MAX_NAME);
        let place = parse_text(&mut errors, "place", "Ort", &form.place, MAX_NAME);
        match player {
            Some(player) if errors.is_empty() => Ok(SingleInput {
                player,
                club,
                place,
            }),
            _ => Err(errors),
        }
    }
}

/// How Verein names compare: without case and spaces ("JC Zürich" = "jc  zürich"); None
/// for an empty name. The one rule for every draw that keeps Vereine apart or together.
pub fn club_key(club: &str) -> Option<String> {
    let key: String = club
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    (!key.is_empty()).then_some(key)
}

/// A number per Verein (see [`club_key`]); teams or players without Verein get none.
pub fn club_numbers<'a, T: Eq + Hash>(
    members: impl Iterator<Item = (T, Option<&'a str>)>,
) -> HashMap<T, u32> {
    let mut numbers: HashMap<String, u32> = HashMap::new();
    let mut clubs = HashMap::new();
    for (member, club) in members {
        let Some(key) = club.and_then(club_key) else {
            continue;
        };
        let next = numbers.len() as u32;
        clubs.insert(member, *numbers.entry(key).or_insert(next));
    }
    clubs
}

/// The players under a team's name ("Anna / Urs"); empty for an Einzelschieber player, whose
/// display name is his name already.
pub fn players_line(entrant: Entrant, player1: &str, player2: &str) -> String {
    match entrant {
        Entrant::Team => format!("{player1} / {player2}"),
        Entrant::Player => String::new(),
    }
}

/// The display name: the team name, or both players.
pub fn display_name(name: Option<&str>, player1: &str, player2: &str) -> String {
    match name {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => format!("{player1} / {player2}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vereine_compare_without_case_and_spaces() {
        assert_eq!(club_key("JC Zürich"), club_key(" jc  ZÜRICH "));
        assert_ne!(club_key("JC Zürich"), club_key("JC Zug"));
        assert_eq!(club_key("  "), None);
        let numbers =
            club_numbers([(1, Some("JC Zürich")), (2, Some("jc zürich")), (3, None)].into_iter());
        assert_eq!(numbers.get(&1), numbers.get(&2));
        assert_eq!(numbers.get(&3), None);
    }

    #[test]
    fn a_team_needs_two_players() {
        let form = TeamForm {
            player1: "Hans Müller".into(),
            ..Default::default()
        };
        let e = TeamInput::try_from(&form).unwrap_err();
        assert!(e.get("player2").unwrap().contains("Spieler 2"));
        assert!(e.get("player1").is_none());
    }

    #[test]
    fn startnummer_is_optional_but_checked() {
        let mut form = TeamForm {
            player1: "Anna Bär".into(),
            player2: "Urs Bär".into(),
            ..Default::default()
        };
        assert_eq!(TeamInput::try_from(&form).unwrap().startnummer, None);
        form.startnummer = "12".into();
        assert_eq!(TeamInput::try_from(&form).unwrap().startnummer, Some(12));
        form.startnummer = "0".into();
        assert!(
            TeamInput::try_from(&form)
                .unwrap_err()
                .get("startnummer")
                .is_some()
        );
    }

    #[test]
    fn a_player_has_no_players_line() {
        assert_eq!(players_line(Entrant::Team, "Anna", "Urs"), "Anna / Urs");
        assert_eq!(players_line(Entrant::Player, "Muster", "Hans"), "");
    }

    #[test]
    fn display_name_falls_back_to_players() {
        assert_eq!(display_name(Some("Die Bären"), "A", "B"), "Die Bären");
        assert_eq!(display_name(None, "Anna", "Urs"), "Anna / Urs");
    }
}
