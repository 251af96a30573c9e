DROP TABLE series_wildcards;
DROP TABLE series_tournaments;
DROP TABLE series;
