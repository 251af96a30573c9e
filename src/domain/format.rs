//! de-CH presentation of numbers and dates: `1'884`, `22.11.2026`.

use chrono::{NaiveDate, NaiveDateTime};

/// Formats an integer with the Swiss thousands separator (apostrophe).
pub fn number(value: i64) -> String {
    let digits = value.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if value < 0 {
        out.push('-');
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_use_apostrophe_groups() {
        assert_eq!(number(0), "0");
        assert_eq!(number(157), "157");
        assert_eq!(number(1884), "1'884");
        assert_eq!(number(1_000_000), "1'000'000");
        assert_eq!(number(-7536), "-7'536");
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
