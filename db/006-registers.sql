-- gputune tuning database, schema version 6: each measurement keeps the
-- registers a thread of its kernel took as NVRTC built it for the run's
-- device (NULL where not known: measurements made before this version,
-- and kernels that did not build or whose count could not be read), so
-- that an exported header bounds nvcc to that count without compiling
-- the variant again.

ALTER TABLE measurement ADD COLUMN registers INTEGER CHECK (registers IS NULL OR registers BETWEEN 1 AND 255);
