-- gputune tuning database, schema version 1.
--
-- One row per GPU (device), kernel family, rendered variant, tuning run,
-- and measurement of one variant at one size in one run.  The winner table
-- names, per (device, family, dtype, size, timing mode), the measurement
-- that won among the latest measurement of each variant.

CREATE TABLE device (
	id INTEGER PRIMARY KEY,
	uuid TEXT NOT NULL UNIQUE,          -- "GPU-xxxxxxxx-..."
	name TEXT NOT NULL,
	cc_major INTEGER NOT NULL,
	cc_minor INTEGER NOT NULL,
	sm_count INTEGER NOT NULL,
	mem_bytes INTEGER NOT NULL,
	l2_bytes INTEGER NOT NULL,
	bus_width_bits INTEGER NOT NULL,
	mem_clock_khz INTEGER NOT NULL,
	driver_version INTEGER NOT NULL     -- as cuDriverGetVersion: 13000 is 13.0
);

CREATE TABLE family (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,          -- "transpose"
	params TEXT NOT NULL                -- its parameter names, comma-separated
);

CREATE TABLE variant (
	id INTEGER PRIMARY KEY,
	family_id INTEGER NOT NULL REFERENCES family(id),
	dtype TEXT NOT NULL,                -- f32, f64, f16
	params TEXT NOT NULL,               -- "tile=32,block_rows=8,..."
	source_hash TEXT NOT NULL,          -- FNV-1a of the rendered source
	UNIQUE (family_id, dtype, params, source_hash)
);

CREATE TABLE run (
	id INTEGER PRIMARY KEY,
	uuid TEXT NOT NULL UNIQUE,          -- identifies the run across merged files
	device_id INTEGER NOT NULL REFERENCES device(id),
	family_id INTEGER NOT NULL REFERENCES family(id),
	started_at TEXT NOT NULL,           -- UTC, ISO 8601
	finished_at TEXT,
	gputune_version TEXT NOT NULL,
	nvrtc_version TEXT NOT NULL,
	timing_mode TEXT NOT NULL CHECK (timing_mode IN ('flushed', 'hot')),
	repetitions INTEGER NOT NULL,       -- timed launches per measurement
	status TEXT NOT NULL DEFAULT 'running'
		CHECK (status IN ('running', 'complete', 'interrupted', 'failed'))
);

-- The bandwidth ceiling measured in a run, per size: the faster of a
-- device-to-device cuMemcpy and a vectorised copy kernel.
CREATE TABLE ceiling (
	run_id INTEGER NOT NULL REFERENCES run(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	memcpy_gbps REAL NOT NULL,
	copy_kernel_gbps REAL NOT NULL,
	ceiling_gbps REAL NOT NULL,
	PRIMARY KEY (run_id, dtype, rows, cols)
);

CREATE TABLE measurement (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run(id),
	variant_id INTEGER NOT NULL REFERENCES variant(id),
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	status TEXT NOT NULL
		CHECK (status IN ('ok', 'wrong', 'compile_failed', 'launch_failed', 'fault')),
	reason TEXT,                        -- why a variant is not 'ok'
	median_ms REAL,
	min_ms REAL,
	max_ms REAL,
	gbps REAL,                          -- bytes moved / median time
	fraction REAL,                      -- gbps / the run's ceiling at this size
	UNIQUE (run_id, variant_id, rows, cols)
);

CREATE TABLE winner (
	device_id INTEGER NOT NULL REFERENCES device(id),
	family_id INTEGER NOT NULL REFERENCES family(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	timing_mode TEXT NOT NULL,
	measurement_id INTEGER NOT NULL REFERENCES measurement(id),
	PRIMARY KEY (device_id, family_id, dtype, rows, cols, timing_mode)
);
