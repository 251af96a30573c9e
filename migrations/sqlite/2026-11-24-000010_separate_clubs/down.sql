ALTER TABLE tournaments DROP COLUMN separate_clubs;
