-- gputune tuning database, schema version 4: the conditions each size was
-- timed under, and the held-out points of `gputune validate`.
--
-- run_condition: per run and size, NVML's readings at the start and end
-- of that size's timing and their extremes in between (clocks in MHz,
-- temperature in degrees C, power in W), and the clock-limit reasons
-- seen while timing (NVML's bit mask, GPU-idle left out; 0: none).
-- run.conditions is 'recorded' when they were, else why not (NULL for
-- runs made before this version).
--
-- validation: per validate run and held-out size, the variant the
-- exported header's rule chose there (how: exact, rule or fallback), its
-- figure and share of the ceiling, and the size's own best.

CREATE TABLE run_condition (
	run_id INTEGER NOT NULL REFERENCES run(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
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
	PRIMARY KEY (run_id, dtype, rows, cols)
);

ALTER TABLE run ADD COLUMN conditions TEXT;

CREATE TABLE validation (
	run_id INTEGER NOT NULL REFERENCES run(id),
	dtype TEXT NOT NULL,
	rows INTEGER NOT NULL,
	cols INTEGER NOT NULL,
	params TEXT NOT NULL,
	how TEXT NOT NULL,
	gbps REAL,
	fraction REAL,
	best_gbps REAL,
	PRIMARY KEY (run_id, dtype, rows, cols)
);
