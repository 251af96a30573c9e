-- Double entry: each table result typed twice, blind, before it counts.
ALTER TABLE tournaments ADD COLUMN double_entry BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN double_entry_same_user BOOLEAN NOT NULL DEFAULT 0;

CREATE TABLE pending_entries (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    passe INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    points_a INTEGER NOT NULL,
    points_b INTEGER NOT NULL,
    matches_a INTEGER NOT NULL,
    matches_b INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX pending_entries_table ON pending_entries (tournament_id, passe, table_no);

-- Failed logins, for throttling.
CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY NOT NULL,
    username VARCHAR(64) NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_user ON login_failures (username, at);
