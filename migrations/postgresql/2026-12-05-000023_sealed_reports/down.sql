DROP TABLE series_reports;
DROP TABLE series_halls;
DROP TABLE tournament_uuids;
DROP TABLE instance;
