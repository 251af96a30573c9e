-- Differenzler (#81): the tournament's options. Without a row a Differenzler counts 157 per
-- Spiel, no Nuller, and the Pauschale is the Passe's rounded-up average.
CREATE TABLE differenzler_rules (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id),
    match_bonus BOOLEAN NOT NULL,
    stoeck BOOLEAN NOT NULL,
    count_nuller BOOLEAN NOT NULL,
    pauschale_average BOOLEAN NOT NULL
);
