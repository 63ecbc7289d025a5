-- gputune tuning database, schema version 3: kernel families that are not
-- transposes.  A family says how its sizes read (a 1-D size N is stored
-- as rows = N, cols = 1) and what its figure counts (measurement.gbps and
-- ceiling.*_gbps hold the family's metric: GB/s, or GFLOP/s for 'GFLOP/s'
-- families); a ceiling says what it timed: 'copy' (cuMemcpy and a copy
-- kernel) or 'read' (streaming reads of the input, the best of three,
-- in copy_kernel_gbps; memcpy_gbps is 0).  Existing rows keep their
-- meaning: every family before this version was 2-D, in GB/s, against a
-- copy.

ALTER TABLE family ADD COLUMN shape TEXT NOT NULL DEFAULT '2d' CHECK (shape IN ('1d', '2d', '3d'));
ALTER TABLE family ADD COLUMN metric TEXT NOT NULL DEFAULT 'GB/s';
ALTER TABLE ceiling ADD COLUMN kind TEXT NOT NULL DEFAULT 'copy' CHECK (kind IN ('copy', 'read'));
