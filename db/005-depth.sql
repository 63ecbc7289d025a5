-- gputune tuning database, schema version 5: 3-D sizes.  A matrix
-- product's size is M x N x K: rows = M, cols = N and the new column
-- depth = K; every other size has depth 1, which is what the rows made
-- before this version get.  A depth joins each key that holds a size, so
-- the tables that have one are rebuilt with it (their rows and ids kept).
-- A ceiling may now be 'fma': the GPU's measured rate of fused
-- multiply-adds, in GFLOP/s, in copy_kernel_gbps (memcpy_gbps 0).

CREATE TABLE measurement_5 (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run(id),
	variant_id INTEGER NOT NULL REFERENCES variant(id),
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	depth INTEGER NOT NULL DEFAULT 1,
	status TEXT NOT NULL
		CHECK (status IN ('ok', 'wrong', 'compile_failed', 'launch_failed', 'fault')),
	reason TEXT,
	median_ms REAL,
	min_ms REAL,
	max_ms REAL,
	gbps REAL,
	fraction REAL,
	p25_ms REAL,
	p75_ms REAL,
	launches INTEGER,
	UNIQUE (run_id, variant_id, rows, cols, depth)
);
INSERT INTO measurement_5 (id, run_id, variant_id, rows, cols, depth, status, reason, median_ms, min_ms,
	max_ms, gbps, fraction, p25_ms, p75_ms, launches)
	SELECT id, run_id, variant_id, rows, cols, 1, status, reason, median_ms, min_ms, max_ms, gbps,
	       fraction, p25_ms, p75_ms, launches FROM measurement;
DROP INDEX measurement_by_point;
DROP TABLE measurement;
ALTER TABLE measurement_5 RENAME TO measurement;
CREATE INDEX measurement_by_point ON measurement (variant_id, rows, cols, depth);

CREATE TABLE winner_5 (
	device_id INTEGER NOT NULL REFERENCES device(id),
	family_id INTEGER NOT NULL REFERENCES family(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	depth INTEGER NOT NULL DEFAULT 1,
	timing_mode TEXT NOT NULL,
	measurement_id INTEGER NOT NULL REFERENCES measurement(id),
	PRIMARY KEY (device_id, family_id, dtype, rows, cols, depth, timing_mode)
);
INSERT INTO winner_5 (device_id, family_id, dtype, rows, cols, depth, timing_mode, measurement_id)
	SELECT device_id, family_id, dtype, rows, cols, 1, timing_mode, measurement_id FROM winner;
DROP TABLE winner;
ALTER TABLE winner_5 RENAME TO winner;

CREATE TABLE ceiling_5 (
	run_id INTEGER NOT NULL REFERENCES run(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	depth INTEGER NOT NULL DEFAULT 1,
	memcpy_gbps REAL NOT NULL,
	copy_kernel_gbps REAL NOT NULL,
	ceiling_gbps REAL NOT NULL,
	kind TEXT NOT NULL DEFAULT 'copy' CHECK (kind IN ('copy', 'read', 'fma')),
	PRIMARY KEY (run_id, dtype, rows, cols, depth)
);
INSERT INTO ceiling_5 (run_id, dtype, rows, cols, depth, memcpy_gbps, copy_kernel_gbps, ceiling_gbps, kind)
	SELECT run_id, dtype, rows, cols, 1, memcpy_gbps, copy_kernel_gbps, ceiling_gbps, kind FROM ceiling;
DROP TABLE ceiling;
ALTER TABLE ceiling_5 RENAME TO ceiling;

CREATE TABLE run_condition_5 (
	run_id INTEGER NOT NULL REFERENCES run(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	depth INTEGER NOT NULL DEFAULT 1,
	sm_mhz_start INTEGER NOT NULL,
	sm_mhz_end INTEGER NOT NULL,
	sm_mhz_min INTEGER NOT NULL,
	sm_mhz_max INTEGER NOT NULL,
	mem_mhz_start INTEGER NOT NULL,
	mem_mhz_end INTEGER NOT NULL,
	temp_c_start INTEGER NOT NULL,
	temp_c_end INTEGER NOT NULL,
	temp_c_max INTEGER NOT NULL,
	power_w_start REAL NOT NULL,
	power_w_end REAL NOT NULL,
	power_w_max REAL NOT NULL,
	throttle_reasons INTEGER NOT NULL,
	samples INTEGER NOT NULL,
	PRIMARY KEY (run_id, dtype, rows, cols, depth)
);
INSERT INTO run_condition_5 SELECT run_id, dtype, rows, cols, 1, sm_mhz_start, sm_mhz_end, sm_mhz_min,
	sm_mhz_max, mem_mhz_start, mem_mhz_end, temp_c_start, temp_c_end, temp_c_max, power_w_start,
	power_w_end, power_w_max, throttle_reasons, samples FROM run_condition;
DROP TABLE run_condition;
ALTER TABLE run_condition_5 RENAME TO run_condition;

CREATE TABLE validation_5 (
	run_id INTEGER NOT NULL REFERENCES run(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	depth INTEGER NOT NULL DEFAULT 1,
	params TEXT NOT NULL,
	how TEXT NOT NULL,
	gbps REAL,
	fraction REAL,
	best_gbps REAL,
	PRIMARY KEY (run_id, dtype, rows, cols, depth)
);
INSERT INTO validation_5 SELECT run_id, dtype, rows, cols, 1, params, how, gbps, fraction, best_gbps
	FROM validation;
DROP TABLE validation;
ALTER TABLE validation_5 RENAME TO validation;
