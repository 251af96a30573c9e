ALTER TABLE tournaments DROP COLUMN club_best;
