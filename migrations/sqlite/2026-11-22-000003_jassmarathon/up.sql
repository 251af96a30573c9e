-- Jassmarathon rules per tournament (seed 003 values as presets).
CREATE TABLE marathon_rules (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id),
    round_minutes INTEGER NOT NULL,
    target INTEGER NOT NULL,
    berg INTEGER NOT NULL,
    match_bonus INTEGER NOT NULL,
    mult_eichel INTEGER NOT NULL,
    mult_rose INTEGER NOT NULL,
    mult_schelle INTEGER NOT NULL,
    mult_schilte INTEGER NOT NULL,
    mult_obenabe INTEGER NOT NULL,
    mult_undenufe INTEGER NOT NULL,
    striche_match INTEGER NOT NULL,
    striche_berg INTEGER NOT NULL,
    striche_sieg INTEGER NOT NULL,
    striche_schneider INTEGER NOT NULL,
    striche_gong INTEGER NOT NULL
);

-- The clock of a Spielrunde; in the database so that it survives a restart.
CREATE TABLE round_clocks (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL,
    paused_at TIMESTAMP,
    paused_seconds INTEGER NOT NULL DEFAULT 0,
    ended_at TIMESTAMP,
    PRIMARY KEY (tournament_id, passe)
);

-- The digital Tafel: one line per Spiel.
CREATE TABLE tafel_lines (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    line_no INTEGER NOT NULL,
    trump VARCHAR(16) NOT NULL,
    cards_a INTEGER,
    match_side VARCHAR(1),
    weis_a INTEGER NOT NULL DEFAULT 0,
    weis_b INTEGER NOT NULL DEFAULT 0,
    stoeck VARCHAR(1),
    first VARCHAR(1),
    UNIQUE (tournament_id, passe, table_no, line_no)
);

-- Tables whose Tafel has reached the gong.
CREATE TABLE tafel_gongs (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, passe, table_no)
);

-- Jassmarathon: the Striche per category behind a result (JSON).
ALTER TABLE results ADD COLUMN details TEXT;
