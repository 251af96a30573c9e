-- Visas of an imported tournament keep the name of whoever gave them, without an account
-- here: a visa is there when its time is set; `by` is a local account, `name` an imported one.
ALTER TABLE results ADD COLUMN visa_a_name TEXT;
ALTER TABLE results ADD COLUMN visa_b_name TEXT;
ALTER TABLE teams ADD COLUMN final_visa_name TEXT;
