-- Version and date of the built-in facts; shown by `fwadvisor --version` and in reports.
INSERT INTO meta (key, value) VALUES ('kb_version', '2026.12.5'), ('kb_date', '2026-12-02');
