//! The Tafel of one table in one Spielrunde: Spiel by Spiel into Partien and Striche.

use super::{CARD_POINTS, Cards, Rules, Ruling, Side, Spiel, Striche, card_points};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Event {
    Match(Side),
    Berg(Side),
    Sieg(Side),
    Schneider(Side),
}

impl Event {
    pub fn label(&self) -> String {
        let (what, side) = match self {
            Event::Match(s) => ("Match", s),
            Event::Berg(s) => ("Bergpreis", s),
            Event::Sieg(s) => ("Sieg", s),
            Event::Schneider(s) => ("Schneider", s),
        };
        format!("{what} {}", if *side == Side::A { "A" } else { "B" })
    }
}

/// The Tafel after one line, as the Schreiber would see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineOutcome {
    pub partie: u32,
    /// Points written for this Spiel (multiplied).
    pub added: (u32, u32),
    /// The Partie score after this Spiel (before a new Partie starts).
    pub score: (u32, u32),
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tafel {
    pub lines: Vec<LineOutcome>,
    pub a: Striche,
    pub b: Striche,
    /// The score of the Partie still running (what the gong decides on).
    pub open: (u32, u32),
    pub finished_partien: u32,
    pub gong: Option<Side>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TafelError {
    /// 1-based line of the Tafel.
    pub line: usize,
    pub message: String,
}

/// Whether some Weis add up to `total` (before multipliers): Dreiblatt 20, Vierblatt 50,
/// Fünfblatt and vier Gleiche 100, … up to 1000 in one Spiel. Sums of 20 and 50 reach
/// every multiple of 10 from 40 on; 10 and 30 are impossible.
pub fn possible_weis(total: u32) -> bool {
    total.is_multiple_of(10) && total <= 1000 && total != 10 && total != 30
}

fn check(spiel: &Spiel, line: usize) -> Result<(), TafelError> {
    let fail = |message: &str| {
        Err(TafelError {
            line,
            message: message.to_string(),
        })
    };
    if let Cards::Points(a) = spiel.cards
        && a > CARD_POINTS
    {
        return fail(&format!(
            "Kartenpunkte: höchstens {CARD_POINTS} (für einen Match «Match» wählen)."
        ));
    }
    if spiel.stoeck.is_some() && !spiel.trump.has_stoeck() {
        return fail("Stöck gibt es nur mit einer Trumpffarbe, nicht bei Obenabe oder Undenufe.");
    }
    if spiel.weis_a > 0 && spiel.weis_b > 0 {
        return fail("Weis schreibt nur das Team mit dem besten Weis.");
    }
    if !possible_weis(spiel.weis_a) || !possible_weis(spiel.weis_b) {
        return fail(
            "Weis: ein Vielfaches von 10 bis 1000 (Dreiblatt 20, Vierblatt 50, Vier Gleiche 100 …).",
        );
    }
    Ok(())
}

/// Writes the Striche of the events to their teams.
fn credit(rules: &Rules, events: &[Event], a: &mut Striche, b: &mut Striche) {
    for event in events {
        let (side, add, field): (Side, u32, fn(&mut Striche) -> &mut u32) = match event {
            Event::Match(s) => (*s, rules.striche.matches, |x| &mut x.matches),
            Event::Berg(s) => (*s, rules.striche.berg, |x| &mut x.berg),
            Event::Sieg(s) => (*s, rules.striche.sieg, |x| &mut x.sieg),
            Event::Schneider(s) => (*s, rules.striche.schneider, |x| &mut x.schneider),
        };
        let target = if side == Side::A { &mut *a } else { &mut *b };
        *field(target) += add;
    }
}

/// Computes the whole Tafel from its lines; `gong` when the Spielrunde has ended.
pub fn compute(rules: &Rules, spiele: &[Spiel], gong: bool) -> Result<Tafel, TafelError> {
    let most = rules.most_spiele();
    if spiele.len() > most {
        return Err(TafelError {
            line: most + 1,
            message: format!(
                "Eine Tafel hat höchstens {most} Spiele ({} Minuten Spielrunde).",
                rules.round_minutes
            ),
        });
    }
    let mut a = Striche::default();
    let mut b = Striche::default();
    let mut lines = Vec::with_capacity(spiele.len());
    let mut score = [0u32; 2];
    let mut berg_taken = false;
    let mut partie = 1;
    let mut finished = 0;
    for (index, spiel) in spiele.iter().enumerate() {
        let line = index + 1;
        if let Some(ruling) = spiel.ruling {
            let mut events = Vec::new();
            let ends_partie = match ruling {
                Ruling::FalseBedanken(wrong) => {
                    let winner = wrong.other();
                    events.push(Event::Sieg(winner));
                    let loser = if wrong == Side::A { score[0] } else { score[1] };
                    if loser < rules.berg {
                        events.push(Event::Schneider(winner));
                    }
                    true
                }
                Ruling::WrongBerg(wrong) => {
                    if berg_taken {
                        return Err(TafelError {
                            line,
                            message: "Der Bergpreis dieser Partie ist schon vergeben.".into(),
                        });
                    }
                    berg_taken = true;
                    events.push(Event::Berg(wrong.other()));
                    false
                }
            };
            credit(rules, &events, &mut a, &mut b);
            lines.push(LineOutcome {
                partie,
                added: (0, 0),
                score: (score[0], score[1]),
                events,
            });
            if ends_partie {
                finished += 1;
                partie += 1;
                score = [0, 0];
                berg_taken = false;
            }
            continue;
        }
        check(spiel, line)?;
        let m = rules.multiplier(spiel.trump);
        let (cards_a, cards_b) = card_points(spiel.cards, rules.match_bonus);
        let stoeck = spiel.stoeck.map(|s| (s, 20 * m));
        let weis = if spiel.weis_a > 0 {
            Some((Side::A, spiel.weis_a * m))
        } else if spiel.weis_b > 0 {
            Some((Side::B, spiel.weis_b * m))
        } else {
            None
        };
        // Stöck – Weis – Stich: the phases in which points arrive during the Spiel.
        let phases: [[u32; 2]; 3] = [
            stoeck
                .map(|(s, p)| if s == Side::A { [p, 0] } else { [0, p] })
                .unwrap_or([0, 0]),
            weis.map(|(s, p)| if s == Side::A { [p, 0] } else { [0, p] })
                .unwrap_or([0, 0]),
            [cards_a * m, cards_b * m],
        ];
        let mut events = Vec::new();
        let mut winner: Option<Side> = None;
        let mut need_first = false;
        for (phase, add) in phases.iter().enumerate() {
            let before = score;
            score[0] += add[0];
            score[1] += add[1];
            let crossed = |mark: u32| -> Vec<Side> {
                [Side::A, Side::B]
                    .into_iter()
                    .filter(|s| {
                        let i = if *s == Side::A { 0 } else { 1 };
                        before[i] < mark && score[i] >= mark
                    })
                    .collect()
            };
            let mut decide = |sides: Vec<Side>| -> Option<Side> {
                match sides.as_slice() {
                    [] => None,
                    [one] => Some(*one),
                    _ => {
                        // Both in one phase: only card points can do that (phase 2).
                        debug_assert_eq!(phase, 2);
                        if spiel.first.is_none() {
                            need_first = true;
                        }
                        spiel.first
                    }
                }
            };
            if !berg_taken
                && winner.is_none()
                && let Some(side) = decide(crossed(rules.berg))
            {
                berg_taken = true;
                events.push(Event::Berg(side));
            }
            if winner.is_none()
                && let Some(side) = decide(crossed(rules.target))
            {
                winner = Some(side);
            }
        }
        if need_first {
            return Err(TafelError {
                line,
                message: "Beide Teams erreichen die Marke mit Kartenpunkten: bitte angeben, welches Team zuerst dort war.".into(),
            });
        }
        if let Cards::Match(side) = spiel.cards {
            events.push(Event::Match(side));
        }
        let added = (
            phases.iter().map(|p| p[0]).sum(),
            phases.iter().map(|p| p[1]).sum(),
        );
        let end_score = (score[0], score[1]);
        if let Some(side) = winner {
            events.push(Event::Sieg(side));
            let loser = if side == Side::A { score[1] } else { score[0] };
            if loser < rules.berg {
                events.push(Event::Schneider(side));
            }
        }
        credit(rules, &events, &mut a, &mut b);
        lines.push(LineOutcome {
            partie,
            added,
            score: end_score,
            events,
        });
        if winner.is_some() {
            finished += 1;
            partie += 1;
            score = [0, 0];
            berg_taken = false;
        }
    }
    let gong_side = if gong {
        match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        }
    } else {
        None
    };
    match gong_side {
        Some(Side::A) => a.gong += rules.striche.gong,
        Some(Side::B) => b.gong += rules.striche.gong,
        None => {}
    }
    Ok(Tafel {
        lines,
        a,
        b,
        open: (score[0], score[1]),
        finished_partien: finished,
        gong: gong_side,
    })
}

/// Where a line typed as Spiel `number` (the line the writer's page offered) goes on a Tafel
/// that holds `lines`: a form sent twice — its answer lost on the hall's Wi-Fi, «Eintragen»
/// pressed again — must not write the Spiel twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewLine {
    /// The next line: written.
    Append,
    /// That Spiel is already there, the same: nothing to write.
    AlreadyThere,
    /// The Tafel changed since the page was shown (a line more or fewer): nothing written;
    /// the writer sees the Tafel as it is and decides.
    Changed { lines: usize },
}

impl NewLine {
    /// What the writer is told when the Tafel changed since his page was shown.
    pub fn changed(lines: usize) -> String {
        format!(
            "Die Tafel hat inzwischen {lines} Spiele: bitte prüfen und das Spiel nochmals eintragen, falls es fehlt."
        )
    }
}

/// Decides a new line (`number` None: a form without it appends, as before).
pub fn new_line(lines: &[Spiel], spiel: &Spiel, number: Option<usize>) -> NewLine {
    match number {
        None => NewLine::Append,
        Some(n) if n == lines.len() + 1 => NewLine::Append,
        Some(n) if n >= 1 && lines.get(n - 1) == Some(spiel) => NewLine::AlreadyThere,
        Some(_) => NewLine::Changed { lines: lines.len() },
    }
}

#[cfg(test)]
mod tests;
