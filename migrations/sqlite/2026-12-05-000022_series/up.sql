-- The Jass-Cup (#80): a series of tournaments ranked together, with its rule.
CREATE TABLE series (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    season TEXT NOT NULL,
    -- 'tabelle' (points_table), 'feld' (N - rank + 1) or 'normiert' (1000 x total / winner).
    points TEXT NOT NULL,
    points_table TEXT,
    -- 'person' (every player gets the team's points) or 'team' (the same two persons).
    unit TEXT NOT NULL,
    best INTEGER,
    minimum INTEGER NOT NULL,
    final_factor INTEGER NOT NULL,
    -- 'keine', 'top' (qualify_value places) or 'anteil' (qualify_value % of each qualifier).
    qualification TEXT NOT NULL,
    qualify_value INTEGER,
    created_at TIMESTAMP NOT NULL
);
-- The tournaments of a series; a final multiplies its points.
CREATE TABLE series_tournaments (
    series_id INTEGER NOT NULL REFERENCES series(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    is_final BOOLEAN NOT NULL,
    PRIMARY KEY (series_id, tournament_id)
);
CREATE INDEX series_tournaments_tournament ON series_tournaments (tournament_id);
-- Persons who qualify whatever their rank (e.g. last year's winner).
CREATE TABLE series_wildcards (
    series_id INTEGER NOT NULL REFERENCES series(id),
    person_id INTEGER NOT NULL REFERENCES persons(id),
    PRIMARY KEY (series_id, person_id)
);
