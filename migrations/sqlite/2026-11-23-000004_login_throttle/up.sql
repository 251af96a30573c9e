-- Failed logins as bounded counters (per client address, and per account at an address)
-- instead of one row per attempt.
DROP TABLE login_failures;
CREATE TABLE login_throttle (
    kind VARCHAR(16) NOT NULL,
    subject VARCHAR(200) NOT NULL,
    failures INTEGER NOT NULL,
    last_failure TIMESTAMP NOT NULL,
    blocked_until TIMESTAMP,
    PRIMARY KEY (kind, subject)
);
