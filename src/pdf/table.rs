//! Tables that flow over pages, repeating their header row.

use super::{Align, CONTENT_BOTTOM, CONTENT_TOP, Document, MARGIN, Page, Weight};

/// A column of a [`Table`].
pub struct Column {
    pub title: String,
    pub width: f32,
    pub align: Align,
}

/// A table that flows over pages, repeating its header row on every page.
pub struct Table {
    pub columns: Vec<Column>,
    pub size: f32,
    pub row_height: f32,
}

impl Table {
    fn header(&self, page: &mut Page, y: f32) -> f32 {
        let width: f32 = self.columns.iter().map(|c| c.width).sum();
        page.fill(MARGIN, y, width, self.row_height, 0.88);
        let mut x = MARGIN;
        for c in &self.columns {
            page.text_in(
                x + 1.0,
                c.width - 2.0,
                y + self.row_height * 0.7,
                self.size,
                Weight::Bold,
                c.align,
                &c.title,
            );
            x += c.width;
        }
        y + self.row_height
    }

    /// Draws `rows` from `y` on, starting new pages as needed; returns the y after the table.
    pub fn draw(&self, doc: &mut Document, y: f32, rows: &[Vec<(String, Weight)>]) -> f32 {
        self.draw_struck(doc, y, rows, &[])
    }

    /// As [`Table::draw`]; the cells named in `struck` (per row, the column indices) are
    /// struck through: a Passe the Streichresultat does not count.
    pub fn draw_struck(
        &self,
        doc: &mut Document,
        mut y: f32,
        rows: &[Vec<(String, Weight)>],
        struck: &[Vec<usize>],
    ) -> f32 {
        let width: f32 = self.columns.iter().map(|c| c.width).sum();
        y = self.header(doc.current(), y);
        for (index, row) in rows.iter().enumerate() {
            if y + self.row_height > CONTENT_BOTTOM {
                doc.new_page();
                y = self.header(doc.current(), CONTENT_TOP);
            }
            let page = doc.current();
            let mut x = MARGIN;
            let struck_here = struck.get(index).map_or(&[][..], Vec::as_slice);
            for (at, (column, (text, weight))) in self.columns.iter().zip(row).enumerate() {
                page.text_box(
                    x + 1.0,
                    column.width - 2.0,
                    y,
                    self.row_height,
                    self.size,
                    *weight,
                    column.align,
                    text,
                );
                if struck_here.contains(&at) {
                    page.strike_through(
                        x + 1.0,
                        column.width - 2.0,
                        y + self.row_height / 2.0,
                        self.size,
                        *weight,
                        column.align,
                        text,
                    );
                }
                x += column.width;
            }
            page.line(
                MARGIN,
                y + self.row_height,
                MARGIN + width,
                y + self.row_height,
                0.3,
            );
            y += self.row_height;
        }
        y
    }
}
