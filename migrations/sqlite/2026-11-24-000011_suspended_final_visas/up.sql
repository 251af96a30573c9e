-- Final visas that fell because a team was disqualified or withdrew; undoing that
-- restores them when the total is again the one that was visaed.
CREATE TABLE suspended_final_visas (
    team_id INTEGER NOT NULL PRIMARY KEY REFERENCES teams(id),
    cause_team_id INTEGER NOT NULL REFERENCES teams(id),
    visa_by INTEGER REFERENCES users(id),
    visa_name TEXT,
    visa_at TIMESTAMP NOT NULL,
    total INTEGER NOT NULL
);
