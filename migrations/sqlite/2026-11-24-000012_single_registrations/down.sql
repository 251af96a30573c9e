DROP TABLE single_registrations;
