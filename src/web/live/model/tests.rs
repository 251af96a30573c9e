//! The delta protocol: whatever happens between two versions, applying the deltas to the
//! older page gives the newer page.

use super::*;
use crate::domain::ids::{ResultId, TeamId};
use crate::domain::standblatt::{
    RanglisteKind, ResultFacts, SeatFacts, TeamFacts, TournamentFacts, Visa, rangliste,
    standblaetter,
};
use crate::domain::streichresultat::Wertung;
use crate::domain::team::TeamStatus;
use proptest::prelude::*;

/// A Passe of `teams` teams at tables (1, 2), (3, 4), …: the live model after the results
/// entered so far, ranked by the real Rangliste (shared ranks on ties) as the page is.
fn model(version: i32, teams: u32, results: &[ResultFacts], visaed: &[bool]) -> LiveModel {
    let facts: Vec<TeamFacts> = (1..=teams)
        .map(|n| TeamFacts {
            id: TeamId(i32::try_from(n).unwrap()),
            startnummer: n,
            status: TeamStatus::Aktiv,
            out_passe: None,
            final_visa: None,
        })
        .collect();
    let seats: Vec<SeatFacts> = (1..=teams)
        .map(|n| {
            let opponent = if n % 2 == 1 { n + 1 } else { n - 1 };
            SeatFacts {
                passe: 1,
                team: TeamId(i32::try_from(n).unwrap()),
                table: Some(n.div_ceil(2)),
                opponent: Some(TeamId(i32::try_from(opponent).unwrap())),
                partner: None,
            }
        })
        .collect();
    let mut results = results.to_vec();
    for (r, &v) in results.iter_mut().zip(visaed) {
        if v {
            let visa = Some(Visa {
                by: "kontrolle".into(),
                at: chrono::NaiveDate::from_ymd_opt(2026, 11, 22)
                    .and_then(|d| d.and_hms_opt(10, 0, 0))
                    .unwrap(),
            });
            r.visa_a.clone_from(&visa);
            r.visa_b = visa;
        }
    }
    let sheets = standblaetter(&TournamentFacts {
        passen: 1,
        pauschale: crate::domain::differenzler::Pauschale::Fixed(660),
        teams: &facts,
        seats: &seats,
        results: &results,
    });
    let rows: Vec<RowModel> = rangliste(
        RanglisteKind::Provisorisch,
        &sheets,
        Wertung::Alle,
        &|_| true,
        crate::domain::mode::Better::Higher,
    )
    .into_iter()
    .map(|row| RowModel {
        nr: row.sheet.startnummer,
        rank: row.rank.map(|r| format!("{r}.")).unwrap_or_default(),
        cells: format!(
            "<td>Team {}</td><td>{}</td><td class=st-{}>",
            row.sheet.startnummer,
            row.total,
            row.status.css()
        ),
    })
    .collect();
    let entered = results.len();
    LiveModel {
        version,
        frame: "1|1|false|Rangliste|Partnerschieber".into(),
        parts: vec![
            (
                "live-progress",
                format!("{entered} / {} Tische erfasst", teams / 2),
            ),
            (
                "podium-box",
                rows.iter().take(3).map(|r| r.cells.clone()).collect(),
            ),
        ],
        sections: vec![SectionModel { ranked: true, rows }],
    }
}

fn result(table: u32, points_a: u32) -> ResultFacts {
    ResultFacts {
        id: ResultId(i32::try_from(table).unwrap()),
        passe: 1,
        table,
        team_a: TeamId(i32::try_from(2 * table - 1).unwrap()),
        team_b: TeamId(i32::try_from(2 * table).unwrap()),
        points_a,
        points_b: 1884 - points_a,
        matches_a: 0,
        matches_b: 0,
        visa_a: None,
        visa_b: None,
        places: None,
    }
}

/// What happens between two versions of the page.
#[derive(Debug, Clone)]
enum Change {
    /// A result at a table without one (points from a small set, so that ties are common).
    Enter(u32, u32),
    /// A correction of an entered result.
    Correct(u32, u32),
    Visa(u32),
}

fn changes() -> impl Strategy<Value = (u32, Vec<Change>)> {
    (2u32..=30).prop_flat_map(|tables| {
        let points = prop_oneof![Just(942u32), Just(0), Just(1884), 0u32..=1884];
        let change = prop_oneof![
            (1..=tables, points.clone()).prop_map(|(t, p)| Change::Enter(t, p)),
            (1..=tables, points).prop_map(|(t, p)| Change::Correct(t, p)),
            (1..=tables).prop_map(Change::Visa),
        ];
        (Just(tables * 2), prop::collection::vec(change, 1..40))
    })
}

fn content(model: &LiveModel) -> HashMap<u32, String> {
    model.sections[0]
        .rows
        .iter()
        .map(|r| (r.nr, r.cells.clone()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Applying the deltas of versions 1…N to the page of version 0 gives the page of
    /// version N, and every step is a delta (never a reset) of the rows that changed.
    #[test]
    fn applying_every_delta_to_the_first_page_gives_the_last((teams, steps) in changes()) {
        let mut results: Vec<ResultFacts> = Vec::new();
        let mut visaed: Vec<bool> = Vec::new();
        let mut previous = model(0, teams, &results, &visaed);
        let mut page = previous.clone();
        for (n, change) in steps.iter().enumerate() {
            match *change {
                Change::Enter(table, points) => {
                    if results.iter().all(|r| r.table != table) {
                        results.push(result(table, points));
                        visaed.push(false);
                    }
                }
                Change::Correct(table, points) => {
                    if let Some(i) = results.iter().position(|r| r.table == table) {
                        results[i] = result(table, points);
                        visaed[i] = false;
                    }
                }
                Change::Visa(table) => {
                    if let Some(i) = results.iter().position(|r| r.table == table) {
                        visaed[i] = true;
                    }
                }
            }
            let next = model(i32::try_from(n).unwrap() + 1, teams, &results, &visaed);
            let delta = diff(&previous, &next);
            prop_assert!(delta.is_some(), "no delta from version {} to {}", n, n + 1);
            let delta = delta.unwrap();
            let (before, after) = (content(&previous), content(&next));
            let changed = after.iter().filter(|(nr, c)| before.get(nr) != Some(c)).count();
            prop_assert!(delta.rows.len() >= changed);
            // Rows that did not change are sent only when they must pass each other.
            prop_assert!(
                delta.rows.len() <= changed * 2,
                "{} rows sent for {} changed", delta.rows.len(), changed
            );
            page = apply(&page, &delta).expect("the delta fits the page");
            prop_assert_eq!(&page, &next);
            previous = next;
        }
    }
}

fn section(rows: &[(u32, &str, &str)]) -> SectionModel {
    SectionModel {
        ranked: true,
        rows: rows
            .iter()
            .map(|&(nr, rank, cells)| RowModel {
                nr,
                rank: rank.into(),
                cells: cells.into(),
            })
            .collect(),
    }
}

fn page(version: i32, frame: &str, rows: &[(u32, &str, &str)]) -> LiveModel {
    LiveModel {
        version,
        frame: frame.into(),
        parts: vec![("updated", format!("v{version}"))],
        sections: vec![section(rows)],
    }
}

#[test]
fn a_team_climbing_sends_its_row_and_the_ranks_it_passed() {
    let old = page(
        1,
        "f",
        &[
            (1, "1.", "a"),
            (2, "2.", "b"),
            (3, "2.", "b"),
            (4, "4.", "c"),
        ],
    );
    let new = page(
        2,
        "f",
        &[
            (4, "1.", "z"),
            (1, "2.", "a"),
            (2, "3.", "b"),
            (3, "3.", "b"),
        ],
    );
    let delta = diff(&old, &new).unwrap();
    assert_eq!(delta.rows, vec![(4, 0, 0, "1.".into(), "z".into())]);
    assert_eq!(
        delta.ranks,
        vec![(0, 1, 4, vec![3])],
        "2. 3. 3.: the last is tied"
    );
    assert_eq!(delta.parts, vec![("updated".into(), "v2".into())]);
    assert_eq!(apply(&old, &delta), Some(new));
    let json = serde_json::to_string(&delta).unwrap();
    assert!(json.len() < 120, "{json}");
}

#[test]
fn another_frame_or_base_means_fetching_the_page() {
    let old = page(1, "f", &[(1, "1.", "a")]);
    assert_eq!(diff(&old, &page(2, "g", &[(1, "1.", "a")])), None);
    let delta = diff(&old, &page(2, "f", &[(1, "1.", "b")])).unwrap();
    assert_eq!(apply(&page(5, "f", &[(1, "1.", "a")]), &delta), None);
}

#[test]
fn ranks_that_are_not_places_are_not_sent_as_a_delta() {
    let old = page(1, "f", &[(1, "1.", "a"), (2, "2.", "b")]);
    let odd = page(2, "f", &[(1, "1.", "a"), (2, "7.", "b")]);
    assert_eq!(diff(&old, &odd), None);
}

#[test]
fn a_team_leaving_is_named() {
    let old = page(1, "f", &[(1, "1.", "a"), (2, "2.", "b"), (3, "3.", "c")]);
    let new = page(2, "f", &[(1, "1.", "a"), (3, "2.", "c")]);
    let delta = diff(&old, &new).unwrap();
    assert_eq!(delta.gone, vec![2]);
    assert!(delta.rows.is_empty());
    assert_eq!(apply(&old, &delta), Some(new));
}
