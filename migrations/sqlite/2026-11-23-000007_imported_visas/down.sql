ALTER TABLE results DROP COLUMN visa_a_name;
ALTER TABLE results DROP COLUMN visa_b_name;
ALTER TABLE teams DROP COLUMN final_visa_name;
