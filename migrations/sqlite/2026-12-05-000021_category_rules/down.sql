ALTER TABLE persons DROP COLUMN geschlecht;
ALTER TABLE team_categories DROP COLUMN closed_by_rule;
ALTER TABLE team_categories DROP COLUMN member;
ALTER TABLE categories DROP COLUMN rule_year;
ALTER TABLE categories DROP COLUMN rule;
