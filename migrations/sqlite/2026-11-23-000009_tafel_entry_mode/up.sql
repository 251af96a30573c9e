-- How the office types a Tafel's points: raw card points, or already multiplied as the
-- Schreiber wrote them.
CREATE TABLE tafel_entry_modes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    multiplied BOOLEAN NOT NULL,
    PRIMARY KEY (tournament_id, passe, table_no)
);
