//! The live page as data, and the difference between two versions of it.
//!
//! An entered result changes two teams' rows, the progress line and the ranks of the rows
//! between the old and the new places of those teams (hundreds of them in a big field). So
//! an update sends a [`Delta`]: the changed rows rendered on the server with their new
//! positions, the changed fragments (progress, podium, clock), and, per section, the range
//! of positions to relabel with the positions that share the rank of the row above. The
//! browser moves rows and writes ranks; it never ranks anything itself. Whatever a delta
//! cannot express (a new Passe column, a new section, the official Rangliste) changes the
//! page's [`LiveModel::frame`], and then the browser fetches the page.
//!
//! [`diff`] only returns a delta that [`apply`] turns back into the new page exactly (it
//! checks); the browser's script applies the same steps.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveModel {
    pub version: i32,
    /// What no delta changes: the columns, the sections, provisional or official. Two
    /// versions with different frames are bridged by fetching the page.
    pub frame: String,
    /// Small fragments of the page by element id (their inner HTML).
    pub parts: Vec<(&'static str, String)>,
    pub sections: Vec<SectionModel>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionModel {
    pub ranked: bool,
    pub rows: Vec<RowModel>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowModel {
    /// The team's Startnummer.
    pub nr: u32,
    /// "12." or empty outside the ranked section.
    pub rank: String,
    /// The row's cells after the rank, as HTML.
    pub cells: String,
}

impl RowModel {
    /// The whole table row, as the page prints it and the browser rebuilds it.
    pub fn html(&self) -> String {
        format!(
            r#"<tr id="t-{nr}" data-team="{nr}" class="row"><td>{rank}</td>{cells}</tr>"#,
            nr = self.nr,
            rank = self.rank,
            cells = self.cells
        )
    }
}

impl LiveModel {
    pub fn part(&self, id: &str) -> &str {
        self.parts
            .iter()
            .find(|(key, _)| *key == id)
            .map_or("", |(_, html)| html.as_str())
    }
}

/// One row as a delta sends it: Startnummer, section, position, rank, cells.
pub type DeltaRow = (u32, usize, usize, String, String);

/// Ranks to rewrite in one section: positions `from..to`; a position listed in `tied`
/// shares the rank of the row above, every other one is ranked by its place (`p + 1`).
pub type RankRange = (usize, usize, usize, Vec<usize>);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    pub v: i32,
    pub base: i32,
    pub parts: Vec<(String, String)>,
    /// Changed and new rows, in ascending (section, position).
    pub rows: Vec<DeltaRow>,
    /// Teams no longer on the page.
    pub gone: Vec<u32>,
    pub ranks: Vec<RankRange>,
}

/// The delta from `old` to `new`, or None when the page must be fetched (another frame).
pub fn diff(old: &LiveModel, new: &LiveModel) -> Option<Delta> {
    if old.frame != new.frame
        || old.sections.len() != new.sections.len()
        || old
            .sections
            .iter()
            .zip(&new.sections)
            .any(|(a, b)| a.ranked != b.ranked)
        || old
            .parts
            .iter()
            .map(|p| p.0)
            .ne(new.parts.iter().map(|p| p.0))
    {
        return None;
    }
    let parts = old
        .parts
        .iter()
        .zip(&new.parts)
        .filter(|(a, b)| a.1 != b.1)
        .map(|(_, (id, html))| ((*id).to_string(), html.clone()))
        .collect();
    let before: HashMap<u32, (usize, &str)> = rows_by_team(old)
        .map(|(s, _, row)| (row.nr, (s, row.cells.as_str())))
        .collect();
    let now: HashSet<u32> = rows_by_team(new).map(|(_, _, row)| row.nr).collect();
    let gone: Vec<u32> = rows_by_team(old)
        .map(|(_, _, row)| row.nr)
        .filter(|nr| !now.contains(nr))
        .collect();
    let mut changed: HashSet<u32> = rows_by_team(new)
        .filter(|(s, _, row)| before.get(&row.nr) != Some(&(*s, row.cells.as_str())))
        .map(|(_, _, row)| row.nr)
        .collect();
    // Rows whose content did not change keep their order among themselves when the ranking
    // is a strict order of what the rows show; should two of them swap anyway, they are sent
    // too (each round adds at least one row, so this ends).
    let moved = loop {
        let delta = Delta {
            v: new.version,
            base: old.version,
            parts: Vec::new(),
            rows: delta_rows(new, &changed),
            gone: gone.clone(),
            ranks: Vec::new(),
        };
        let moved = apply(old, &delta)?;
        let misplaced: Vec<u32> = moved
            .sections
            .iter()
            .zip(&new.sections)
            .flat_map(|(a, b)| {
                a.rows
                    .iter()
                    .zip(&b.rows)
                    .filter(|(x, y)| x.nr != y.nr)
                    .map(|(_, y)| y.nr)
            })
            .collect();
        if misplaced.is_empty() {
            break moved;
        }
        changed.extend(misplaced);
    };
    let mut ranks = Vec::new();
    for (s, (a, b)) in moved.sections.iter().zip(&new.sections).enumerate() {
        let differing: Vec<usize> = a
            .rows
            .iter()
            .zip(&b.rows)
            .enumerate()
            .filter(|(_, (x, y))| x.rank != y.rank)
            .map(|(p, _)| p)
            .collect();
        let (Some(&from), Some(&last)) = (differing.first(), differing.last()) else {
            continue;
        };
        let tied = (from.max(1)..=last)
            .filter(|&p| b.rows[p].rank == b.rows[p - 1].rank)
            .collect();
        ranks.push((s, from, last + 1, tied));
    }
    let delta = Delta {
        v: new.version,
        base: old.version,
        parts,
        rows: delta_rows(new, &changed),
        gone,
        ranks,
    };
    // Only a delta that reproduces the page is sent (ranks that are not places, e.g.).
    (apply(old, &delta).as_ref() == Some(new)).then_some(delta)
}

fn rows_by_team(model: &LiveModel) -> impl Iterator<Item = (usize, usize, &RowModel)> {
    model
        .sections
        .iter()
        .enumerate()
        .flat_map(|(s, section)| section.rows.iter().enumerate().map(move |(p, r)| (s, p, r)))
}

fn delta_rows(new: &LiveModel, changed: &HashSet<u32>) -> Vec<DeltaRow> {
    rows_by_team(new)
        .filter(|(_, _, row)| changed.contains(&row.nr))
        .map(|(s, p, row)| (row.nr, s, p, row.rank.clone(), row.cells.clone()))
        .collect()
}

/// The page after `delta`, or None when the delta does not fit it (another base version,
/// unknown parts or positions). `static/live.js` does the same steps on the page itself.
pub fn apply(old: &LiveModel, delta: &Delta) -> Option<LiveModel> {
    if delta.base != old.version {
        return None;
    }
    let mut model = old.clone();
    model.version = delta.v;
    for (id, html) in &delta.parts {
        let slot = model.parts.iter_mut().find(|(key, _)| key == id)?;
        slot.1.clone_from(html);
    }
    let leaving: HashSet<u32> = delta
        .rows
        .iter()
        .map(|row| row.0)
        .chain(delta.gone.iter().copied())
        .collect();
    for section in &mut model.sections {
        section.rows.retain(|row| !leaving.contains(&row.nr));
    }
    for (nr, s, p, rank, cells) in &delta.rows {
        let rows = &mut model.sections.get_mut(*s)?.rows;
        if *p > rows.len() {
            return None;
        }
        rows.insert(
            *p,
            RowModel {
                nr: *nr,
                rank: rank.clone(),
                cells: cells.clone(),
            },
        );
    }
    for (s, from, to, tied) in &delta.ranks {
        let rows = &mut model.sections.get_mut(*s)?.rows;
        if *to > rows.len() {
            return None;
        }
        for p in *from..*to {
            rows[p].rank = if tied.contains(&p) {
                rows.get(p.checked_sub(1)?)?.rank.clone()
            } else {
                format!("{}.", p + 1)
            };
        }
    }
    Some(model)
}

#[cfg(test)]
mod tests;
