//! de-CH presentation of numbers and dates: `1'884`, `22.11.2026`.

use chrono::{NaiveDate, NaiveDateTime};

/// Formats an integer with the Swiss thousands separator (apostrophe).
pub fn number(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    format!("{sign}{}", grouped(&value.unsigned_abs().to_string()))
}

/// A count (of teams, sheets, …) as [`number`] writes it.
pub fn count(n: usize) -> String {
    grouped(&n.to_string())
}

/// Digits with an apostrophe between each group of three from the right.
fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\'');
        }
        out.push(ch);
    }
    out
}

pub fn date(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

pub fn date_time(dt: NaiveDateTime) -> String {
    dt.format("%d.%m.%Y %H:%M").to_string()
}

/// A download's file name from its parts ("Tischliste", "Passe 2", the tournament's name):
/// telling in the download folder, and plain ASCII for every browser and system (umlauts as
/// ae/oe/ue, other accents dropped, spaces as `-`, nothing that a file system refuses).
pub fn file_name(parts: &[&str], extension: &str) -> String {
    let mut name = String::new();
    for part in parts {
        let mut word = String::new();
        for c in part.chars() {
            match c {
                'ä' => word.push_str("ae"),
                'ö' => word.push_str("oe"),
                'ü' => word.push_str("ue"),
                'Ä' => word.push_str("Ae"),
                'Ö' => word.push_str("Oe"),
                'Ü' => word.push_str("Ue"),
                'ß' => word.push_str("ss"),
                c if c.is_ascii_alphanumeric() => word.push(c),
                c if c.is_whitespace() || "-_.,/·:".contains(c) => {
                    if !word.is_empty() && !word.ends_with('-') {
                        word.push('-');
                    }
                }
                c => word.extend(
                    super::collation::sort_key(&c.to_string())
                        .chars()
                        .filter(|c| c.is_ascii_alphanumeric()),
                ),
            }
        }
        let word = word.trim_matches('-');
        if !word.is_empty() {
            if !name.is_empty() {
                name.push('_');
            }
            name.push_str(word);
        }
    }
    let name: String = name.chars().take(100).collect();
    format!(
        "{}.{extension}",
        if name.is_empty() {
            "jassturnier"
        } else {
            &name
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_telling_and_plain() {
        assert_eq!(
            file_name(&["Tischliste", "Passe 2", "Herbstturnier Zürich"], "pdf"),
            "Tischliste_Passe-2_Herbstturnier-Zuerich.pdf"
        );
        assert_eq!(
            file_name(&["Standblatt 14", "Café «Schöni» / Bärn"], "pdf"),
            "Standblatt-14_Cafe-Schoeni-Baern.pdf"
        );
        assert_eq!(file_name(&["", "\"/\\"], "csv"), "jassturnier.csv");
    }

    #[test]
    fn numbers_use_apostrophe_groups() {
        assert_eq!(number(0), "0");
        assert_eq!(number(157), "157");
        assert_eq!(number(1884), "1'884");
        assert_eq!(number(1_000_000), "1'000'000");
        assert_eq!(number(-7536), "-7'536");
        assert_eq!(count(0), "0");
        assert_eq!(count(5_000), "5'000");
        assert_eq!(count(usize::MAX), "18'446'744'073'709'551'615");
    }

    #[test]
    fn dates_are_swiss() {
        let d = NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
        assert_eq!(date(d), "22.11.2026");
        assert_eq!(
            date_time(d.and_hms_opt(9, 5, 0).unwrap()),
            "22.11.2026 09:05"
        );
    }
}
