CREATE TABLE users (
    id INTEGER PRIMARY KEY NOT NULL,
    username VARCHAR(64) NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role VARCHAR(16) NOT NULL,
    active BOOLEAN NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE sessions (
    token VARCHAR(64) PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf_token VARCHAR(64) NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    flash TEXT
);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY NOT NULL,
    name VARCHAR(200) NOT NULL,
    date DATE NOT NULL,
    location VARCHAR(200) NOT NULL,
    mode VARCHAR(32) NOT NULL,
    passen INTEGER NOT NULL,
    spiele_per_passe INTEGER NOT NULL,
    pauschale INTEGER NOT NULL,
    closed BOOLEAN NOT NULL DEFAULT 0,
    public BOOLEAN NOT NULL DEFAULT 1,
    draw_mode VARCHAR(16) NOT NULL DEFAULT 'fest',
    draw_seed BIGINT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE teams (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    startnummer INTEGER NOT NULL,
    name VARCHAR(200),
    player1 VARCHAR(200) NOT NULL,
    player2 VARCHAR(200) NOT NULL,
    club VARCHAR(200),
    place VARCHAR(200),
    los INTEGER,
    status VARCHAR(16) NOT NULL DEFAULT 'aktiv',
    out_passe INTEGER,
    out_reason TEXT,
    final_visa_by INTEGER REFERENCES users(id),
    final_visa_at TIMESTAMP,
    UNIQUE (tournament_id, startnummer)
);

-- The schedule: one row per team and Passe. table_no and opponent are NULL for a bye.
CREATE TABLE seats (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    team_id INTEGER NOT NULL REFERENCES teams(id),
    table_no INTEGER,
    opponent_id INTEGER REFERENCES teams(id),
    UNIQUE (tournament_id, passe, team_id)
);
CREATE INDEX seats_table ON seats (tournament_id, passe, table_no);

-- One row per table and Passe holds both teams' points, so a result is never half-written.
-- Who entered or corrected it, and when, is in audit_log.
CREATE TABLE results (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    team_a_id INTEGER NOT NULL REFERENCES teams(id),
    team_b_id INTEGER NOT NULL REFERENCES teams(id),
    points_a INTEGER NOT NULL,
    points_b INTEGER NOT NULL,
    matches_a INTEGER NOT NULL DEFAULT 0,
    matches_b INTEGER NOT NULL DEFAULT 0,
    visa_a_by INTEGER REFERENCES users(id),
    visa_a_at TIMESTAMP,
    visa_b_by INTEGER REFERENCES users(id),
    visa_b_at TIMESTAMP,
    version INTEGER NOT NULL DEFAULT 1,
    UNIQUE (tournament_id, passe, table_no)
);

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY NOT NULL,
    at TIMESTAMP NOT NULL,
    user_id INTEGER REFERENCES users(id),
    username VARCHAR(64) NOT NULL,
    tournament_id INTEGER REFERENCES tournaments(id),
    entity VARCHAR(32) NOT NULL,
    entity_id INTEGER,
    action VARCHAR(32) NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX audit_tournament ON audit_log (tournament_id, id);
