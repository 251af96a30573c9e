//! Results from the table: one team reports its table's result on its phone, the other
//! team confirms it (then it counts) or disputes it (then the office decides). What a phone
//! may do is decided here, from the table's situation alone.

use super::form::{FieldErrors, parse_number};
use super::marathon::Side;
use super::mode::POINTS_PER_SPIEL;
use super::result::{TableScore, check_score};

/// Whether a tournament takes results from its tables, and in which Passe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// Switched off (the default): results come through the office only.
    Off,
    /// On (codes printed), but no Passe open for the tables.
    Closed,
    /// On, for this Passe.
    Open(u32),
}

impl Opening {
    pub fn is_on(self) -> bool {
        self != Opening::Off
    }

    /// The Passe open for the tables, if any.
    pub fn passe(self) -> Option<u32> {
        match self {
            Opening::Open(passe) => Some(passe),
            Opening::Off | Opening::Closed => None,
        }
    }
}

/// What became of a table's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ReportState {
    /// Jassmarathon: the Tafel is being written at the table (line by line); not reported yet.
    Laufend,
    /// Reported by one team; waits for the other.
    Gemeldet,
    /// Confirmed by the other team: the result is stored.
    Bestaetigt,
    /// Disputed by the other team: the office or a Kontrolleur decides.
    Widerspruch,
    /// Decided by the office (one of the two versions is stored).
    Entschieden,
    /// The office entered the table by keyboard instead: the report no longer counts.
    Ersetzt,
}

impl ReportState {
    pub const ALL: [ReportState; 6] = [
        ReportState::Laufend,
        ReportState::Gemeldet,
        ReportState::Bestaetigt,
        ReportState::Widerspruch,
        ReportState::Entschieden,
        ReportState::Ersetzt,
    ];

    pub fn key(self) -> &'static str {
        match self {
            ReportState::Laufend => "laufend",
            ReportState::Gemeldet => "gemeldet",
            ReportState::Bestaetigt => "bestaetigt",
            ReportState::Widerspruch => "widerspruch",
            ReportState::Entschieden => "entschieden",
            ReportState::Ersetzt => "ersetzt",
        }
    }

    pub fn from_key(key: &str) -> Option<ReportState> {
        ReportState::ALL.into_iter().find(|s| s.key() == key)
    }

    /// For the office's Tischliste.
    pub fn label(self) -> &'static str {
        match self {
            ReportState::Laufend => "Tafel läuft am Tisch",
            ReportState::Gemeldet => "vom Tisch gemeldet",
            ReportState::Bestaetigt => "vom Tisch, bestätigt",
            ReportState::Widerspruch => "Widerspruch",
            ReportState::Entschieden => "vom Tisch, entschieden",
            ReportState::Ersetzt => "vom Büro ersetzt",
        }
    }

    /// Whether the table's report is still open (an office entry then replaces it).
    pub fn is_open(self) -> bool {
        matches!(
            self,
            ReportState::Laufend | ReportState::Gemeldet | ReportState::Widerspruch
        )
    }

    /// Whether the office may decide it now (a Tafel still being written is not reported).
    pub fn is_decidable(self) -> bool {
        matches!(self, ReportState::Gemeldet | ReportState::Widerspruch)
    }
}

/// A table's report as far as the decision needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported {
    pub by: Side,
    pub state: ReportState,
    pub version: i32,
}

/// Everything that decides what a phone may do at its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Situation {
    /// The Passe open for the tables (None: closed for all).
    pub open_passe: Option<u32>,
    /// The Passe the phone acts in.
    pub passe: u32,
    /// The side of the phone's team at its table.
    pub side: Side,
    /// A team or player of the table has left: the Pauschale applies, nothing is entered.
    pub pauschale: bool,
    /// The table has a stored result (however it came in).
    pub result_stored: bool,
    /// The office has begun a double entry of the table.
    pub office_entries: bool,
    pub report: Option<Reported>,
}

/// What a phone asks for. Confirming and disputing carry the report's version the phone
/// showed: a report changed in between is not confirmed blind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    Report,
    Confirm { seen: i32 },
    Dispute { seen: i32 },
}

/// What is to be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The table's first report.
    New,
    /// The reporting team changes its report before the other confirmed.
    Replace,
    /// The other team confirms: the result is written.
    Confirm,
    /// The other team disputes: the office decides.
    Dispute,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error(
        "Die Erfassung vom Tisch ist für diese Passe geschlossen. Bitte das Resultat beim Turnierbüro abgeben."
    )]
    Closed,
    #[error("An diesem Tisch gilt die Pauschale: es wird kein Resultat erfasst.")]
    Pauschale,
    #[error("Dieser Tisch hat sein Resultat bereits. Eine Korrektur macht das Turnierbüro.")]
    HasResult,
    #[error("Das Turnierbüro erfasst diesen Tisch. Bitte das Resultat dort abgeben.")]
    Office,
    #[error("Die Gegner haben das Resultat bereits gemeldet: bitte bestätigen oder widersprechen.")]
    OpponentsReported,
    #[error("Es ist noch kein Resultat gemeldet, das Sie bestätigen könnten.")]
    NothingReported,
    #[error("Ihr eigenes Resultat bestätigen die Gegner, nicht Sie.")]
    OwnReport,
    #[error("Das gemeldete Resultat wurde inzwischen geändert. Bitte nochmals ansehen.")]
    Changed,
    #[error("Widerspruch: das Turnierbüro entscheidet.")]
    Disputed,
    #[error("Die Gegner führen die Tafel dieses Tisches.")]
    OpponentsWriting,
    #[error("Die Tafel läuft noch: bestätigt wird nach dem Abschluss (Gong).")]
    StillRunning,
}

/// What a phone at its table may do now.
pub fn decide(s: &Situation, ask: Ask) -> Result<Step, Refused> {
    if s.open_passe != Some(s.passe) {
        return Err(Refused::Closed);
    }
    if s.pauschale {
        return Err(Refused::Pauschale);
    }
    if s.result_stored {
        return Err(Refused::HasResult);
    }
    if s.office_entries {
        return Err(Refused::Office);
    }
    let Some(report) = s.report else {
        return match ask {
            Ask::Report => Ok(Step::New),
            Ask::Confirm { .. } | Ask::Dispute { .. } => Err(Refused::NothingReported),
        };
    };
    match report.state {
        ReportState::Gemeldet | ReportState::Laufend => {}
        ReportState::Widerspruch => return Err(Refused::Disputed),
        ReportState::Bestaetigt | ReportState::Entschieden => return Err(Refused::HasResult),
        ReportState::Ersetzt => return Err(Refused::Office),
    }
    let own = report.by == s.side;
    let running = report.state == ReportState::Laufend;
    match ask {
        Ask::Report if own => Ok(Step::Replace),
        Ask::Report if running => Err(Refused::OpponentsWriting),
        Ask::Report => Err(Refused::OpponentsReported),
        Ask::Confirm { .. } | Ask::Dispute { .. } if own => Err(Refused::OwnReport),
        Ask::Confirm { .. } | Ask::Dispute { .. } if running => Err(Refused::StillRunning),
        Ask::Confirm { seen } | Ask::Dispute { seen } if seen != report.version => {
            Err(Refused::Changed)
        }
        Ask::Confirm { .. } => Ok(Step::Confirm),
        Ask::Dispute { .. } => Ok(Step::Dispute),
    }
}

/// Which version the office takes when it decides a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// What the reporting team entered.
    Reported,
    /// What the disputing team said instead.
    Answer,
}

/// Whether the office may decide a report with this version: an open report (a reported one
/// whose opponents do not answer, or a disputed one); the answer only where there is one.
pub fn may_decide(state: ReportState, version: Version) -> Result<(), &'static str> {
    match (state, version) {
        (ReportState::Gemeldet, Version::Reported) | (ReportState::Widerspruch, _) => Ok(()),
        (ReportState::Gemeldet, Version::Answer) => {
            Err("Zu diesem Resultat gibt es keine zweite Version.")
        }
        (ReportState::Laufend, _) => Err("Die Tafel läuft noch am Tisch."),
        _ => Err("Dieser Tisch ist bereits entschieden."),
    }
}

/// What a phone types: its own side's points; the other side gets the rest of
/// 157 × Spiele. (Matches are not asked at the table: they do not rank; the office adds them
/// by correction where a tournament records them.)
#[derive(Debug, Default, Clone, serde::Deserialize)]
pub struct OwnFigures {
    #[serde(default)]
    pub points: String,
    /// Differenzler: the table's four summed differences, places 1 to 4 (the Schreiber
    /// reports the whole Schätzzettel, not his own half).
    #[serde(default)]
    pub diff_1: String,
    #[serde(default)]
    pub diff_2: String,
    #[serde(default)]
    pub diff_3: String,
    #[serde(default)]
    pub diff_4: String,
}

impl OwnFigures {
    /// The Differenzler's four figures as the office's fast entry reads them.
    pub fn as_differenzen(&self) -> super::result::ResultForm {
        super::result::ResultForm {
            diff_1: self.diff_1.clone(),
            diff_2: self.diff_2.clone(),
            diff_3: self.diff_3.clone(),
            diff_4: self.diff_4.clone(),
            ..Default::default()
        }
    }
}

/// The table's score from the figures of one side, checked as the office's entry is; the
/// messages speak to the players ("Ihre Punkte", not "Punkte Team A").
pub fn parse_own(side: Side, own: &OwnFigures, spiele: u32) -> Result<TableScore, FieldErrors> {
    if own.points.trim().is_empty() {
        return Err(FieldErrors::single("points", "Bitte Ihre Punkte eingeben."));
    }
    let total = POINTS_PER_SPIEL * spiele;
    let mut errors = FieldErrors::new();
    let Some(points) = parse_number(&mut errors, "points", "Ihre Punkte", &own.points, 0, total)
    else {
        return Err(errors);
    };
    let (points_a, points_b) = match side {
        Side::A => (points, total - points),
        Side::B => (total - points, points),
    };
    check_score(
        TableScore {
            points_a,
            points_b,
            matches_a: 0,
            matches_b: 0,
        },
        spiele,
    )
    .map_err(|errors| errors.renamed(|_| "points"))
}

/// A dispute of reported points: the disputing side's own figure, which must differ from
/// the report (the same figure is a confirmation), and a note saying what is wrong (the
/// office decides on it). Both problems are named at once.
pub fn parse_dispute(
    side: Side,
    own: &OwnFigures,
    note: &str,
    spiele: u32,
    reported: TableScore,
) -> Result<TableScore, FieldErrors> {
    let mut errors = FieldErrors::new();
    let score = match parse_own(side, own, spiele) {
        Ok(score) if score == reported => {
            errors.add(
                "points",
                "Das ist das gemeldete Resultat. Stimmt es, bitte bestätigen; sonst Ihre richtigen Punkte eingeben.",
            );
            None
        }
        Ok(score) => Some(score),
        Err(e) => {
            for m in e.messages() {
                errors.add("points", m);
            }
            None
        }
    };
    if note.trim().is_empty() {
        errors.add(
            "note",
            "Bitte kurz sagen, was nicht stimmt (für das Turnierbüro).",
        );
    }
    match score {
        Some(score) if errors.is_empty() => Ok(score),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn situation(report: Option<Reported>) -> Situation {
        Situation {
            open_passe: Some(2),
            passe: 2,
            side: Side::B,
            pauschale: false,
            result_stored: false,
            office_entries: false,
            report,
        }
    }

    fn reported(by: Side, state: ReportState) -> Option<Reported> {
        Some(Reported {
            by,
            state,
            version: 3,
        })
    }

    #[test]
    fn one_team_reports_the_other_confirms_or_disputes() {
        assert_eq!(decide(&situation(None), Ask::Report), Ok(Step::New));
        let theirs = situation(reported(Side::A, ReportState::Gemeldet));
        assert_eq!(decide(&theirs, Ask::Confirm { seen: 3 }), Ok(Step::Confirm));
        assert_eq!(decide(&theirs, Ask::Dispute { seen: 3 }), Ok(Step::Dispute));
        assert_eq!(
            decide(&theirs, Ask::Report),
            Err(Refused::OpponentsReported)
        );
        assert_eq!(
            decide(&theirs, Ask::Confirm { seen: 2 }),
            Err(Refused::Changed)
        );
        let ours = situation(reported(Side::B, ReportState::Gemeldet));
        assert_eq!(decide(&ours, Ask::Report), Ok(Step::Replace));
        assert_eq!(
            decide(&ours, Ask::Confirm { seen: 3 }),
            Err(Refused::OwnReport)
        );
    }

    #[test]
    fn a_tafel_at_the_table_is_written_by_one_side_and_answered_after_the_gong() {
        let ours = situation(reported(Side::B, ReportState::Laufend));
        assert_eq!(decide(&ours, Ask::Report), Ok(Step::Replace));
        assert_eq!(
            decide(&ours, Ask::Confirm { seen: 3 }),
            Err(Refused::OwnReport)
        );
        let theirs = situation(reported(Side::A, ReportState::Laufend));
        assert_eq!(decide(&theirs, Ask::Report), Err(Refused::OpponentsWriting));
        assert_eq!(
            decide(&theirs, Ask::Confirm { seen: 3 }),
            Err(Refused::StillRunning)
        );
        assert_eq!(
            decide(&theirs, Ask::Dispute { seen: 3 }),
            Err(Refused::StillRunning)
        );
    }

    #[test]
    fn nothing_from_the_table_where_it_is_not_the_tables_turn() {
        let mut s = situation(None);
        s.open_passe = Some(1);
        assert_eq!(decide(&s, Ask::Report), Err(Refused::Closed));
        s.open_passe = None;
        assert_eq!(decide(&s, Ask::Report), Err(Refused::Closed));
        let mut s = situation(None);
        s.pauschale = true;
        assert_eq!(decide(&s, Ask::Report), Err(Refused::Pauschale));
        let mut s = situation(None);
        s.result_stored = true;
        assert_eq!(decide(&s, Ask::Report), Err(Refused::HasResult));
        let mut s = situation(None);
        s.office_entries = true;
        assert_eq!(decide(&s, Ask::Report), Err(Refused::Office));
        for (state, refused) in [
            (ReportState::Widerspruch, Refused::Disputed),
            (ReportState::Bestaetigt, Refused::HasResult),
            (ReportState::Entschieden, Refused::HasResult),
            (ReportState::Ersetzt, Refused::Office),
        ] {
            let s = situation(reported(Side::A, state));
            for ask in [
                Ask::Report,
                Ask::Confirm { seen: 3 },
                Ask::Dispute { seen: 3 },
            ] {
                assert_eq!(decide(&s, ask), Err(refused), "{state:?} {ask:?}");
            }
        }
    }

    /// Over every situation: a result is confirmed only by the side that did not report
    /// it, against the version it saw, in the open Passe, at a table without a result.
    #[test]
    fn a_confirmation_is_always_the_other_sides_of_the_shown_report() {
        let sides = [Side::A, Side::B];
        for open in [None, Some(1), Some(2)] {
            for side in sides {
                for flags in 0..8u8 {
                    for report in std::iter::once(None).chain(
                        ReportState::ALL
                            .into_iter()
                            .flat_map(|state| sides.map(|by| reported(by, state))),
                    ) {
                        let s = Situation {
                            open_passe: open,
                            passe: 2,
                            side,
                            pauschale: flags & 1 != 0,
                            result_stored: flags & 2 != 0,
                            office_entries: flags & 4 != 0,
                            report,
                        };
                        for seen in [2, 3] {
                            if decide(&s, Ask::Confirm { seen }) == Ok(Step::Confirm) {
                                let r = report.expect("confirmed without a report");
                                assert_ne!(r.by, side);
                                assert_eq!(r.version, seen);
                                assert_eq!(r.state, ReportState::Gemeldet);
                                assert_eq!(open, Some(2));
                                assert_eq!(flags, 0);
                            }
                        }
                        if decide(&s, Ask::Report).is_ok() {
                            assert!(report.is_none_or(|r| r.by == side));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_office_decides_open_reports_only() {
        assert!(may_decide(ReportState::Widerspruch, Version::Answer).is_ok());
        assert!(may_decide(ReportState::Widerspruch, Version::Reported).is_ok());
        assert!(may_decide(ReportState::Gemeldet, Version::Reported).is_ok());
        assert!(may_decide(ReportState::Gemeldet, Version::Answer).is_err());
        assert!(may_decide(ReportState::Bestaetigt, Version::Reported).is_err());
        assert!(may_decide(ReportState::Ersetzt, Version::Reported).is_err());
        assert!(may_decide(ReportState::Laufend, Version::Reported).is_err());
    }

    /// A dispute says something else: another figure, and what is wrong.
    #[test]
    fn a_dispute_needs_a_different_figure_and_a_note() {
        let own = |points: &str| OwnFigures {
            points: points.into(),
            ..Default::default()
        };
        let reported = parse_own(Side::A, &own("1000"), 12).unwrap();
        let same = parse_dispute(Side::B, &own("884"), "", 12, reported).unwrap_err();
        assert!(
            same.get("points").unwrap().contains("gemeldete Resultat"),
            "{same:?}"
        );
        assert!(same.get("note").is_some(), "{same:?}");
        let no_note = parse_dispute(Side::B, &own("900"), "  ", 12, reported).unwrap_err();
        assert!(no_note.get("points").is_none() && no_note.get("note").is_some());
        let disputed = parse_dispute(Side::B, &own("900"), "Weis vergessen", 12, reported).unwrap();
        assert_eq!((disputed.points_a, disputed.points_b), (984, 900));
    }

    #[test]
    fn a_side_types_its_own_points_and_the_other_gets_the_rest() {
        let own = |points: &str| OwnFigures {
            points: points.into(),
            ..Default::default()
        };
        let a = parse_own(Side::A, &own("1'000"), 12).unwrap();
        assert_eq!((a.points_a, a.points_b), (1000, 884));
        let b = parse_own(Side::B, &own("1000"), 12).unwrap();
        assert_eq!((b.points_a, b.points_b), (884, 1000));
        let too_many = parse_own(Side::B, &own("1885"), 12).unwrap_err();
        assert_eq!(
            too_many.get("points"),
            Some("Ihre Punkte: muss zwischen 0 und 1'884 liegen."),
            "the players' words, not the office's \"Punkte Team B\""
        );
        assert!(
            parse_own(Side::A, &own(""), 12)
                .unwrap_err()
                .get("points")
                .is_some()
        );
        assert!(
            parse_own(Side::A, &own("viel"), 12)
                .unwrap_err()
                .get("points")
                .is_some()
        );
    }

    #[test]
    fn states_read_back() {
        for s in ReportState::ALL {
            assert_eq!(ReportState::from_key(s.key()), Some(s));
        }
        assert_eq!(ReportState::from_key("Gemeldet"), None);
    }
}
