-- Gabentisch (#79): the prize of each place of the official Rangliste (title NULL, position
-- = the place) and the special prizes assigned by hand (title and startnummer set, position
-- = their order in the Absenden).
CREATE TABLE prizes (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    position INTEGER NOT NULL,
    prize TEXT NOT NULL,
    title TEXT,
    startnummer INTEGER
);
CREATE INDEX prizes_tournament ON prizes (tournament_id);
-- The prize of every ranked team beyond the listed places ("jeder erhält einen Preis").
ALTER TABLE tournaments ADD COLUMN prize_others TEXT;
-- The Absenden under way: how many names have been read out (NULL: not under way).
ALTER TABLE tournaments ADD COLUMN absenden_step INTEGER;
