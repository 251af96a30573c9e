ALTER TABLE tafel_lines DROP COLUMN ruling;
