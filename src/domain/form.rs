//! Field-level error messages, shown next to the form field they belong to.

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FieldErrors(Vec<(&'static str, String)>);

impl FieldErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn single(field: &'static str, message: impl Into<String>) -> Self {
        let mut errors = Self::new();
        errors.add(field, message);
        errors
    }

    pub fn add(&mut self, field: &'static str, message: impl Into<String>) {
        self.0.push((field, message.into()));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The message for one field, for rendering next to it.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, message)| message.as_str())
    }

    /// Every message of one field (a list of lines may have several).
    pub fn all(&self, field: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(name, _)| *name == field)
            .map(|(_, message)| message.as_str())
            .collect()
    }

    pub fn messages(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(_, message)| message.as_str())
    }

    /// The same messages under other field names (a form that asks differently).
    pub fn renamed(self, name: impl Fn(&'static str) -> &'static str) -> Self {
        FieldErrors(self.0.into_iter().map(|(f, m)| (name(f), m)).collect())
    }

    /// Ok(value) when no error was collected.
    pub fn into_result<T>(self, value: impl FnOnce() -> T) -> Result<T, FieldErrors> {
        if self.is_empty() {
            Ok(value())
        } else {
            Err(self)
        }
    }
}

/// Parses a whole number in `min..=max`; the message names the field in German.
pub fn parse_number(
    errors: &mut FieldErrors,
    field: &'static str,
    label: &str,
    raw: &str,
    min: u32,
    max: u32,
) -> Option<u32> {
    let cleaned: String = raw.trim().chars().filter(|c| *c != '\'').collect();
    if cleaned.is_empty() {
        errors.add(field, format!("{label}: bitte eine Zahl eingeben."));
        return None;
    }
    if cleaned.starts_with('-') && cleaned[1..].chars().all(|c| c.is_ascii_digit()) {
        errors.add(
            field,
            format!("{label}: negative Zahlen sind nicht erlaubt."),
        );
        return None;
    }
    if !cleaned.chars().all(|c| c.is_ascii_digit()) {
        errors.add(
            field,
            format!("{label}: «{}» ist keine ganze Zahl.", raw.trim()),
        );
        return None;
    }
    match cleaned.parse::<u64>() {
        Ok(n) if n >= u64::from(min) && n <= u64::from(max) => Some(n as u32),
        _ => {
            errors.add(
                field,
                format!(
                    "{label}: muss zwischen {} und {} liegen.",
                    super::format::number(i64::from(min)),
                    super::format::number(i64::from(max))
                ),
            );
            None
        }
    }
}

/// Trims a free-text field and enforces a maximum length; empty gives None.
pub fn parse_text(
    errors: &mut FieldErrors,
    field: &'static str,
    label: &str,
    raw: &str,
    max_chars: usize,
) -> Option<String> {
    let trimmed = raw.trim();
    if trimmed.chars().count() > max_chars {
        errors.add(field, format!("{label}: höchstens {max_chars} Zeichen."));
        return None;
    }
    if trimmed.chars().any(|c| c.is_control()) {
        errors.add(field, format!("{label}: enthält unerlaubte Steuerzeichen."));
        return None;
    }
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// Like [`parse_text`] but the field must not be empty.
pub fn parse_required_text(
    errors: &mut FieldErrors,
    field: &'static str,
    label: &str,
    raw: &str,
    max_chars: usize,
) -> Option<String> {
    let before = errors.0.len();
    let value = parse_text(errors, field, label, raw, max_chars);
    if value.is_none() && errors.0.len() == before {
        errors.add(field, format!("{label}: darf nicht leer sein."));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_with_messages() {
        let mut e = FieldErrors::new();
        assert_eq!(parse_number(&mut e, "x", "Passen", " 4 ", 1, 30), Some(4));
        assert_eq!(
            parse_number(&mut e, "x", "Punkte", "1'884", 0, 1884),
            Some(1884)
        );
        assert!(e.is_empty());
        assert_eq!(parse_number(&mut e, "a", "Passen", "", 1, 30), None);
        assert_eq!(parse_number(&mut e, "b", "Passen", "-3", 1, 30), None);
        assert_eq!(parse_number(&mut e, "c", "Passen", "vier", 1, 30), None);
        assert_eq!(parse_number(&mut e, "d", "Passen", "31", 1, 30), None);
        assert_eq!(
            parse_number(&mut e, "e", "Passen", "99999999999999999999", 1, 30),
            None
        );
        assert!(e.get("a").unwrap().contains("Zahl"));
        assert!(e.get("b").unwrap().contains("negativ"));
        assert!(e.get("c").unwrap().contains("«vier»"));
        assert!(e.get("d").unwrap().contains("zwischen 1 und 30"));
        assert!(e.get("e").is_some());
        // The bounds are written as everywhere in the app (1'884, not 1884).
        assert_eq!(parse_number(&mut e, "f", "Punkte", "1885", 0, 1884), None);
        assert!(
            e.get("f").unwrap().contains("zwischen 0 und 1'884"),
            "{:?}",
            e.get("f")
        );
    }

    #[test]
    fn text_is_trimmed_and_bounded() {
        let mut e = FieldErrors::new();
        assert_eq!(
            parse_text(&mut e, "n", "Name", "  Bär  ", 10),
            Some("Bär".into())
        );
        assert_eq!(parse_text(&mut e, "n", "Name", "   ", 10), None);
        assert!(e.is_empty());
        assert_eq!(parse_required_text(&mut e, "r", "Name", " ", 10), None);
        assert!(e.get("r").unwrap().contains("leer"));
        assert_eq!(parse_text(&mut e, "l", "Name", "äöüäöüäöüäöü", 10), None);
        assert!(e.get("l").unwrap().contains("10 Zeichen"));
    }
}
