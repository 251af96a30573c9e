-- Included in 2026-11-22-000001_init on PostgreSQL (see there).
SELECT 1;
