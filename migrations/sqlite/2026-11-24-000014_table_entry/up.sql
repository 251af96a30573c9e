-- Results from the table (README "Resultate vom Tisch"): a tournament switches it on with a
-- row here; passe_open is the one Passe whose tables may report from their phones (NULL:
-- closed for every Passe).
CREATE TABLE table_entry (
    tournament_id INTEGER NOT NULL PRIMARY KEY REFERENCES tournaments(id),
    passe_open INTEGER
);
-- One personal code per team (Einzelschieber: per player), printed on its Standblatt;
-- revoking it writes a new one.
CREATE TABLE table_codes (
    team_id INTEGER NOT NULL PRIMARY KEY REFERENCES teams(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    code TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX table_codes_tournament ON table_codes (tournament_id);
-- A phone that gave a team's code: the cookie holds the token, the database its hash.
CREATE TABLE table_access (
    token TEXT NOT NULL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    team_id INTEGER NOT NULL REFERENCES teams(id),
    csrf_token TEXT NOT NULL,
    address TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX table_access_team ON table_access (team_id);
-- A table's result as one of its teams reported it, and what became of it.
CREATE TABLE table_reports (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    reporter_id INTEGER NOT NULL REFERENCES teams(id),
    points_a INTEGER NOT NULL,
    points_b INTEGER NOT NULL,
    state TEXT NOT NULL,
    answer_by INTEGER REFERENCES teams(id),
    answer_points_a INTEGER,
    answer_points_b INTEGER,
    note TEXT,
    -- Jassmarathon: the Tafel written at the table (JSON: its lines and the gong).
    tafel TEXT,
    version INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (tournament_id, passe, table_no)
);
