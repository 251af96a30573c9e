-- Streichresultat: only the best N Passen (Spielrunden) of each team count for the
-- Rangliste; NULL: every Passe counts (every tournament before this column).
ALTER TABLE tournaments ADD COLUMN counted_best INTEGER;
