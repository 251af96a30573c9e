//! Disqualification and withdrawal in the middle of a tournament (seed 004 §9): the
//! opponents get the Pauschale for the *aborted* Passe and every later one.
//!
//! When the chosen Passe already has a result at the team's table, the Leitung is asked
//! whether that Passe was aborted. Not aborted (the default): the played result stays and
//! the Pauschale starts with the next Passe. Aborted: the result gives way to the Pauschale
//! and the plan names every result, visa and final visa that this changes, so the office
//! confirms it knowingly.

use super::ids::TeamId;
use super::standblatt::{PasseLine, Standblatt, TournamentFacts, Visa, standblaetter};
use super::team::TeamStatus;

/// The question to ask before anything is decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbortedQuestion {
    pub passe: u32,
    pub table: u32,
    pub opponent: TeamId,
    pub points: u32,
    pub opponent_points: u32,
}

/// A played result that the Pauschale replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplacedResult {
    pub passe: u32,
    pub table: u32,
    pub opponent: TeamId,
    pub points: u32,
    pub opponent_points: u32,
    /// The visas of both teams on that result, which no longer count.
    pub visas: Vec<(TeamId, Visa)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithdrawalPlan {
    /// The first Passe in which the team no longer plays (its opponents get the Pauschale).
    pub out_passe: u32,
    pub replaced: Vec<ReplacedResult>,
    /// Final visas of other teams that fall because their total changes.
    pub final_visas: Vec<(TeamId, Visa)>,
    /// The team's own final visa, which falls with it (no confirmation needed for that).
    pub own_final_visa: Option<Visa>,
    /// The teams whose Standblatt changes (opponents getting the Pauschale).
    pub affected: Vec<TeamId>,
}

impl WithdrawalPlan {
    /// Whether the office must confirm before the plan is carried out.
    pub fn needs_confirmation(&self) -> bool {
        !self.replaced.is_empty() || !self.final_visas.is_empty()
    }
}

/// What disqualifying or withdrawing `team` "in Passe `passe`" changes. `aborted` is the
/// answer to the question whether that Passe was aborted (None: not asked yet).
pub fn plan(
    facts: &TournamentFacts<'_>,
    team: TeamId,
    status: TeamStatus,
    passe: u32,
    aborted: Option<bool>,
) -> Result<WithdrawalPlan, AbortedQuestion> {
    let before = standblaetter(facts);
    let sheet_of = |sheets: &[Standblatt], t: TeamId| -> Option<Standblatt> {
        sheets.iter().find(|s| s.team == t).cloned()
    };
    let own = sheet_of(&before, team);
    let played = |p: u32| -> Option<ReplacedResult> {
        let own = own.as_ref()?;
        let PasseLine::Gespielt {
            table,
            opponent,
            points,
            visa,
            ..
        } = own.lines.get(p.checked_sub(1)? as usize)?
        else {
            return None;
        };
        let opponent_sheet = sheet_of(&before, *opponent)?;
        let (opponent_points, opponent_visa) = match opponent_sheet.lines.get(p as usize - 1)? {
            PasseLine::Gespielt { points, visa, .. } => (*points, visa.clone()),
            _ => return None,
        };
        let visas = [(team, visa.clone()), (*opponent, opponent_visa)]
            .into_iter()
            .filter_map(|(t, v)| v.map(|v| (t, v)))
            .collect();
        Some(ReplacedResult {
            passe: p,
            table: *table,
            opponent: *opponent,
            points: *points,
            opponent_points,
            visas,
        })
    };
    let out_passe = match (played(passe), aborted) {
        (Some(r), None) => {
            return Err(AbortedQuestion {
                passe,
                table: r.table,
                opponent: r.opponent,
                points: r.points,
                opponent_points: r.opponent_points,
            });
        }
        (Some(_), Some(false)) => passe + 1,
        _ => passe,
    };
    let teams: Vec<_> = facts
        .teams
        .iter()
        .map(|t| {
            let mut t = t.clone();
            if t.id == team {
                t.status = status;
                t.out_passe = Some(out_passe);
                t.final_visa = None;
            }
            t
        })
        .collect();
    let after = standblaetter(&TournamentFacts {
        teams: &teams,
        ..*facts
    });
    let replaced = (out_passe..=facts.passen).filter_map(played).collect();
    let mut final_visas = Vec::new();
    let mut affected = Vec::new();
    for (old, new) in before.iter().zip(&after) {
        if old.team != team && old.lines != new.lines {
            affected.push(old.team);
        }
        if let Some(visa) = &old.final_visa
            && old.team != team
            && old.total != new.total
        {
            final_visas.push((old.team, visa.clone()));
        }
    }
    Ok(WithdrawalPlan {
        out_passe,
        replaced,
        final_visas,
        own_final_visa: own.and_then(|s| s.final_visa),
        affected,
    })
}

/// A team leaving, as the office asked for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaving {
    pub status: TeamStatus,
    pub passe: u32,
    pub reason: Option<String>,
    /// The answer to "was that Passe aborted?" (None: not asked yet).
    pub aborted: Option<bool>,
    /// The tournament version the office saw the confirmation at.
    pub confirmed_at: Option<i32>,
}

/// What the office asks of a team's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusAsk {
    Reinstate,
    Leave(Leaving),
}

/// The status form as typed.
pub struct StatusTyped<'a> {
    /// `disqualify`, `withdraw` or `reinstate`.
    pub action: &'a str,
    /// The round the team left in.
    pub passe: &'a str,
    pub reason: &'a str,
    /// The answer to "was that Passe aborted?": `ja`, `nein` or nothing yet.
    pub aborted: &'a str,
    /// The tournament version the confirmation was shown at.
    pub confirm: &'a str,
}

/// The longest reason kept (the Protokoll and the Standblatt show it).
pub const REASON_CHARS: usize = 500;

/// Reads the status form: what is asked, or the German message why it cannot be.
pub fn parse_status_ask(typed: &StatusTyped<'_>) -> Result<StatusAsk, String> {
    let status = match typed.action {
        "disqualify" => TeamStatus::Disqualifiziert,
        "withdraw" => TeamStatus::Zurueckgezogen,
        "reinstate" => return Ok(StatusAsk::Reinstate),
        _ => return Err("Unbekannte Aktion.".into()),
    };
    let passe = typed
        .passe
        .trim()
        .parse::<u32>()
        .map_err(|_| "Bitte angeben, in welcher Runde das Team ausschied.".to_string())?;
    let reason: String = typed.reason.trim().chars().take(REASON_CHARS).collect();
    let reason = Some(reason).filter(|r| !r.is_empty());
    // A disqualification is a decision against the team: it says why.
    if status == TeamStatus::Disqualifiziert && reason.is_none() {
        return Err("Bitte den Grund der Disqualifikation angeben.".into());
    }
    let aborted = match typed.aborted {
        "ja" => Some(true),
        "nein" => Some(false),
        _ => None,
    };
    Ok(StatusAsk::Leave(Leaving {
        status,
        passe,
        reason,
        aborted,
        confirmed_at: typed.confirm.trim().parse().ok(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::ResultId;
    use crate::domain::standblatt::{ResultFacts, SeatFacts, TeamFacts};
    use chrono::NaiveDate;

    fn visa() -> Option<Visa> {
        Some(Visa {
            by: "kontrolle".into(),
            at: NaiveDate::from_ymd_opt(2026, 11, 22)
                .and_then(|d| d.and_hms_opt(15, 0, 0))
                .unwrap(),
        })
    }

    /// Four teams, two Passen: P1 1–2, 3–4; P2 1–3, 2–4. Passe 1 played and visaed,
    /// team 2 with its final visa... of Passe 1 only (a two-Passe field for the test).
    fn facts() -> (Vec<TeamFacts>, Vec<SeatFacts>, Vec<ResultFacts>) {
        let teams = (1..=4)
            .map(|i| TeamFacts {
                id: TeamId(i),
                startnummer: u32::try_from(i).unwrap(),
                status: TeamStatus::Aktiv,
                out_passe: None,
                final_visa: None,
            })
            .collect();
        let seat = |passe, team, table, opponent| SeatFacts {
            passe,
            team: TeamId(team),
            table: Some(table),
            opponent: Some(TeamId(opponent)),
            partner: None,
        };
        let seats = vec![
            seat(1, 1, 1, 2),
            seat(1, 2, 1, 1),
            seat(1, 3, 2, 4),
            seat(1, 4, 2, 3),
            seat(2, 1, 1, 3),
            seat(2, 3, 1, 1),
            seat(2, 2, 2, 4),
            seat(2, 4, 2, 2),
        ];
        let result = |id, passe, table, a, b, pa| ResultFacts {
            id: ResultId(id),
            passe,
            table,
            team_a: TeamId(a),
            team_b: TeamId(b),
            points_a: pa,
            points_b: 1884 - pa,
            matches_a: 0,
            matches_b: 0,
            visa_a: visa(),
            visa_b: visa(),
            places: None,
        };
        let results = vec![
            result(1, 1, 1, 1, 2, 1000),
            result(2, 1, 2, 3, 4, 900),
            result(3, 2, 1, 1, 3, 950),
            result(4, 2, 2, 2, 4, 800),
        ];
        (teams, seats, results)
    }

    fn run(teams: &[TeamFacts], aborted: Option<bool>) -> Result<WithdrawalPlan, AbortedQuestion> {
        let (_, seats, results) = facts();
        plan(
            &TournamentFacts {
                passen: 2,
                pauschale: crate::domain::differenzler::Pauschale::Fixed(1000),
                teams,
                seats: &seats,
                results: &results,
            },
            TeamId(1),
            TeamStatus::Disqualifiziert,
            2,
            aborted,
        )
    }

    #[test]
    fn a_played_passe_asks_whether_it_was_aborted() {
        let (teams, _, _) = facts();
        assert_eq!(
            run(&teams, None),
            Err(AbortedQuestion {
                passe: 2,
                table: 1,
                opponent: TeamId(3),
                points: 950,
                opponent_points: 934,
            })
        );
    }

    #[test]
    fn not_aborted_keeps_the_result_and_starts_the_pauschale_after_it() {
        let (teams, _, _) = facts();
        let plan = run(&teams, Some(false)).unwrap();
        assert_eq!(plan.out_passe, 3);
        assert!(plan.replaced.is_empty());
        assert!(plan.affected.is_empty());
        assert!(!plan.needs_confirmation());
    }

    #[test]
    fn aborted_names_the_replaced_result_its_visas_and_the_final_visas() {
        let (mut teams, _, _) = facts();
        teams[2].final_visa = visa();
        teams[1].final_visa = visa();
        let plan = run(&teams, Some(true)).unwrap();
        assert_eq!(plan.out_passe, 2);
        assert_eq!(plan.replaced.len(), 1);
        let r = &plan.replaced[0];
        assert_eq!((r.passe, r.table, r.opponent), (2, 1, TeamId(3)));
        assert_eq!(
            r.visas.iter().map(|v| v.0).collect::<Vec<_>>(),
            vec![TeamId(1), TeamId(3)]
        );
        assert_eq!(plan.affected, vec![TeamId(3)]);
        assert_eq!(
            plan.final_visas.iter().map(|v| v.0).collect::<Vec<_>>(),
            vec![TeamId(3)],
            "team 3's total changes (934 → 1'000); team 2's does not"
        );
        assert!(plan.needs_confirmation());
    }

    #[test]
    fn an_unplayed_passe_needs_no_question() {
        let (teams, seats, mut results) = facts();
        results.retain(|r| r.passe == 1);
        let plan = plan(
            &TournamentFacts {
                passen: 2,
                pauschale: crate::domain::differenzler::Pauschale::Fixed(1000),
                teams: &teams,
                seats: &seats,
                results: &results,
            },
            TeamId(1),
            TeamStatus::Zurueckgezogen,
            2,
            None,
        )
        .unwrap();
        assert_eq!(plan.out_passe, 2);
        assert_eq!(plan.affected, vec![TeamId(3)]);
        assert!(!plan.needs_confirmation());
    }

    #[test]
    fn the_status_form_reads_what_is_asked_or_says_why_not() {
        let typed = |action, passe, reason, aborted| StatusTyped {
            action,
            passe,
            reason,
            aborted,
            confirm: " 7 ",
        };
        assert_eq!(
            parse_status_ask(&typed("reinstate", "", "", "")),
            Ok(StatusAsk::Reinstate)
        );
        assert_eq!(
            parse_status_ask(&typed("withdraw", " 3 ", "  ", "nein")),
            Ok(StatusAsk::Leave(Leaving {
                status: TeamStatus::Zurueckgezogen,
                passe: 3,
                reason: None,
                aborted: Some(false),
                confirmed_at: Some(7),
            }))
        );
        let long = "x".repeat(600);
        match parse_status_ask(&typed("disqualify", "2", &long, "ja")) {
            Ok(StatusAsk::Leave(l)) => {
                assert_eq!(l.reason.map(|r| r.chars().count()), Some(REASON_CHARS));
                assert_eq!(l.aborted, Some(true));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            parse_status_ask(&typed("disqualify", "2", " ", ""))
                .is_err_and(|m| m.contains("Grund der Disqualifikation"))
        );
        assert!(
            parse_status_ask(&typed("withdraw", "zwei", "", ""))
                .is_err_and(|m| m.contains("in welcher Runde"))
        );
        assert_eq!(
            parse_status_ask(&typed("explode", "2", "", "")),
            Err("Unbekannte Aktion.".into())
        );
    }
}
