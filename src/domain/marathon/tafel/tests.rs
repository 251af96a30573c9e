//! Unit and property tests of the parent module.

use super::*;
use crate::domain::marathon::Trump;
use crate::domain::marathon::quick::parse_quick;
use Side::{A, B};
use Trump::*;
use proptest::prelude::*;

fn spiel(trump: Trump, cards: Cards) -> Spiel {
    Spiel {
        trump,
        cards,
        weis_a: 0,
        weis_b: 0,
        stoeck: None,
        first: None,
        ruling: None,
    }
}
fn pts(trump: Trump, a: u32) -> Spiel {
    spiel(trump, Cards::Points(a))
}

/// A hand-computed Spielrunde of three Partien (numbers as a Schreiber would write them).
fn spielrunde() -> Vec<Spiel> {
    vec![
        // Partie 1
        spiel(Obenabe, Cards::Match(A)), //  1: A +771 (257 × 3)          A 771  B 0     Match A
        pts(Undenufe, 73),               //  2: A +219, B +252            A 990  B 252
        spiel(Schelle, Cards::Match(B)), //  3: Kontermatch B +514        A 990  B 766   Match B
        pts(Rose, 0),                    //  4: B +157                    A 990  B 923
        // 5: Stöck A +20 first → A 1010 reaches the Berg before B's cards (B also ends > 1000)
        Spiel {
            stoeck: Some(A),
            ..pts(Eichel, 40)
        }, // A +60 → 1050, B +117 → 1040   Berg A
        pts(Obenabe, 150), //  6: A +450, B +21   A 1500  B 1061
        pts(Schelle, 100), //  7: A +200, B +114  A 1700  B 1175
        pts(Undenufe, 67), //  8: A +201, B +270  A 1901  B 1445
        pts(Schelle, 20),  //  9: A +40, B +274   A 1941  B 1719
        // 10: B's Weis 150 × 2 = 300 → B 2019 before any card; A would reach 2061 by cards.
        Spiel {
            weis_b: 150,
            ..pts(Schilte, 60)
        }, // B wins the Partie by Weis   Sieg B
        // Partie 2
        spiel(Obenabe, Cards::Match(A)), // 11: A 771                     Match A
        spiel(Obenabe, Cards::Match(A)), // 12: A 1542                    Match A, Berg A
        pts(Schelle, 150),               // 13: A 1842, B 14
        pts(Schilte, 120),               // 14: A 2082, B 88 < 1000       Sieg A, Schneider A
        // Partie 3, unfinished at the gong
        pts(Rose, 50), // 15: A 50, B 107 → Gong B
    ]
}

#[test]
fn a_whole_spielrunde_gives_the_hand_computed_striche() {
    let tafel = compute(&Rules::jassmarathon(), &spielrunde(), true).unwrap();
    let score = |i: usize| tafel.lines[i - 1].score;
    assert_eq!(tafel.lines[0].added, (771, 0), "Match in Obenabe: 257 × 3");
    assert_eq!(score(1), (771, 0));
    assert_eq!(score(2), (990, 252));
    assert_eq!(
        tafel.lines[2].added,
        (0, 514),
        "Kontermatch: 257 × 2, no doubling"
    );
    assert_eq!(score(4), (990, 923));
    assert_eq!(score(5), (1050, 1040));
    assert_eq!(
        tafel.lines[4].events,
        vec![Event::Berg(A)],
        "Stöck decide the Bergpreis"
    );
    assert_eq!(score(9), (1941, 1719));
    assert_eq!(score(10), (2061, 2213));
    assert_eq!(
        tafel.lines[9].events,
        vec![Event::Sieg(B)],
        "Weis before Stich: B wins although A has 2061"
    );
    assert_eq!(tafel.lines[10].partie, 2);
    assert_eq!(
        tafel.lines[11].events,
        vec![Event::Berg(A), Event::Match(A)]
    );
    assert_eq!(score(14), (2082, 88));
    assert_eq!(
        tafel.lines[13].events,
        vec![Event::Sieg(A), Event::Schneider(A)]
    );
    assert_eq!(tafel.open, (50, 107));
    assert_eq!(tafel.gong, Some(B));
    assert_eq!(tafel.finished_partien, 2);
    assert_eq!(
        tafel.a,
        Striche {
            berg: 2,
            sieg: 2,
            schneider: 1,
            matches: 3,
            gong: 0
        }
    );
    assert_eq!(
        tafel.b,
        Striche {
            berg: 0,
            sieg: 2,
            schneider: 0,
            matches: 1,
            gong: 1
        }
    );
    assert_eq!((tafel.a.total(), tafel.b.total()), (8, 4));
}

#[test]
fn without_gong_the_open_partie_writes_nothing() {
    let tafel = compute(&Rules::jassmarathon(), &spielrunde(), false).unwrap();
    assert_eq!(tafel.gong, None);
    assert_eq!(tafel.b.total(), 3);
    let even = compute(
        &Rules::jassmarathon(),
        &[
            pts(Rose, 78),
            Spiel {
                weis_a: 0,
                weis_b: 0,
                ..pts(Rose, 79)
            },
        ],
        true,
    )
    .unwrap();
    assert_eq!(even.open, (157, 157));
    assert_eq!(even.gong, None, "a tie at the gong writes no Strich");
}

#[test]
fn simultaneous_crossing_asks_and_then_follows_the_answer() {
    let rules = Rules::jassmarathon();
    // A level score below the Berg: A 240+231+160+154 = 785, B 231+240+154+160 = 785.
    let level = vec![
        pts(Undenufe, 80),
        pts(Undenufe, 77),
        pts(Schelle, 80),
        pts(Schelle, 77),
    ];
    assert_eq!(compute(&rules, &level, false).unwrap().open, (785, 785));
    // Only one team crosses: no question.
    let mut one = level.clone();
    one.push(pts(Schelle, 120)); // A +240 → 1025, B +74 → 859
    assert_eq!(
        compute(&rules, &one, false).unwrap().lines[4].events,
        vec![Event::Berg(A)]
    );
    let mut crossing = level;
    crossing.push(pts(Obenabe, 78)); // A +234 → 1019, B +237 → 1022: both by card points
    let err = compute(&rules, &crossing, false).unwrap_err();
    assert_eq!(err.line, 5);
    assert!(err.message.contains("zuerst"));
    crossing[4].first = Some(B);
    assert_eq!(
        compute(&rules, &crossing, false).unwrap().lines[4].events,
        vec![Event::Berg(B)]
    );
    crossing[4].first = Some(A);
    assert_eq!(
        compute(&rules, &crossing, false).unwrap().lines[4].events,
        vec![Event::Berg(A)]
    );
}

#[test]
fn invalid_lines_are_refused_with_their_line_number() {
    let rules = Rules::jassmarathon();
    let e = compute(
        &rules,
        &[
            pts(Rose, 10),
            Spiel {
                stoeck: Some(A),
                ..pts(Obenabe, 10)
            },
        ],
        false,
    )
    .unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("Stöck"));
    assert!(
        compute(
            &rules,
            &[Spiel {
                weis_a: 20,
                weis_b: 50,
                ..pts(Rose, 10)
            }],
            false
        )
        .is_err()
    );
    assert!(compute(&rules, &[pts(Rose, 158)], false).is_err());
    assert!(
        compute(
            &rules,
            &[Spiel {
                weis_a: 25,
                ..pts(Rose, 10)
            }],
            false
        )
        .is_err()
    );
}

#[test]
fn a_false_bedanken_gives_the_partie_to_the_opponent() {
    let rules = Rules::jassmarathon();
    // A 600, B 1'200 (Berg B), then A "bedankt" wrongly: the Partie is B's, with Schneider.
    let lines = [
        pts(Rose, 157),
        pts(Rose, 157),
        pts(Rose, 157),
        pts(Rose, 130),
        pts(Obenabe, 0),
        pts(Obenabe, 0),
        pts(Rose, 0),
        Spiel::ruling(Ruling::FalseBedanken(A)),
        pts(Rose, 100),
    ];
    let t = compute(&rules, &lines, false).unwrap();
    assert_eq!(t.lines[7].events, vec![Event::Sieg(B), Event::Schneider(B)]);
    assert_eq!((t.b.sieg, t.b.schneider), (2, 1));
    assert_eq!(t.finished_partien, 1);
    assert_eq!(t.lines[8].partie, 2, "a new Partie starts");
    assert_eq!(t.open, (100, 57));
}

#[test]
fn a_wrongly_claimed_bergpreis_goes_to_the_opponent_once() {
    let rules = Rules::jassmarathon();
    let lines = [
        pts(Rose, 100),
        Spiel::ruling(Ruling::WrongBerg(A)),
        pts(Obenabe, 157),
        pts(Obenabe, 157),
        pts(Obenabe, 157),
    ];
    let t = compute(&rules, &lines, false).unwrap();
    assert_eq!(t.lines[1].events, vec![Event::Berg(B)]);
    assert_eq!(
        (t.a.berg, t.b.berg),
        (0, 1),
        "A reaching 1000 later writes no second Berg"
    );
    let twice = [
        Spiel::ruling(Ruling::WrongBerg(A)),
        Spiel::ruling(Ruling::WrongBerg(B)),
    ];
    let e = compute(&rules, &twice, false).unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn only_weis_totals_that_weis_can_make() {
    for ok in [0, 20, 40, 50, 60, 70, 100, 150, 170, 300, 1000] {
        assert!(possible_weis(ok), "{ok}");
    }
    for impossible in [10, 30, 25, 1010] {
        assert!(!possible_weis(impossible), "{impossible}");
    }
    let line = Spiel {
        trump: Trump::Rose,
        cards: Cards::Points(100),
        weis_a: 30,
        weis_b: 0,
        stoeck: None,
        first: None,
        ruling: None,
    };
    assert!(compute(&Rules::jassmarathon(), &[line], false).is_err());
}

#[test]
fn quick_entry_is_checked_for_plausibility() {
    let rules = Rules::jassmarathon();
    let form = |pairs: &[(&str, &str)]| {
        let mut f = crate::domain::result::ResultForm::default();
        for (k, v) in pairs {
            let v = v.to_string();
            match *k {
                "berg_a" => f.berg_a = v,
                "sieg_a" => f.sieg_a = v,
                "schneider_a" => f.schneider_a = v,
                "match_a" => f.match_a = v,
                "gong_a" => f.gong_a = v,
                "berg_b" => f.berg_b = v,
                "sieg_b" => f.sieg_b = v,
                "gong_b" => f.gong_b = v,
                _ => f.match_b = v,
            }
        }
        f
    };
    let (a, b) = parse_quick(
        &rules,
        &form(&[
            ("berg_a", "2"),
            ("sieg_a", "2"),
            ("schneider_a", "1"),
            ("match_a", "3"),
            ("sieg_b", "2"),
            ("match_b", "1"),
            ("gong_b", "1"),
        ]),
    )
    .unwrap();
    assert_eq!((a.total(), b.total()), (8, 4));
    let e = parse_quick(&rules, &form(&[("sieg_a", "3")])).unwrap_err();
    assert!(e.get("sieg_a").unwrap().contains("Schritten von 2"));
    let e = parse_quick(&rules, &form(&[("schneider_a", "1")])).unwrap_err();
    assert!(
        e.get("schneider_a").is_some(),
        "Schneider only for a Partie winner"
    );
    let e = parse_quick(&rules, &form(&[("berg_a", "1"), ("berg_b", "1")])).unwrap_err();
    assert!(e.get("berg_b").unwrap().contains("Bergpreis pro Partie"));
    let e = parse_quick(&rules, &form(&[("gong_a", "1"), ("gong_b", "1")])).unwrap_err();
    assert!(e.get("gong_b").is_some());
    assert!(parse_quick(&rules, &form(&[("match_a", "-1")])).is_err());
    assert!(parse_quick(&rules, &form(&[("match_a", "x")])).is_err());
}

#[test]
fn a_quick_entry_with_nothing_typed_is_refused_an_explicit_zero_is_a_result() {
    let rules = Rules::jassmarathon();
    let mut blank = crate::domain::result::ResultForm {
        table: "3".into(),
        berg_b: " ".into(),
        ..Default::default()
    };
    let e = parse_quick(&rules, &blank).unwrap_err();
    assert!(
        e.get("berg_a")
            .unwrap()
            .contains("Keine Striche eingegeben"),
        "{e:?}"
    );
    blank.sieg_b = "0".into();
    let (a, b) = parse_quick(&rules, &blank).unwrap();
    assert_eq!((a.total(), b.total()), (0, 0));
}

fn arb_spiel() -> impl Strategy<Value = Spiel> {
    (
        0usize..6,
        prop_oneof![
            (0u32..=157).prop_map(Cards::Points),
            Just(Cards::Match(A)),
            Just(Cards::Match(B))
        ],
        0u32..4,
        any::<bool>(),
        proptest::option::of(prop_oneof![Just(A), Just(B)]),
        proptest::option::of(prop_oneof![Just(A), Just(B)]),
    )
        .prop_map(|(t, cards, weis, weis_side, stoeck, first)| {
            let trump = Trump::ALL[t];
            let weis = [0, 20, 50, 100][weis as usize];
            Spiel {
                trump,
                cards,
                weis_a: if weis_side { weis } else { 0 },
                weis_b: if weis_side { 0 } else { weis },
                stoeck: stoeck.filter(|_| trump.has_stoeck()),
                first: Some(first.unwrap_or(A)),
                ruling: None,
            }
        })
}

proptest! {
    #[test]
    fn card_points_total_157_or_257(cards in prop_oneof![(0u32..=157).prop_map(Cards::Points), Just(Cards::Match(A)), Just(Cards::Match(B))]) {
        let (a, b) = card_points(cards, 100);
        prop_assert!(a + b == 157 || a + b == 257);
        prop_assert_eq!(a + b == 257, matches!(cards, Cards::Match(_)));
    }

    #[test]
    fn a_correction_recomputes_like_from_scratch(lines in proptest::collection::vec(arb_spiel(), 1..40), k in 0usize..40, fix in arb_spiel()) {
        let rules = Rules::jassmarathon();
        let k = k % lines.len();
        let mut corrected = lines.clone();
        corrected[k] = fix;
        let full = compute(&rules, &corrected, true).unwrap();
        // Lines before the correction are untouched, and the result equals a fresh computation.
        let before = compute(&rules, &lines[..k], false).unwrap();
        prop_assert_eq!(&full.lines[..k], &before.lines[..]);
        prop_assert_eq!(full, compute(&rules, &corrected.clone(), true).unwrap());
    }

    #[test]
    fn striche_follow_the_events(lines in proptest::collection::vec(arb_spiel(), 1..60), gong in any::<bool>()) {
        let rules = Rules::jassmarathon();
        let t = compute(&rules, &lines, gong).unwrap();
        let count = |f: &dyn Fn(&Event) -> bool| t.lines.iter().flat_map(|l| &l.events).filter(|e| f(e)).count() as u32;
        prop_assert_eq!(t.a.sieg, 2 * count(&|e| *e == Event::Sieg(A)));
        prop_assert_eq!(t.b.matches, count(&|e| *e == Event::Match(B)));
        prop_assert_eq!(t.finished_partien, count(&|e| matches!(e, Event::Sieg(_))));
        // At most one Bergpreis per Partie; Schneider only for the Partie winner.
        let bergs = count(&|e| matches!(e, Event::Berg(_)));
        prop_assert!(bergs <= t.finished_partien + 1);
        for l in &t.lines {
            for e in &l.events {
                if let Event::Schneider(s) = e {
                    prop_assert!(l.events.contains(&Event::Sieg(*s)));
                }
            }
        }
        prop_assert!(t.a.gong + t.b.gong <= 1);
    }
}

#[test]
fn a_tafel_holds_the_spiele_of_one_spielrunde_and_no_more() {
    let rules = Rules::jassmarathon();
    assert_eq!(rules.most_spiele(), 60);
    let full: Vec<Spiel> = (0..60).map(|_| pts(Rose, 157)).collect();
    if let Err(e) = compute(&rules, &full, true) {
        panic!("{}: {}", e.line, e.message);
    }
    let over: Vec<Spiel> = (0..61).map(|_| pts(Rose, 157)).collect();
    let error = compute(&rules, &over, false).unwrap_err();
    assert_eq!(error.line, 61);
    assert!(
        error.message.contains("höchstens 60 Spiele"),
        "{}",
        error.message
    );
}

#[test]
fn a_line_sent_twice_is_written_once() {
    let tafel = vec![pts(Rose, 80), pts(Schelle, 100)];
    let third = pts(Obenabe, 60);
    assert_eq!(new_line(&tafel, &third, Some(3)), NewLine::Append);
    assert_eq!(new_line(&tafel, &third, None), NewLine::Append);
    // The second Spiel sent again (its answer was lost): already there.
    assert_eq!(
        new_line(&tafel, &pts(Schelle, 100), Some(2)),
        NewLine::AlreadyThere
    );
    // Another Spiel as the second, or a line beyond the next: the Tafel changed meanwhile.
    assert_eq!(
        new_line(&tafel, &pts(Schelle, 99), Some(2)),
        NewLine::Changed { lines: 2 }
    );
    assert_eq!(
        new_line(&tafel, &third, Some(5)),
        NewLine::Changed { lines: 2 }
    );
    assert_eq!(
        new_line(&tafel, &third, Some(0)),
        NewLine::Changed { lines: 2 }
    );
}
