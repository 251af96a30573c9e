DROP TABLE prizes;
ALTER TABLE tournaments DROP COLUMN prize_others;
ALTER TABLE tournaments DROP COLUMN absenden_step;
