-- gputune tuning database, schema version 2: the quartiles of the timed
-- launches beside the median, and the number of launches each measurement
-- took (a time budget may give more than the run's minimum).

ALTER TABLE measurement ADD COLUMN p25_ms REAL;
ALTER TABLE measurement ADD COLUMN p75_ms REAL;
ALTER TABLE measurement ADD COLUMN launches INTEGER;
CREATE INDEX measurement_by_point ON measurement (variant_id, rows, cols);
