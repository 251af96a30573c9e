DROP TABLE team_persons;
DROP TABLE persons;
