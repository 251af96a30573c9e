-- Vereinswertung: the clubs ranked by their best N teams (players); NULL: no club ranking.
ALTER TABLE tournaments ADD COLUMN club_best INTEGER;
