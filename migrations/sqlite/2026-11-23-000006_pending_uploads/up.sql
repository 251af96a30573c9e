-- An uploaded file between its preview and the confirmation: kept on the server, so that the
-- confirmation posts a short token instead of the file again.
CREATE TABLE pending_uploads (
    token VARCHAR(64) PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    data BLOB NOT NULL
);
