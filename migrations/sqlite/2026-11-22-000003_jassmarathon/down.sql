ALTER TABLE results DROP COLUMN details;
DROP TABLE tafel_gongs;
DROP TABLE tafel_lines;
DROP TABLE round_clocks;
DROP TABLE marathon_rules;
