-- The seats of a tournament (the Jass-Cup reads every series tournament's persons).
CREATE INDEX team_persons_tournament ON team_persons (tournament_id);
