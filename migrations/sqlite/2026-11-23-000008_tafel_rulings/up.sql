-- A Tafel line can carry a ruling of seed 003 instead of a Spiel.
ALTER TABLE tafel_lines ADD COLUMN ruling VARCHAR(16);
