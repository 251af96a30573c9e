-- The club's register (#79): a person across tournaments. E-mail and phone are for the
-- office only.
CREATE TABLE persons (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    vorname TEXT NOT NULL,
    verein TEXT,
    ort TEXT,
    jahrgang INTEGER,
    email TEXT,
    phone TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX persons_name ON persons (name, vorname);
-- Who plays in a team: seat 1 and 2 (an Einzelschieber player: seat 1 only). Existing
-- teams are linked when the server starts (see db::persons::link_unlinked).
CREATE TABLE team_persons (
    team_id INTEGER NOT NULL REFERENCES teams(id),
    seat INTEGER NOT NULL,
    person_id INTEGER NOT NULL REFERENCES persons(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    PRIMARY KEY (team_id, seat)
);
CREATE INDEX team_persons_person ON team_persons (person_id);
