DROP TABLE login_throttle;
CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY NOT NULL,
    username VARCHAR(64) NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_user ON login_failures (username, at);
