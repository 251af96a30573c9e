ALTER TABLE prizes DROP COLUMN category;
DROP TABLE team_categories;
DROP TABLE categories;
