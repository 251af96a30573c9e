//! A small A4 layout layer over printpdf: mm coordinates from the top-left, text with
//! measured widths (right-aligned numbers), lines, boxes, tables with a repeated header,
//! and a page header/footer ("Seite 3 von 12"). The font is DejaVu Sans shipped in
//! `static/fonts/`, embedded as a subset so umlauts print the same on every machine.

pub mod documents;
pub mod table;
pub mod tafel;
mod thread;

pub use thread::render;

use printpdf::{
    Color, FontId, ImageCompression, ImageOptimizationOptions, Line, LinePoint, Mm, Op, ParsedFont,
    PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, RawImage, RawImageData,
    RawImageFormat, Rect, Rgb, TextItem, XObject, XObjectId, XObjectTransform,
};
use std::sync::OnceLock;

pub const PAGE_WIDTH: f32 = 210.0;
pub const PAGE_HEIGHT: f32 = 297.0;
pub const MARGIN: f32 = 15.0;
/// Where the content starts below the running header, and ends above the footer.
pub const CONTENT_TOP: f32 = 24.0;
/// The width between the margins.
pub const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;
pub const CONTENT_BOTTOM: f32 = PAGE_HEIGHT - 16.0;

const PT_PER_MM: f32 = 72.0 / 25.4;

static REGULAR: &[u8] = include_bytes!("../../static/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../static/fonts/DejaVuSans-Bold.ttf");

struct Fonts {
    regular: ParsedFont,
    bold: ParsedFont,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    // The fonts are part of the binary; failing to parse them is a build defect (and the
    // font test fails).
    #[allow(clippy::expect_used)]
    FONTS.get_or_init(|| Fonts {
        regular: ParsedFont::from_bytes(REGULAR, 0, &mut Vec::new())
            .expect("DejaVuSans.ttf parses"),
        bold: ParsedFont::from_bytes(BOLD, 0, &mut Vec::new()).expect("DejaVuSans-Bold.ttf parses"),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
    Center,
}

/// Width of `text` in mm at `size` pt.
pub fn text_width(text: &str, size: f32, weight: Weight) -> f32 {
    let font = match weight {
        Weight::Regular => &fonts().regular,
        Weight::Bold => &fonts().bold,
    };
    let units = f32::from(font.font_metrics.units_per_em.max(1));
    let advance: u32 = text
        .chars()
        .map(|c| {
            font.lookup_glyph_index(c as u32)
                .map(|g| u32::from(font.get_horizontal_advance(g)))
                .unwrap_or(0)
        })
        .sum();
    advance as f32 / units * size / PT_PER_MM
}

/// How far [`Page::text_in`] shrinks a text before it shortens it.
const MIN_SHRINK: f32 = 0.6;

fn pt(mm: f32) -> Pt {
    Pt(mm * PT_PER_MM)
}

fn point(x: f32, y_from_top: f32) -> Point {
    Point {
        x: pt(x),
        y: pt(PAGE_HEIGHT - y_from_top),
    }
}

fn grey(level: f32) -> Color {
    Color::Rgb(Rgb {
        r: level,
        g: level,
        b: level,
        icc_profile: None,
    })
}

/// One page being drawn, in mm from the top-left corner.
pub struct Page {
    ops: Vec<Op>,
    /// Images the ops draw (QR codes), by the id the ops use.
    images: Vec<(XObjectId, RawImage)>,
    /// The font and stroke set last: PDF keeps them from one text or line to the next, so
    /// they are written only when they change (a thousand Standblätter hold half as many
    /// operations). The fill colour is always black except inside [`Page::fill`].
    font: Option<(Weight, f32)>,
    stroke: Option<f32>,
}

impl Page {
    fn new() -> Self {
        Page {
            ops: Vec::new(),
            images: Vec::new(),
            font: None,
            stroke: None,
        }
    }

    /// Black lines of `thickness` from here on.
    fn stroke(&mut self, thickness: f32) {
        if self.stroke.is_none() {
            self.ops.push(Op::SetOutlineColor { col: grey(0.0) });
        }
        if self.stroke != Some(thickness) {
            self.ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
            self.stroke = Some(thickness);
        }
    }

    pub fn text(&mut self, x: f32, y: f32, size: f32, weight: Weight, text: &str) {
        if text.is_empty() {
            return;
        }
        self.ops.push(Op::StartTextSection);
        if self.font != Some((weight, size)) {
            let font = match weight {
                Weight::Regular => FONT_REGULAR,
                Weight::Bold => FONT_BOLD,
            };
            self.ops.push(Op::SetFont {
                font: PdfFontHandle::External(FontId(font.into())),
                size: Pt(size),
            });
            self.font = Some((weight, size));
        }
        self.ops.extend([
            Op::SetTextCursor { pos: point(x, y) },
            Op::ShowText {
                items: vec![TextItem::Text(text.to_string())],
            },
            Op::EndTextSection,
        ]);
    }

    /// Text aligned within [x, x + width].
    // Position, box, size, weight and alignment are what a layout primitive takes.
    #[allow(clippy::too_many_arguments)]
    pub fn text_in(
        &mut self,
        x: f32,
        width: f32,
        y: f32,
        size: f32,
        weight: Weight,
        align: Align,
        text: &str,
    ) {
        // A text that is too wide shrinks to fit: a name or a "Pauschale" prints whole,
        // never shortened with "…".
        let full = text_width(text, size, weight);
        let size = if full > width && full > 0.0 {
            size * width / full
        } else {
            size
        };
        let w = text_width(text, size, weight);
        let left = match align {
            Align::Left => x,
            Align::Right => x + width - w,
            Align::Center => x + (width - w) / 2.0,
        };
        self.text(left, y, size, weight, text);
    }

    /// A line through a one-line text placed in `width` from `x` (as [`Page::text_box`] or
    /// [`Page::text_in`] place it), at the height `middle` of the text: a Passe the
    /// Streichresultat does not count.
    #[allow(clippy::too_many_arguments)]
    pub fn strike_through(
        &mut self,
        x: f32,
        width: f32,
        middle: f32,
        size: f32,
        weight: Weight,
        align: Align,
        text: &str,
    ) {
        let w = text_width(text, size, weight).min(width);
        let left = match align {
            Align::Left => x,
            Align::Right => x + width - w,
            Align::Center => x + (width - w) / 2.0,
        };
        self.line(left - 0.5, middle, left + w + 0.5, middle, 0.4);
    }

    /// Writes `text` into a box (`top` and `height` in mm) without cutting it: one line,
    /// shrunk down to 60 % if needed; else two lines split at the space nearest the middle,
    /// shrunk to fit the box. Names are never shortened with "…".
    #[allow(clippy::too_many_arguments)]
    pub fn text_box(
        &mut self,
        x: f32,
        width: f32,
        top: f32,
        height: f32,
        size: f32,
        weight: Weight,
        align: Align,
        text: &str,
    ) {
        let line_mm = |size: f32| size / PT_PER_MM * 1.2;
        let single_fits = |size: f32| text_width(text, size, weight) <= width;
        let place = |page: &mut Page, line: &str, size: f32, baseline: f32| {
            let w = text_width(line, size, weight);
            let left = match align {
                Align::Left => x,
                Align::Right => x + width - w,
                Align::Center => x + (width - w) / 2.0,
            };
            page.text(left, baseline, size, weight, line);
        };
        let single_size = {
            let full = text_width(text, size, weight);
            if full > width && full > 0.0 {
                size * width / full
            } else {
                size
            }
        };
        // A line break in the text is where it goes onto the second line.
        let forced = text.find('\n');
        let split = forced.or_else(|| {
            text.char_indices()
                .filter(|(_, c)| *c == ' ')
                .map(|(i, _)| i)
                .min_by_key(|i| i.abs_diff(text.len() / 2))
        });
        match split {
            Some(at) if forced.is_some() || !single_fits(size * MIN_SHRINK) => {
                let (first, second) = (text[..at].trim_end(), text[at..].trim_start());
                let by_height = (height * 0.9 / 2.0) / line_mm(1.0);
                let fitted = |line: &str| {
                    let w = text_width(line, size, weight);
                    let by_width = if w > width { size * width / w } else { size };
                    by_width.min(by_height).min(size)
                };
                // A text wrapped here keeps one size; lines the caller broke are two things
                // (the two pairs of a table), so a long one does not shrink the other.
                let (first_size, second_size) = if forced.is_some() {
                    (fitted(first), fitted(second))
                } else {
                    let two = fitted(first).min(fitted(second));
                    (two, two)
                };
                let spacing = line_mm(first_size.max(second_size));
                let baseline = top + height / 2.0 - spacing * 0.15;
                place(self, first, first_size, baseline);
                place(self, second, second_size, baseline + spacing);
            }
            _ => {
                let baseline = top + height / 2.0 + single_size / PT_PER_MM * 0.35;
                place(self, text, single_size, baseline);
            }
        }
    }

    /// The two signature lines under a sheet the table writes: the Schreiber's, and
    /// `others`.
    pub fn signatures(&mut self, y: f32, others: &str) {
        self.line(MARGIN, y, MARGIN + 80.0, y, 0.5);
        self.line(MARGIN + 100.0, y, MARGIN + CONTENT_WIDTH, y, 0.5);
        self.text(
            MARGIN,
            y + 4.5,
            8.0,
            Weight::Regular,
            "Unterschrift Schreiber",
        );
        self.text(MARGIN + 100.0, y + 4.5, 8.0, Weight::Regular, others);
    }

    pub fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, thickness: f32) {
        self.stroke(thickness);
        self.ops.extend([Op::DrawLine {
            line: Line {
                points: vec![
                    LinePoint {
                        p: point(x1, y1),
                        bezier: false,
                    },
                    LinePoint {
                        p: point(x2, y2),
                        bezier: false,
                    },
                ],
                is_closed: false,
            },
        }]);
    }

    /// An outlined box (x, y = top-left corner).
    pub fn frame(&mut self, x: f32, y: f32, width: f32, height: f32, thickness: f32) {
        self.stroke(thickness);
        self.ops.extend([Op::DrawRectangle {
            rectangle: Rect {
                x: pt(x),
                y: pt(PAGE_HEIGHT - y - height),
                width: pt(width),
                height: pt(height),
                mode: Some(printpdf::PaintMode::Stroke),
                winding_order: None,
            },
        }]);
    }

    /// A filled box in grey `level` (0 black … 1 white).
    pub fn fill(&mut self, x: f32, y: f32, width: f32, height: f32, level: f32) {
        self.ops.extend([
            Op::SetFillColor { col: grey(level) },
            Op::DrawRectangle {
                rectangle: Rect {
                    x: pt(x),
                    y: pt(PAGE_HEIGHT - y - height),
                    width: pt(width),
                    height: pt(height),
                    mode: Some(printpdf::PaintMode::Fill),
                    winding_order: None,
                },
            },
            Op::SetFillColor { col: grey(0.0) },
        ]);
    }

    /// A QR code of `modules` (true = dark) with its top-left corner at (x, y), `size` mm
    /// wide: one image with a pixel per module (not a square per module: a thousand
    /// Standblätter would otherwise hold 600'000 drawing operations).
    pub fn qr(&mut self, x: f32, y: f32, size: f32, width: usize, modules: &[bool]) {
        if width == 0 || modules.len() != width * width {
            return;
        }
        let pixels = modules
            .iter()
            .map(|&dark| if dark { 0 } else { 255 })
            .collect();
        let image = RawImage {
            pixels: RawImageData::U8(pixels),
            width,
            height: width,
            data_format: RawImageFormat::R8,
            tag: Vec::new(),
        };
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = XObjectId(format!(
            "QR{}",
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        // printpdf draws an image `width` pixels at `dpi` wide; pick the dpi that makes it
        // `size` mm.
        self.ops.push(Op::UseXobject {
            id: id.clone(),
            transform: XObjectTransform {
                translate_x: Some(pt(x)),
                translate_y: Some(pt(PAGE_HEIGHT - y - size)),
                dpi: Some(width as f32 * 25.4 / size),
                ..XObjectTransform::default()
            },
        });
        self.images.push((id, image));
    }
}

const FONT_REGULAR: &str = "F_REGULAR";
const FONT_BOLD: &str = "F_BOLD";

/// What every page of a document repeats.
pub struct Header {
    /// Left of the header line, e.g. the tournament name.
    pub title: String,
    /// Right of the header line, e.g. "Rangliste".
    pub subtitle: String,
    /// e.g. "22.11.2026, Zürich" and the time of printing, for the footer.
    pub footer: String,
}

pub struct Document {
    header: Header,
    pages: Vec<Page>,
    /// Running header and footer on every page (not on a certificate).
    framed: bool,
}

impl Document {
    pub fn new(header: Header) -> Self {
        Document {
            header,
            pages: Vec::new(),
            framed: true,
        }
    }

    /// A document whose pages are designed whole (a certificate): no running header, no
    /// footer, no page numbers.
    pub fn unframed(mut self) -> Self {
        self.framed = false;
        self
    }

    pub fn new_page(&mut self) -> &mut Page {
        if let Some(done) = self.pages.last_mut() {
            done.ops.shrink_to_fit();
        }
        self.pages.push(Page::new());
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    pub fn current(&mut self) -> &mut Page {
        if self.pages.is_empty() {
            self.pages.push(Page::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    /// Adds the running header and footer and serialises the PDF (big ones: on the
    /// documents thread, see [`render`]).
    pub fn finish(mut self, name: &str) -> Vec<u8> {
        if self.pages.is_empty() {
            self.pages.push(Page::new());
        }
        let total = self.pages.len();
        let mut pdf = PdfDocument::new(name);
        let regular = pdf.add_font(&fonts().regular);
        let bold = pdf.add_font(&fonts().bold);
        for page in &mut self.pages {
            for (id, image) in page.images.drain(..) {
                pdf.resources.xobjects.map.insert(id, XObject::Image(image));
            }
        }
        let pages = self
            .pages
            .iter_mut()
            .enumerate()
            .map(|(index, page)| {
                if self.framed {
                    // Header and footer: about 30 operations, without doubling the page's room.
                    page.ops.reserve_exact(32);
                    page.text_in(
                        MARGIN,
                        120.0,
                        12.0,
                        9.0,
                        Weight::Bold,
                        Align::Left,
                        &self.header.title,
                    );
                    page.text_in(
                        MARGIN,
                        PAGE_WIDTH - 2.0 * MARGIN,
                        12.0,
                        9.0,
                        Weight::Regular,
                        Align::Right,
                        &self.header.subtitle,
                    );
                    page.line(MARGIN, 14.5, PAGE_WIDTH - MARGIN, 14.5, 0.5);
                    page.line(
                        MARGIN,
                        PAGE_HEIGHT - 12.5,
                        PAGE_WIDTH - MARGIN,
                        PAGE_HEIGHT - 12.5,
                        0.5,
                    );
                    page.text(
                        MARGIN,
                        PAGE_HEIGHT - 8.5,
                        8.0,
                        Weight::Regular,
                        &self.header.footer,
                    );
                    page.text_in(
                        MARGIN,
                        PAGE_WIDTH - 2.0 * MARGIN,
                        PAGE_HEIGHT - 8.5,
                        8.0,
                        Weight::Regular,
                        Align::Right,
                        &format!("Seite {} von {}", index + 1, total),
                    );
                }
                let ops = std::mem::take(&mut page.ops)
                    .into_iter()
                    .map(|op| match op {
                        Op::SetFont {
                            font: PdfFontHandle::External(FontId(id)),
                            size,
                        } => Op::SetFont {
                            font: PdfFontHandle::External(if id == FONT_BOLD {
                                bold.clone()
                            } else {
                                regular.clone()
                            }),
                            size,
                        },
                        other => other,
                    })
                    .collect();
                PdfPage::new(Mm(PAGE_WIDTH), Mm(PAGE_HEIGHT), ops)
            })
            .collect();
        // Lossless images: a QR code must not go through JPEG. Streams are compressed below,
        // not by printpdf (see `compress_streams`).
        let options = PdfSaveOptions {
            optimize: false,
            image_optimization: Some(ImageOptimizationOptions {
                format: Some(ImageCompression::Flate),
                auto_optimize: Some(false),
                ..ImageOptimizationOptions::default()
            }),
            ..PdfSaveOptions::default()
        };
        let mut doc = pdf
            .with_pages(pages)
            .to_lopdf_document(&options, &mut Vec::new());
        compress_streams(&mut doc);
        let mut bytes = Vec::new();
        // Writing into a Vec cannot fail; an empty answer would show as a broken PDF.
        let _ = doc.save_to(&mut bytes);
        bytes
    }
}

/// Deflates every stream at a fast level. printpdf's own optimisation uses the best level,
/// which took a quarter of the time of a thousand Standblätter; the fast level makes the file
/// about a tenth larger (page text is short and repetitive) at a fraction of the time.
fn compress_streams(doc: &mut lopdf::Document) {
    use flate2::{Compression, write::ZlibEncoder};
    use std::io::Write;
    for object in doc.objects.values_mut() {
        let lopdf::Object::Stream(stream) = object else {
            continue;
        };
        if !stream.allows_compression || stream.dict.get(b"Filter").is_ok() {
            continue;
        }
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::fast());
        if encoder.write_all(&stream.content).is_err() {
            continue;
        }
        let Ok(compressed) = encoder.finish() else {
            continue;
        };
        if compressed.len() < stream.content.len() {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(compressed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_measured_from_the_font() {
        let narrow = text_width("iii", 10.0, Weight::Regular);
        let wide = text_width("WWW", 10.0, Weight::Regular);
        assert!(wide > 2.0 * narrow);
        assert!(
            text_width("1'884", 10.0, Weight::Bold) > text_width("1'884", 10.0, Weight::Regular)
        );
        assert!(
            (text_width("Zürich", 20.0, Weight::Regular)
                - 2.0 * text_width("Zürich", 10.0, Weight::Regular))
            .abs()
                < 0.01
        );
    }

    fn font_sizes(page: &Page) -> Vec<f32> {
        page.ops
            .iter()
            .filter_map(|op| match op {
                Op::SetFont { size, .. } => Some(size.0),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn lines_broken_by_the_caller_are_fitted_each_on_its_own() {
        let mut page = Page::new();
        let long = "B1 5 Frei Brigitte · B2 17 Baumann Regula (ausgeschieden)";
        let text = format!("A1 19 Meier Susanne\n{long}");
        page.text_box(
            0.0,
            100.0,
            0.0,
            19.0,
            20.0,
            Weight::Regular,
            Align::Left,
            &text,
        );
        let sizes = font_sizes(&page);
        assert_eq!(sizes.len(), 2, "{sizes:?}");
        assert!(sizes[0] > 19.9, "the short line keeps its size: {sizes:?}");
        assert!(
            sizes[1] < sizes[0],
            "the long line shrinks alone: {sizes:?}"
        );
        assert!(text_width(long, sizes[1], Weight::Regular) <= 100.01);
        // A text wrapped by the box itself keeps one size for both lines.
        let mut page = Page::new();
        let wrapped = "Jassfreunde Wädenswil und Umgebung, Sektion Ost und West";
        page.text_box(
            0.0,
            40.0,
            0.0,
            19.0,
            20.0,
            Weight::Regular,
            Align::Left,
            wrapped,
        );
        // (The font is set once when both lines have one size.)
        assert_eq!(font_sizes(&page).len(), 1, "{:?}", font_sizes(&page));
        let lines = page
            .ops
            .iter()
            .filter(|op| matches!(op, Op::ShowText { .. }));
        assert_eq!(lines.count(), 2);
    }

    #[test]
    fn a_long_text_shrinks_instead_of_being_cut() {
        let long = "Jassfreunde Wädenswil und Umgebung, Sektion Ost";
        let mut page = Page::new();
        page.text_in(0.0, 30.0, 10.0, 10.0, Weight::Regular, Align::Left, long);
        let shown: Vec<&Op> = page
            .ops
            .iter()
            .filter(|op| matches!(op, Op::ShowText { .. }))
            .collect();
        assert_eq!(shown.len(), 1);
        let size = page.ops.iter().find_map(|op| match op {
            Op::SetFont { size, .. } => Some(size.0),
            _ => None,
        });
        let size = size.expect("a font size");
        assert!(size < 10.0);
        assert!(text_width(long, size, Weight::Regular) <= 30.01);
        assert!(
            format!("{:?}", shown[0]).contains("Sektion Ost"),
            "whole text"
        );
    }
}
