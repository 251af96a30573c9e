DROP TABLE differenzler_rules;
