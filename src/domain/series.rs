//! The Jass-Cup (#80): a series of tournaments ranked together — a Jahresmeisterschaft of
//! club evenings (best 7 of 10 count), a Cup of many halls with a final that counts double,
//! qualifiers whose best reach the final.
//!
//! Decisions (the Handbuch says them to the office):
//! - Only a *ranked* entry of a tournament gives points. Disqualified, withdrawn and «nicht
//!   bewertet» entries give none and do not count as a participation.
//! - Points by rank: a table (rank 1 gets the first number; beyond the table 0), or «Feld»
//!   (N − rank + 1 with N the ranked entries of that tournament), or «Punkte normiert»
//!   (1000 × own total / the winner's total, rounded). A tournament marked as final
//!   multiplies its points by the series' factor.
//! - «Die besten N zählen»: the N results with most points (the final too); the others are
//!   struck. Below the minimum of participations an entrant is listed but not ranked.
//! - Ties: more wins (rank 1), then the best single result, then the latest result (the
//!   points of the most recent tournament, then the one before, …); all equal: shared rank.
//! - Qualification: the first N ranked (all sharing rank N too) plus named wildcards (a
//!   wildcard already among them frees no place), or a share of each qualifier's own
//!   Rangliste (e.g. the best 33 % of each qualifier, rounded up).

use super::form::{FieldErrors, parse_number, parse_required_text};
use std::collections::HashMap;
use std::hash::Hash;

/// How points are given, as stored and chosen in the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsKind {
    Table,
    Field,
    Normalised,
}

impl PointsKind {
    pub const ALL: [PointsKind; 3] = [PointsKind::Table, PointsKind::Field, PointsKind::Normalised];

    pub fn key(self) -> &'static str {
        match self {
            PointsKind::Table => "tabelle",
            PointsKind::Field => "feld",
            PointsKind::Normalised => "normiert",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            PointsKind::Table => "Punkte nach Rang (Tabelle)",
            PointsKind::Field => "Feldgrösse − Rang + 1",
            PointsKind::Normalised => "eigenes Total, normiert (Sieger = 1000)",
        }
    }
}

/// Who collects the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Every player of a team gets the team's points.
    Person,
    /// The same two persons together (a changed partner is another team).
    Team,
}

impl Unit {
    pub const ALL: [Unit; 2] = [Unit::Person, Unit::Team];

    pub fn key(self) -> &'static str {
        match self {
            Unit::Person => "person",
            Unit::Team => "team",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            Unit::Person => "pro Person",
            Unit::Team => "pro festes Team (dieselben zwei Personen)",
        }
    }
}

/// How the final is reached, as stored and chosen in the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QualificationKind {
    None,
    Top,
    Share,
}

impl QualificationKind {
    pub const ALL: [QualificationKind; 3] = [
        QualificationKind::None,
        QualificationKind::Top,
        QualificationKind::Share,
    ];

    pub fn key(self) -> &'static str {
        match self {
            QualificationKind::None => "keine",
            QualificationKind::Top => "top",
            QualificationKind::Share => "anteil",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            QualificationKind::None => "keine",
            QualificationKind::Top => "die ersten N der Gesamtwertung",
            QualificationKind::Share => "die besten N % jeder Qualifikation",
        }
    }
}

/// A series as the form gives it (all text, as typed).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct SeriesForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub season: String,
    #[serde(default)]
    pub points: String,
    #[serde(default)]
    pub points_table: String,
    #[serde(default)]
    pub unit: String,
    #[serde(default)]
    pub best: String,
    #[serde(default)]
    pub minimum: String,
    #[serde(default)]
    pub final_factor: String,
    #[serde(default)]
    pub qualification: String,
    #[serde(default)]
    pub qualify_value: String,
    /// Person numbers of the register, separated by commas or spaces.
    #[serde(default)]
    pub wildcards: String,
}

/// A series' settings, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesSettings {
    pub name: String,
    pub season: String,
    pub unit: Unit,
    pub rule: SeriesRule,
    pub wildcards: Vec<i32>,
}

/// The presets offered when a series is made.
pub const PRESETS: [(&str, &str); 3] = [
    (
        "jahresmeisterschaft",
        "Jahresmeisterschaft: 25-20-16-13-11-10-9-…-1, die besten 7 zählen",
    ),
    ("cup", "Cup: Feldgrösse − Rang + 1, Final zählt doppelt"),
    (
        "qualifikation",
        "Qualifikation: 25-20-16-…, die ersten 19 erreichen den Final",
    ),
];

/// The usual table: 25, 20, 16, 13, 11, 10, 9, … 1.
pub const USUAL_TABLE: &str = "25 20 16 13 11 10 9 8 7 6 5 4 3 2 1";

impl SeriesForm {
    /// A preset's form (unknown: the Jahresmeisterschaft's).
    pub fn preset(key: &str, name: &str, season: &str) -> SeriesForm {
        let (points, best, qualification, value) = match key {
            "cup" => (PointsKind::Field, "", QualificationKind::None, ""),
            "qualifikation" => (PointsKind::Table, "", QualificationKind::Top, "19"),
            _ => (PointsKind::Table, "7", QualificationKind::None, ""),
        };
        SeriesForm {
            name: name.to_string(),
            season: season.to_string(),
            points: points.key().to_string(),
            points_table: USUAL_TABLE.to_string(),
            unit: Unit::Person.key().to_string(),
            best: best.to_string(),
            minimum: "1".to_string(),
            final_factor: "2".to_string(),
            qualification: qualification.key().to_string(),
            qualify_value: value.to_string(),
            wildcards: String::new(),
        }
    }

    /// The form of stored settings.
    pub fn of(s: &SeriesSettings) -> SeriesForm {
        let (points, table) = match &s.rule.points {
            Points::Table(t) => (PointsKind::Table, table_text(t)),
            Points::Field => (PointsKind::Field, String::new()),
            Points::Normalised => (PointsKind::Normalised, String::new()),
        };
        let (qualification, value) = match s.rule.qualification {
            Qualification::None => (QualificationKind::None, String::new()),
            Qualification::Top(n) => (QualificationKind::Top, n.to_string()),
            Qualification::SharePerQualifier(p) => (QualificationKind::Share, p.to_string()),
        };
        SeriesForm {
            name: s.name.clone(),
            season: s.season.clone(),
            points: points.key().to_string(),
            points_table: table,
            unit: s.unit.key().to_string(),
            best: s.rule.best.map(|b| b.to_string()).unwrap_or_default(),
            minimum: s.rule.minimum.to_string(),
            final_factor: s.rule.final_factor.to_string(),
            qualification: qualification.key().to_string(),
            qualify_value: value,
            wildcards: s
                .wildcards
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    pub fn parse(&self) -> Result<SeriesSettings, FieldErrors> {
        let mut errors = FieldErrors::new();
        let name = parse_required_text(&mut errors, "name", "Name", &self.name, 100);
        let season = parse_required_text(&mut errors, "season", "Saison", &self.season, 40);
        let points = match PointsKind::from_key(self.points.trim()) {
            Some(PointsKind::Table) => match parse_table(&self.points_table) {
                Ok(t) => Some(Points::Table(t)),
                Err(message) => {
                    errors.add("points_table", message);
                    None
                }
            },
            Some(PointsKind::Field) => Some(Points::Field),
            Some(PointsKind::Normalised) => Some(Points::Normalised),
            None => {
                errors.add("points", "Punkte: bitte eine der Möglichkeiten wählen.");
                None
            }
        };
        let unit = Unit::from_key(self.unit.trim());
        if unit.is_none() {
            errors.add("unit", "Wertung: bitte pro Person oder pro Team wählen.");
        }
        let best = match self.best.trim().is_empty() {
            true => None,
            false => parse_number(
                &mut errors,
                "best",
                "Es zählen die besten",
                &self.best,
                1,
                100,
            ),
        };
        let minimum = parse_number(
            &mut errors,
            "minimum",
            "Mindestens Teilnahmen",
            &self.minimum,
            0,
            100,
        );
        let final_factor = parse_number(
            &mut errors,
            "final_factor",
            "Final zählt",
            &self.final_factor,
            1,
            10,
        );
        let qualification = match QualificationKind::from_key(self.qualification.trim()) {
            Some(QualificationKind::None) => Some(Qualification::None),
            Some(QualificationKind::Top) => parse_number(
                &mut errors,
                "qualify_value",
                "Qualifiziert: die ersten",
                &self.qualify_value,
                1,
                10_000,
            )
            .map(Qualification::Top),
            Some(QualificationKind::Share) => parse_number(
                &mut errors,
                "qualify_value",
                "Qualifiziert: Prozent",
                &self.qualify_value,
                1,
                100,
            )
            .map(Qualification::SharePerQualifier),
            None => {
                errors.add(
                    "qualification",
                    "Qualifikation: bitte eine der Möglichkeiten wählen.",
                );
                None
            }
        };
        let mut wildcards = Vec::new();
        for word in self
            .wildcards
            .split([',', ' ', ';'])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            match word.trim_start_matches('#').parse::<i32>() {
                Ok(n) if n > 0 => wildcards.push(n),
                _ => errors.add(
                    "wildcards",
                    format!("Wildcards: «{word}» ist keine Personen-Nummer."),
                ),
            }
        }
        wildcards.sort_unstable();
        wildcards.dedup();
        match (
            name,
            season,
            points,
            unit,
            minimum,
            final_factor,
            qualification,
        ) {
            (
                Some(name),
                Some(season),
                Some(points),
                Some(unit),
                Some(minimum),
                Some(final_factor),
                Some(qualification),
            ) if errors.is_empty() => Ok(SeriesSettings {
                name,
                season,
                unit,
                rule: SeriesRule {
                    points,
                    best,
                    minimum,
                    final_factor,
                    qualification,
                },
                wildcards,
            }),
            _ => Err(errors),
        }
    }
}

/// «25-20-16-13» (also spaces, commas, semicolons, line breaks) → the numbers.
pub fn parse_table(raw: &str) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for word in raw
        .split(|c: char| c.is_whitespace() || ",;-".contains(c))
        .filter(|w| !w.is_empty())
    {
        match word.parse::<u32>() {
            Ok(n) if n <= 100_000 => out.push(n),
            _ => return Err(format!("Punkte-Tabelle: «{word}» ist keine Zahl.")),
        }
    }
    if out.is_empty() {
        return Err(
            "Punkte-Tabelle: bitte die Punkte für Rang 1, 2, 3, … eingeben (z. B. 25-20-16)."
                .into(),
        );
    }
    if out.len() > 1_000 {
        return Err("Punkte-Tabelle: höchstens 1000 Ränge.".into());
    }
    Ok(out)
}

/// The table as it is stored and shown: «25-20-16».
pub fn table_text(table: &[u32]) -> String {
    table
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

impl SeriesRule {
    /// The rule in words, under the standings.
    pub fn describe(&self) -> String {
        let points = match &self.points {
            Points::Table(t) => format!(
                "Punkte nach Rang {}",
                table_text(&t[..t.len().min(12)]) + if t.len() > 12 { "-…" } else { "" }
            ),
            Points::Field => "Punkte: Feldgrösse − Rang + 1".to_string(),
            Points::Normalised => "Punkte: eigenes Total × 1000 / Total des Siegers".to_string(),
        };
        let mut parts = vec![points];
        if let Some(n) = self.best {
            parts.push(format!("es zählen die besten {n} Resultate"));
        }
        if self.minimum > 1 {
            parts.push(format!("rangiert ab {} Teilnahmen", self.minimum));
        }
        if self.final_factor > 1 {
            parts.push(format!("der Final zählt {}-fach", self.final_factor));
        }
        match self.qualification {
            Qualification::None => {}
            Qualification::Top(n) => parts.push(format!("die ersten {n} erreichen den Final")),
            Qualification::SharePerQualifier(p) => parts.push(format!(
                "die besten {p} % jeder Qualifikation erreichen den Final"
            )),
        }
        parts.join("; ") + "."
    }
}

/// What a tournament's result gives in the series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Points {
    /// Rank 1 gets the first number, rank 2 the second, …; beyond the table nothing.
    Table(Vec<u32>),
    /// N − rank + 1, N = the ranked entries of the tournament.
    Field,
    /// 1000 × own total / the winner's total, rounded (where the lowest total wins, as in
    /// the Differenzler: 1000 × the winner's total / own total).
    Normalised,
}

impl Points {
    /// The points of a ranked entry; `lower_wins`: the tournament ranks the lowest total first.
    pub fn of(
        &self,
        rank: u32,
        total: u32,
        field: u32,
        winner_total: u32,
        lower_wins: bool,
    ) -> u32 {
        match self {
            Points::Table(table) => usize::try_from(rank.saturating_sub(1))
                .ok()
                .and_then(|i| table.get(i))
                .copied()
                .unwrap_or(0),
            Points::Field => (field + 1).saturating_sub(rank),
            // The winner's total is the lowest: a total of 0 can only be his.
            Points::Normalised if lower_wins && total == 0 => 1000,
            Points::Normalised if lower_wins => {
                let scaled =
                    (u64::from(winner_total) * 2000 + u64::from(total)) / (2 * u64::from(total));
                u32::try_from(scaled).unwrap_or(u32::MAX)
            }
            Points::Normalised if winner_total == 0 => 0,
            Points::Normalised => {
                let scaled = (u64::from(total) * 2000 + u64::from(winner_total))
                    / (2 * u64::from(winner_total));
                u32::try_from(scaled).unwrap_or(u32::MAX)
            }
        }
    }
}

/// Who qualifies for the final.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Qualification {
    None,
    /// The first `n` ranked of the standings (ties at the cut included).
    Top(u32),
    /// Of each qualifier, the best `percent` % of its ranked entries, rounded up.
    SharePerQualifier(u32),
}

/// The series' rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesRule {
    pub points: Points,
    /// How many results count (None: all).
    pub best: Option<u32>,
    /// Participations needed to be ranked.
    pub minimum: u32,
    /// What a final's points are multiplied by.
    pub final_factor: u32,
    pub qualification: Qualification,
}

/// One tournament of the series with its ranked entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event<E> {
    pub is_final: bool,
    /// Closed: its Rangliste is official.
    pub official: bool,
    /// How many teams (players) the tournament ranked: N of «N − rank + 1» (per person, a
    /// team's two players are one entry of the field).
    pub field: u32,
    /// Ranked entries: who, rank, total. (An entrant twice in one tournament counts once,
    /// with the better rank.)
    pub results: Vec<(E, u32, u32)>,
    /// The tournament ranks the lowest total first (Differenzler).
    pub lower_wins: bool,
}

/// A result of an entrant in the series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesResult {
    /// Index of the event (in the order given: chronological).
    pub event: usize,
    pub rank: u32,
    pub points: u32,
    pub counted: bool,
    /// From a tournament not yet closed.
    pub provisional: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing<E> {
    pub entrant: E,
    pub total: u32,
    pub results: Vec<SeriesResult>,
    pub wins: u32,
    /// None: fewer participations than the minimum.
    pub rank: Option<u32>,
    pub qualified: bool,
    /// A counted result comes from a tournament not yet closed.
    pub provisional: bool,
}

impl<E> Standing<E> {
    pub fn participations(&self) -> usize {
        self.results.len()
    }

    fn best_single(&self) -> u32 {
        self.results.iter().map(|r| r.points).max().unwrap_or(0)
    }

    /// Points from the latest tournament backwards.
    fn latest_first(&self) -> Vec<u32> {
        let mut by_event: Vec<(usize, u32)> =
            self.results.iter().map(|r| (r.event, r.points)).collect();
        by_event.sort_by_key(|e| std::cmp::Reverse(e.0));
        by_event.into_iter().map(|(_, p)| p).collect()
    }

    /// The tie-break's key: greater is better.
    fn order_key(&self) -> (u32, u32, u32, Vec<u32>) {
        (
            self.total,
            self.wins,
            self.best_single(),
            self.latest_first(),
        )
    }
}

/// The standings: ranked entrants first (best first), then those below the minimum (most
/// points first); `wildcards` qualify whatever their rank.
pub fn standings<E: Clone + Eq + Hash + Ord>(
    rule: &SeriesRule,
    events: &[Event<E>],
    include_open: bool,
    wildcards: &[E],
) -> Vec<Standing<E>> {
    let mut by_entrant: HashMap<E, Vec<SeriesResult>> = HashMap::new();
    let mut share_qualified: Vec<E> = Vec::new();
    for (index, event) in events.iter().enumerate() {
        if !event.official && !include_open {
            continue;
        }
        let field = event.field;
        let winner_total = event
            .results
            .iter()
            .filter(|r| r.1 == 1)
            .map(|r| r.2)
            .max()
            .unwrap_or(0);
        let factor = if event.is_final { rule.final_factor } else { 1 };
        let mut seen: HashMap<&E, u32> = HashMap::new();
        for (entrant, rank, _) in &event.results {
            let best = seen.entry(entrant).or_insert(*rank);
            *best = (*best).min(*rank);
        }
        for (entrant, rank, total) in &event.results {
            if seen.get(entrant) != Some(rank) {
                continue;
            }
            seen.remove(entrant);
            let points = rule
                .points
                .of(*rank, *total, field, winner_total, event.lower_wins)
                * factor;
            by_entrant
                .entry(entrant.clone())
                .or_default()
                .push(SeriesResult {
                    event: index,
                    rank: *rank,
                    points,
                    counted: false,
                    provisional: !event.official,
                });
            if let Qualification::SharePerQualifier(percent) = rule.qualification
                && !event.is_final
            {
                let places = (u64::from(field) * u64::from(percent)).div_ceil(100);
                if u64::from(*rank) <= places {
                    share_qualified.push(entrant.clone());
                }
            }
        }
    }
    // A wildcard without a result yet is listed all the same (qualified, no points).
    for w in wildcards {
        by_entrant.entry(w.clone()).or_default();
    }
    let mut rows: Vec<Standing<E>> = by_entrant
        .into_iter()
        .map(|(entrant, mut results)| {
            results.sort_by_key(|r| r.event);
            // The best N by points; of equal points the earlier counts.
            let mut order: Vec<usize> = (0..results.len()).collect();
            order.sort_by(|&a, &b| {
                results[b]
                    .points
                    .cmp(&results[a].points)
                    .then(results[a].event.cmp(&results[b].event))
            });
            let keep = rule
                .best
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(usize::MAX);
            for &i in order.iter().take(keep) {
                results[i].counted = true;
            }
            let counted = results.iter().filter(|r| r.counted);
            let total = counted.clone().map(|r| r.points).sum();
            let provisional = counted.clone().any(|r| r.provisional);
            let wins = results.iter().filter(|r| r.rank == 1).count();
            Standing {
                entrant,
                total,
                wins: u32::try_from(wins).unwrap_or(u32::MAX),
                results,
                rank: None,
                qualified: false,
                provisional,
            }
        })
        .collect();
    let minimum = usize::try_from(rule.minimum).unwrap_or(usize::MAX);
    rows.sort_by(|a, b| {
        let ranked = |s: &Standing<E>| s.participations() >= minimum;
        ranked(b)
            .cmp(&ranked(a))
            .then_with(|| b.order_key().cmp(&a.order_key()))
            .then_with(|| a.entrant.cmp(&b.entrant))
    });
    let mut previous: Option<(usize, u32)> = None;
    for position in 0..rows.len() {
        if rows[position].participations() < minimum {
            break;
        }
        let rank = match previous {
            Some((before, rank)) if rows[before].order_key() == rows[position].order_key() => rank,
            _ => u32::try_from(position + 1).unwrap_or(u32::MAX),
        };
        rows[position].rank = Some(rank);
        previous = Some((position, rank));
    }
    for row in &mut rows {
        row.qualified = wildcards.contains(&row.entrant)
            || match rule.qualification {
                Qualification::None => false,
                Qualification::Top(n) => row.rank.is_some_and(|r| r <= n),
                Qualification::SharePerQualifier(_) => share_qualified.contains(&row.entrant),
            };
    }
    rows
}

/// Where the cut line is drawn for a top-N qualification: under this row of the standings
/// (the last one ranked within the first N); none for other qualifications.
pub fn cut_after<E>(rule: &SeriesRule, rows: &[Standing<E>]) -> Option<usize> {
    match rule.qualification {
        Qualification::Top(n) => rows
            .iter()
            .rposition(|r| r.rank.is_some_and(|rank| rank <= n)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rule(points: Points, best: Option<u32>, minimum: u32) -> SeriesRule {
        SeriesRule {
            points,
            best,
            minimum,
            final_factor: 2,
            qualification: Qualification::None,
        }
    }

    fn event(results: &[(&'static str, u32, u32)]) -> Event<&'static str> {
        Event {
            is_final: false,
            official: true,
            field: results.len() as u32,
            results: results.to_vec(),
            lower_wins: false,
        }
    }

    #[test]
    fn the_form_gives_settings_or_messages_at_the_fields() {
        let form = SeriesForm::preset("jahresmeisterschaft", "Jahresmeisterschaft", "2026");
        let s = form.parse().unwrap();
        assert_eq!(s.rule.best, Some(7));
        assert_eq!(
            s.rule.points,
            Points::Table(parse_table(USUAL_TABLE).unwrap())
        );
        assert_eq!(SeriesForm::of(&s).parse().unwrap(), s);
        assert_eq!(
            s.rule.describe(),
            "Punkte nach Rang 25-20-16-13-11-10-9-8-7-6-5-4-…; es zählen die besten 7 Resultate; der Final zählt 2-fach."
        );
        let bad = SeriesForm {
            name: String::new(),
            points_table: "25-zwanzig".into(),
            minimum: "x".into(),
            qualification: "top".into(),
            qualify_value: String::new(),
            wildcards: "12, anna".into(),
            ..form
        };
        let e = bad.parse().unwrap_err();
        for field in [
            "name",
            "points_table",
            "minimum",
            "qualify_value",
            "wildcards",
        ] {
            assert!(e.get(field).is_some(), "{field}");
        }
        assert_eq!(
            e.get("points_table"),
            Some("Punkte-Tabelle: «zwanzig» ist keine Zahl.")
        );
    }

    #[test]
    fn points_by_table_field_and_normalised() {
        let table = Points::Table(vec![25, 20, 16]);
        assert_eq!(
            [1, 2, 3, 4].map(|r| table.of(r, 0, 10, 0, false)),
            [25, 20, 16, 0]
        );
        assert_eq!(
            [1, 10].map(|r| Points::Field.of(r, 0, 10, 0, false)),
            [10, 1]
        );
        assert_eq!(Points::Normalised.of(2, 4_321, 10, 4_800, false), 900);
        assert_eq!(Points::Normalised.of(1, 4_800, 10, 4_800, false), 1000);
        // Differenzler: the lowest total wins; 1000 × 360 / 400 = 900.
        assert_eq!(Points::Normalised.of(2, 400, 10, 360, true), 900);
        assert_eq!(Points::Normalised.of(1, 360, 10, 360, true), 1000);
        assert_eq!(Points::Normalised.of(1, 0, 10, 0, true), 1000);
        // Ranks are ranks: table and field points do not care which end wins.
        assert_eq!(Points::Field.of(1, 360, 10, 360, true), 10);
    }

    #[test]
    fn best_two_count_the_final_twice_and_ties_go_to_wins() {
        let mut events = vec![
            event(&[("anna", 1, 0), ("beat", 2, 0), ("cora", 3, 0)]),
            event(&[("beat", 1, 0), ("anna", 2, 0), ("cora", 3, 0)]),
            event(&[("cora", 1, 0), ("anna", 3, 0)]),
        ];
        let r = rule(Points::Table(vec![10, 6, 4]), Some(2), 2);
        let s = standings(&r, &events, true, &[]);
        let line: Vec<(&str, u32, Option<u32>)> =
            s.iter().map(|x| (x.entrant, x.total, x.rank)).collect();
        // anna 10+6 (4 struck); beat 6+10 (two results: ranked); cora 10+4.
        // anna and beat: 16 each, one win each, best 10 each, latest: beat 10 (event 2),
        // anna 4 (event 3) → beat ahead.
        assert_eq!(
            line,
            [
                ("beat", 16, Some(1)),
                ("anna", 16, Some(2)),
                ("cora", 14, Some(3))
            ]
        );
        assert_eq!(
            s[1].results.iter().map(|r| r.counted).collect::<Vec<_>>(),
            [true, true, false]
        );
        // The last one a final: cora 20 + 4 = 24 first.
        events[2].is_final = true;
        let s = standings(&r, &events, true, &[]);
        assert_eq!((s[0].entrant, s[0].total), ("cora", 24));
        // A minimum of 3: beat (two results) is listed, not ranked. By the field: cora
        // 1 + 1 + 2 × 2 = 6, anna 3 + 2 + 0 (rank 3 of 2 ranked) = 5.
        let s = standings(&rule(Points::Field, None, 3), &events, true, &[]);
        assert_eq!(
            s.iter()
                .map(|x| (x.entrant, x.total, x.rank))
                .collect::<Vec<_>>(),
            [
                ("cora", 6, Some(1)),
                ("anna", 5, Some(2)),
                ("beat", 5, None)
            ]
        );
    }

    #[test]
    fn open_tournaments_are_provisional_or_left_out() {
        let mut events = vec![event(&[("anna", 1, 0)]), event(&[("beat", 1, 0)])];
        events[1].official = false;
        let r = rule(Points::Field, None, 1);
        let s = standings(&r, &events, true, &[]);
        assert_eq!(s.len(), 2);
        assert!(s.iter().any(|x| x.entrant == "beat" && x.provisional));
        let official = standings(&r, &events, false, &[]);
        assert_eq!(official.len(), 1);
    }

    #[test]
    fn the_top_qualify_with_ties_and_wildcards_or_a_share_of_each_qualifier() {
        let events = vec![
            event(&[("a", 1, 0), ("b", 2, 0), ("c", 2, 0), ("d", 4, 0)]),
            event(&[("e", 1, 0), ("f", 2, 0), ("g", 3, 0)]),
        ];
        let mut r = rule(Points::Table(vec![10, 6, 4, 2]), None, 1);
        r.qualification = Qualification::Top(3);
        let s = standings(&r, &events, true, &["g", "z"]);
        let q: Vec<&str> = s
            .iter()
            .filter(|x| x.qualified)
            .map(|x| x.entrant)
            .collect();
        // a, e: 10; b, c, f: 6 (b and c rank 2 in their tournament: 6 each; f 6): a/e share
        // 1, b/c/f share 3 → all within 3; g a wildcard; z a wildcard without a result,
        // listed last without a rank (minimum 1).
        assert_eq!(q, ["a", "e", "b", "c", "f", "g", "z"]);
        assert_eq!(cut_after(&r, &s), Some(4), "under f, the last of rank 3");
        let z = s.last().unwrap();
        assert_eq!(
            (z.entrant, z.total, z.rank, z.participations()),
            ("z", 0, None, 0)
        );
        r.qualification = Qualification::SharePerQualifier(34);
        let s = standings(&r, &events, true, &[]);
        let mut q: Vec<&str> = s
            .iter()
            .filter(|x| x.qualified)
            .map(|x| x.entrant)
            .collect();
        q.sort_unstable();
        // 34 % of 4 → 2 places (a, and b/c sharing rank 2); 34 % of 3 → 2 (e, f).
        assert_eq!(q, ["a", "b", "c", "e", "f"]);
    }

    /// Written apart from `standings`: every entrant's points, the best N summed by sorting,
    /// the rank as one more than the entrants strictly better by the same keys.
    fn independent(rule: &SeriesRule, events: &[Event<u8>]) -> Vec<(u8, u32, Option<u32>)> {
        let mut entrants: Vec<u8> = events
            .iter()
            .flat_map(|e| e.results.iter().map(|r| r.0))
            .collect();
        entrants.sort_unstable();
        entrants.dedup();
        let facts = |who: u8| {
            let mut points: Vec<(usize, u32, u32)> = Vec::new();
            for (i, e) in events.iter().enumerate() {
                let field = e.field;
                let win = e
                    .results
                    .iter()
                    .filter(|r| r.1 == 1)
                    .map(|r| r.2)
                    .max()
                    .unwrap_or(0);
                let mine = e.results.iter().filter(|r| r.0 == who).min_by_key(|r| r.1);
                if let Some(&(_, rank, total)) = mine {
                    let f = if e.is_final { rule.final_factor } else { 1 };
                    points.push((i, rule.points.of(rank, total, field, win, false) * f, rank));
                }
            }
            let mut sorted: Vec<u32> = points.iter().map(|p| p.1).collect();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let n = rule.best.map_or(sorted.len(), |b| b as usize);
            let total: u32 = sorted.iter().take(n).sum();
            let wins = points.iter().filter(|p| p.2 == 1).count() as u32;
            let best = sorted.first().copied().unwrap_or(0);
            let mut latest = points.clone();
            latest.reverse();
            let latest: Vec<u32> = latest.iter().map(|p| p.1).collect();
            (points.len() as u32, (total, wins, best, latest))
        };
        let mut out: Vec<(u8, u32, Option<u32>)> = entrants
            .iter()
            .map(|&who| {
                let (n, key) = facts(who);
                let rank = (n >= rule.minimum).then(|| {
                    1 + entrants
                        .iter()
                        .filter(|&&o| {
                            let (m, other) = facts(o);
                            m >= rule.minimum && other > key
                        })
                        .count() as u32
                });
                (who, key.0, rank)
            })
            .collect();
        out.sort_by_key(|&(who, _, rank)| (rank.is_none(), rank, who));
        out
    }

    proptest! {
        #[test]
        fn standings_match_an_independent_computation(
            fields in proptest::collection::vec(
                proptest::collection::vec((0u8..8, 0u32..3, 0u32..5_000), 1..8), 1..7),
            best in proptest::option::of(1u32..5),
            minimum in 0u32..4,
            points in 0usize..3,
            final_last: bool,
        ) {
            // Ranks from the steps: a step of 0 shares the rank before (a tournament's
            // Rangliste), totals falling with the rank.
            let mut events = Vec::new();
            for (i, field) in fields.iter().enumerate() {
                let mut results = Vec::new();
                let mut rank = 0;
                for (position, (who, step, _)) in field.iter().enumerate() {
                    if rank == 0 || *step != 0 {
                        rank = position as u32 + 1;
                    }
                    results.push((*who, rank, 5_000 - rank * 100));
                }
                events.push(Event {
                    is_final: final_last && i + 1 == fields.len(),
                    official: true,
                    field: results.len() as u32,
                    results,
                    lower_wins: false,
                });
            }
            let points = [Points::Table(vec![25, 20, 16, 13, 11]), Points::Field, Points::Normalised][points].clone();
            let r = SeriesRule { points, best, minimum, final_factor: 2, qualification: Qualification::None };
            let got: Vec<(u8, u32, Option<u32>)> = standings(&r, &events, true, &[])
                .iter()
                .map(|s| (s.entrant, s.total, s.rank))
                .collect();
            let mut got_sorted = got.clone();
            got_sorted.sort_by_key(|&(who, _, rank)| (rank.is_none(), rank, who));
            prop_assert_eq!(&got_sorted, &independent(&r, &events));
            // Ranked first, in rank order.
            let ranks: Vec<u32> = got.iter().filter_map(|g| g.2).collect();
            prop_assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
            prop_assert!(got.iter().skip_while(|g| g.2.is_some()).all(|g| g.2.is_none()));
        }
    }
}
