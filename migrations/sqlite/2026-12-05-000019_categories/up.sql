-- Categories of a tournament (Damen, Senioren, …), in the order the Rangliste shows them.
CREATE TABLE categories (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL
);
CREATE INDEX categories_tournament ON categories (tournament_id);
-- Which team (player) belongs to which category.
CREATE TABLE team_categories (
    team_id INTEGER NOT NULL REFERENCES teams(id),
    category_id INTEGER NOT NULL REFERENCES categories(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    PRIMARY KEY (team_id, category_id)
);
CREATE INDEX team_categories_tournament ON team_categories (tournament_id);
-- A special prize may go to a category's winner (by the category's name).
ALTER TABLE prizes ADD COLUMN category TEXT;
