DROP TABLE suspended_final_visas;
