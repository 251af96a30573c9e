-- #80: this instance's signing key (one row) and the name it signs as.
CREATE TABLE instance (
    id INTEGER NOT NULL PRIMARY KEY,
    hall_name TEXT NOT NULL,
    secret_key TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
-- A tournament's identity across instances, given when its first report is made.
CREATE TABLE tournament_uuids (
    tournament_id INTEGER NOT NULL PRIMARY KEY REFERENCES tournaments(id),
    uuid TEXT NOT NULL UNIQUE
);
-- The halls whose reports a series accepts (public key, hex).
CREATE TABLE series_halls (
    series_id INTEGER NOT NULL REFERENCES series(id),
    public_key TEXT NOT NULL,
    hall_name TEXT NOT NULL,
    PRIMARY KEY (series_id, public_key)
);
-- The reports a series took: per tournament (its uuid) the revision in force, the local
-- tournament it became, and what changed with it.
CREATE TABLE series_reports (
    series_id INTEGER NOT NULL REFERENCES series(id),
    uuid TEXT NOT NULL,
    revision INTEGER NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    public_key TEXT NOT NULL,
    digest TEXT NOT NULL,
    imported_at TIMESTAMP NOT NULL,
    summary TEXT NOT NULL,
    PRIMARY KEY (series_id, uuid)
);
