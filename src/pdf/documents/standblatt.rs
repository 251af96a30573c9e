//! The Standblatt: one A4 page per team (player) with its schedule, results, visa column and
//! the QR code of its page for results from the table.

use crate::pdf::{Align, CONTENT_WIDTH, Document, Header, MARGIN, PAGE_WIDTH, Page, Weight};

pub struct SheetLine {
    pub round: u32,
    pub table: String,
    /// Einzelschieber: the seat (A1 …) and the partner drawn for this Passe.
    pub seat: String,
    pub partner: String,
    pub opponent: String,
    /// Empty on a blank sheet.
    pub points: String,
    /// Struck by the Streichresultat: the points are printed struck through.
    pub struck: bool,
    pub visa: String,
}

pub struct Sheet {
    pub startnummer: u32,
    pub team: String,
    pub players: String,
    pub club: String,
    pub los: String,
    /// Encoded in the QR code: the team's public page (None while public pages are off).
    pub url: Option<String>,
    pub lines: Vec<SheetLine>,
    pub total: String,
    /// The Streichresultat rule under the total ("Gewertet: die 3 besten von 4 Passen").
    pub rule: Option<String>,
    pub final_visa: String,
    /// Einzelschieber: one player's sheet, with seat and partner columns.
    pub player: bool,
    /// Whether a player plays in a pair (Einzelschieber: the partner column); a Differenzler
    /// player sits at a place with three others.
    pub pairs: bool,
    /// The personal code for results from the table (README "Resultate vom Tisch"), printed
    /// under the QR code while table entry is on.
    pub table_code: Option<String>,
}

/// The visa column is the only one 35 mm wide; its handwriting-free text is small.
fn index_of_visa(width: f32) -> bool {
    (width - 35.0).abs() < f32::EPSILON
}

/// The QR modules of `text` (row by row, true = dark) and the side length in modules.
pub fn qr_modules(text: &str) -> Option<(usize, Vec<bool>)> {
    let code =
        qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).ok()?;
    let modules = code
        .to_colors()
        .into_iter()
        .map(|c| c == qrcode::Color::Dark)
        .collect();
    Some((code.width(), modules))
}

/// [`qr_modules`] with one fixed mask instead of the best of eight: any mask is a valid
/// code (the best one only spreads dark and light more evenly), and choosing it was a fifth
/// of the time of a thousand Standblätter. For printed codes in bulk.
pub fn qr_modules_fixed_mask(text: &str) -> Option<(usize, Vec<bool>)> {
    use qrcode::canvas::{Canvas, MaskPattern};
    let level = qrcode::EcLevel::M;
    let bits = qrcode::bits::encode_auto(text.as_bytes(), level).ok()?;
    let version = bits.version();
    let (data, ec) = qrcode::ec::construct_codewords(&bits.into_bytes(), version, level).ok()?;
    let mut canvas = Canvas::new(version, level);
    canvas.draw_all_functional_patterns();
    canvas.draw_data(&data, &ec);
    canvas.apply_mask(MaskPattern::Checkerboard);
    let modules = canvas
        .into_colors()
        .into_iter()
        .map(|c| c == qrcode::Color::Dark)
        .collect();
    Some((usize::try_from(version.width()).ok()?, modules))
}

/// One A4 page per team: for the players to carry from table to table.
pub fn standblaetter(header: Header, round_label: &str, unit: &str, sheets: &[Sheet]) -> Vec<u8> {
    let mut doc = Document::new(header);
    for sheet in sheets {
        let code = sheet.url.as_deref().and_then(qr_modules_fixed_mask);
        standblatt_page(doc.new_page(), round_label, unit, sheet, code);
    }
    doc.finish("Standblätter")
}

/// One team's (player's) Standblatt.
fn standblatt_page(
    page: &mut Page,
    round_label: &str,
    unit: &str,
    sheet: &Sheet,
    code: Option<(usize, Vec<bool>)>,
) {
    {
        page.text(MARGIN, 32.0, 14.0, Weight::Regular, "Standblatt");
        page.text(
            MARGIN,
            54.0,
            40.0,
            Weight::Bold,
            &sheet.startnummer.to_string(),
        );
        page.text_in(
            MARGIN,
            125.0,
            66.0,
            16.0,
            Weight::Bold,
            Align::Left,
            &sheet.team,
        );
        page.text_in(
            MARGIN,
            125.0,
            74.0,
            12.0,
            Weight::Regular,
            Align::Left,
            &sheet.players,
        );
        page.text_in(
            MARGIN,
            125.0,
            81.0,
            10.0,
            Weight::Regular,
            Align::Left,
            &sheet.club,
        );
        if !sheet.los.is_empty() {
            page.text(
                MARGIN,
                88.0,
                11.0,
                Weight::Bold,
                &format!("Los {}", sheet.los),
            );
        }
        if sheet.url.is_none() {
            page.text_in(
                PAGE_WIDTH - MARGIN - 40.0,
                40.0,
                40.0,
                7.0,
                Weight::Regular,
                Align::Center,
                "Öffentliche Seiten aus: kein QR-Code",
            );
        }
        if let Some((width, modules)) = code {
            page.qr(PAGE_WIDTH - MARGIN - 40.0, 22.0, 40.0, width, &modules);
            page.text_in(
                PAGE_WIDTH - MARGIN - 40.0,
                40.0,
                66.0,
                7.0,
                Weight::Regular,
                Align::Center,
                if sheet.player {
                    "Spieler-Seite online"
                } else {
                    "Team-Seite online"
                },
            );
        }
        if let Some(code) = &sheet.table_code {
            let x = PAGE_WIDTH - MARGIN - 48.0;
            page.text_in(
                x,
                56.0,
                72.0,
                7.0,
                Weight::Regular,
                Align::Center,
                "Tisch-Code",
            );
            page.text_in(x, 56.0, 79.0, 13.0, Weight::Bold, Align::Center, code);
        }
        // "Spielrunde" is wider than "Passe": printed in full, the opponent column gives way.
        let round_width = if round_label.chars().count() > 6 {
            30.0
        } else {
            22.0
        };
        let columns: Vec<(&str, f32, Align)> = match (sheet.player, sheet.pairs) {
            (false, _) => vec![
                (round_label, round_width, Align::Center),
                ("Tisch", 18.0, Align::Center),
                ("Gegner", 97.0 - round_width, Align::Left),
                (unit, 30.0, Align::Right),
                ("Visum", 35.0, Align::Center),
            ],
            (true, false) => vec![
                (round_label, 16.0, Align::Center),
                ("Tisch", 14.0, Align::Center),
                ("Platz", 12.0, Align::Center),
                ("Mitspieler", 78.0, Align::Left),
                (unit, 25.0, Align::Right),
                ("Visum", 35.0, Align::Center),
            ],
            // Partner and both opponents need the room: Passe and Tisch are short numbers.
            (true, true) => vec![
                (round_label, 16.0, Align::Center),
                ("Tisch", 14.0, Align::Center),
                ("Sitz", 12.0, Align::Center),
                ("Partner", 38.0, Align::Left),
                ("Gegner", 40.0, Align::Left),
                (unit, 25.0, Align::Right),
                ("Visum", 35.0, Align::Center),
            ],
        };
        let row = 13.0;
        let mut y = 96.0;
        let mut x = MARGIN;
        page.fill(MARGIN, y, CONTENT_WIDTH, 8.0, 0.88);
        for &(title, width, align) in &columns {
            page.text_in(
                x + 1.5,
                width - 3.0,
                y + 5.6,
                10.0,
                Weight::Bold,
                align,
                title,
            );
            x += width;
        }
        y += 8.0;
        for line in &sheet.lines {
            let cells: Vec<String> = match (sheet.player, sheet.pairs) {
                (false, _) => vec![
                    line.round.to_string(),
                    line.table.clone(),
                    line.opponent.clone(),
                    line.points.clone(),
                    line.visa.clone(),
                ],
                (true, false) => vec![
                    line.round.to_string(),
                    line.table.clone(),
                    line.seat.clone(),
                    line.opponent.clone(),
                    line.points.clone(),
                    line.visa.clone(),
                ],
                (true, true) => vec![
                    line.round.to_string(),
                    line.table.clone(),
                    line.seat.clone(),
                    line.partner.clone(),
                    line.opponent.clone(),
                    line.points.clone(),
                    line.visa.clone(),
                ],
            };
            let mut x = MARGIN;
            let points_column = columns.len() - 2;
            for (at, ((_, width, align), text)) in columns.iter().zip(cells).enumerate() {
                page.frame(x, y, *width, row, 0.6);
                let size = match index_of_visa(*width) {
                    true => 8.0,
                    false if *width > 50.0 => 10.0,
                    false if *width > 36.0 => 9.0,
                    false => 12.0,
                };
                page.text_box(
                    x + 1.5,
                    width - 3.0,
                    y,
                    row,
                    size,
                    Weight::Regular,
                    *align,
                    &text,
                );
                if line.struck && at == points_column {
                    page.strike_through(
                        x + 1.5,
                        width - 3.0,
                        y + row / 2.0,
                        size,
                        Weight::Regular,
                        *align,
                        &text,
                    );
                }
                x += width;
            }
            y += row;
        }
        y += 4.0;
        // The total sits under the points column, whatever columns come before it.
        let points_width = columns[columns.len() - 2].1;
        let points_x = MARGIN + 145.0 - points_width;
        page.text(points_x - 20.0, y + 9.0, 13.0, Weight::Bold, "Total");

        page.frame(points_x, y, points_width, row, 1.2);
        page.text_in(
            points_x + 1.5,
            points_width - 3.0,
            y + row * 0.65,
            13.0,
            Weight::Bold,
            Align::Right,
            &sheet.total,
        );
        page.frame(MARGIN + 145.0, y, 35.0, row, 1.2);
        page.text_in(
            MARGIN + 146.5,
            32.0,
            y + row * 0.65,
            9.0,
            Weight::Regular,
            Align::Center,
            &sheet.final_visa,
        );
        page.text_in(
            MARGIN + 145.0,
            35.0,
            y + row + 4.0,
            7.0,
            Weight::Regular,
            Align::Center,
            "Endvisum Kontrolleur",
        );
        let mut notes = y + row + 14.0;
        if let Some(rule) = &sheet.rule {
            page.text(MARGIN, notes, 10.0, Weight::Bold, rule);
            notes += 6.0;
        }
        page.text(MARGIN, notes, 8.0, Weight::Regular, &format!("Nach jeder {round_label} trägt der Schreiber das Resultat ein; ein Kontrolleur prüft und visiert es."));
        page.text(
            MARGIN,
            notes + 4.5,
            8.0,
            Weight::Regular,
            "Nicht visierte oder nicht abgegebene Standblätter bleiben unbewertet.",
        );
    }
}
