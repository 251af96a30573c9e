-- A sealed report waiting for the office's choice of persons (ambiguous players).
CREATE TABLE pending_reports (
    token TEXT NOT NULL PRIMARY KEY,
    series_id INTEGER NOT NULL REFERENCES series(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    data BLOB NOT NULL
);
