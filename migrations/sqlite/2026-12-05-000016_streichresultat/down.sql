ALTER TABLE tournaments DROP COLUMN counted_best;
