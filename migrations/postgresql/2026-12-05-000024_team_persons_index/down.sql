DROP INDEX team_persons_tournament;
