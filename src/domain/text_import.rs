//! Decoding of uploaded CSV files the way Swiss offices produce them:
//! UTF-8 (with or without BOM) or Windows-1252 (Excel), `;` or `,` as delimiter.

/// One problem of an import, with the 1-based line number of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub line: usize,
    pub message: String,
}

impl ImportError {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

/// Bytes that Windows-1252 leaves undefined; a file containing them is not Windows-1252 text.
const CP1252_UNDEFINED: [u8; 5] = [0x81, 0x8D, 0x8F, 0x90, 0x9D];

pub fn decode(bytes: &[u8]) -> Result<String, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.contains(&0) {
        return Err(ImportError::new(
            1,
            "Die Datei ist keine Textdatei in UTF-8 oder Windows-1252 (enthält Null-Bytes, z. B. UTF-16).",
        ));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => {
            if let Some(pos) = bytes.iter().position(|b| CP1252_UNDEFINED.contains(b)) {
                let line = 1 + bytes[..pos].iter().filter(|b| **b == b'\n').count();
                return Err(ImportError::new(
                    line,
                    "Unbekannte Zeichenkodierung: weder UTF-8 noch Windows-1252.",
                ));
            }
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            text.into_owned()
        }
    };
    if let Some((index, _)) = text.lines().enumerate().find(|(_, line)| {
        line.chars()
            .any(|c| c.is_control() && c != '\t' && c != '\r')
    }) {
        return Err(ImportError::new(
            index + 1,
            "Die Zeile enthält unerlaubte Steuerzeichen.",
        ));
    }
    Ok(text)
}

/// `;` when the header has more semicolons than commas, else `,`.
pub fn detect_delimiter(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or("");
    let semicolons = header.matches(';').count();
    let commas = header.matches(',').count();
    if semicolons >= commas && semicolons > 0 {
        b';'
    } else {
        b','
    }
}

/// A header (lower-cased) and the data records with their line numbers.
pub type Records = (Vec<String>, Vec<(usize, Vec<String>)>);

/// Reads the records of a decoded file. Each record comes with its line number;
/// the header is returned lower-cased and trimmed.
/// Line numbers of byte positions met in increasing order: each newline is counted once, so
/// a long file costs no more than reading it.
struct Lines<'a> {
    bytes: &'a [u8],
    counted_to: usize,
    newlines: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines {
            bytes: text.as_bytes(),
            counted_to: 0,
            newlines: 0,
        }
    }

    /// The 1-based line of the record at `byte` (line breaks before it belong to it).
    fn line_at(&mut self, byte: u64) -> usize {
        let bytes = self.bytes;
        let mut end = (byte as usize).min(bytes.len());
        while end < bytes.len() && (bytes[end] == b'\n' || bytes[end] == b'\r') {
            end += 1;
        }
        let count = |range: &[u8]| range.iter().filter(|b| **b == b'\n').count();
        if end < self.counted_to {
            return 1 + count(&bytes[..end]);
        }
        self.newlines += count(&bytes[self.counted_to..end]);
        self.counted_to = end;
        1 + self.newlines
    }
}

pub fn read_records(text: &str) -> Result<Records, ImportError> {
    if text.trim().is_empty() {
        return Err(ImportError::new(1, "Die Datei ist leer."));
    }
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(detect_delimiter(text))
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut header = None;
    let mut rows = Vec::new();
    let mut lines = Lines::new(text);
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map(|p| lines.line_at(p.byte())).unwrap_or(1);
            ImportError::new(line, format!("Die Zeile ist kein gültiges CSV: {e}"))
        })?;
        let line = record
            .position()
            .map(|p| lines.line_at(p.byte()))
            .unwrap_or(1);
        let fields: Vec<String> = record.iter().map(|f| f.trim().to_string()).collect();
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        if header.is_none() {
            header = Some(fields.iter().map(|f| f.to_lowercase()).collect());
        } else {
            rows.push((line, fields));
        }
    }
    let header = header.ok_or_else(|| ImportError::new(1, "Die Datei ist leer."))?;
    Ok((header, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_bom_and_windows_1252_are_decoded() {
        assert_eq!(decode("\u{feff}Zürich".as_bytes()).unwrap(), "Zürich");
        assert_eq!(
            decode(b"Z\xfcrich;M\xfcller;B\xe4r").unwrap(),
            "Zürich;Müller;Bär"
        );
    }

    #[test]
    fn binary_and_undefined_bytes_are_rejected() {
        assert!(decode(b"a\0b").is_err());
        let e = decode(b"nr;team\n1;\x81x").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn delimiter_follows_the_header() {
        assert_eq!(detect_delimiter("nr;team;spieler1\n1,2"), b';');
        assert_eq!(detect_delimiter("nr,team,spieler1"), b',');
    }

    #[test]
    fn records_carry_line_numbers_and_skip_blank_lines() {
        let (header, rows) = read_records("Nr;Team\n\n1;\"A;B\"\n2;C\n").unwrap();
        assert_eq!(header, vec!["nr", "team"]);
        assert_eq!(rows[0], (3, vec!["1".to_string(), "A;B".to_string()]));
        assert_eq!(rows[1].0, 4);
        assert!(read_records("  \n").is_err());
    }
}
