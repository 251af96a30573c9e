-- Players who registered alone ("sucht Partner") in a Partnerschieber; the office draws
-- teams from them before the Los.
CREATE TABLE single_registrations (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player TEXT NOT NULL,
    club TEXT,
    place TEXT
);
CREATE INDEX single_registrations_tournament ON single_registrations (tournament_id);
