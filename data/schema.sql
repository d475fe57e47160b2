-- fwadvisor knowledge base, schema version 7 (PRAGMA user_version = 7, set by the program).
-- Version 2 added probe_runs; version 3 added the hardware columns (hw_support.fit and os_support,
-- strategy_frameworks.hardware, runtimes.hardware and kinds, runtime_frameworks.path,
-- strategies.kinds and tensor_parallel), `also` (further sources of a fact) and the accelerators'
-- TF32/FP8 peaks and interconnect; version 4 the accelerator vendors trainium and gaudi; version 5
-- the on-demand prices per device-hour (prices); version 6 where an accelerator's figures come from
-- (accelerators.figures); version 7 the Chinese text of every prose column (COLUMN_zh beside
-- COLUMN: a note, summary, name, description, title or rule text; '' means none yet, and a
-- Chinese reader then sees the English).
-- knowledge/kb.c upgrades older files in place.
--
-- Every fact row carries `source` (a row of `sources`) and `as_of` (YYYY-MM-DD: the day the fact
-- was last checked), plus `origin`: 'builtin' rows come from data/kb/*.sql compiled into the binary
-- and are replaced when a newer binary brings newer facts; 'user' rows come from `kb import` and are
-- never touched by a refresh. Foreign keys are deferred so a whole import or refresh is checked at
-- commit. Allowed values are repeated in knowledge/kb_tables.c, which validates imports before any
-- write; the CHECKs here are the last line of defence.
--
-- `also` (where a table has it) lists further sources of the same fact, comma-separated source ids:
-- a seed rating refreshed by newer evidence keeps the seed in `source` and the evidence in `also`.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE sources (
  id        TEXT PRIMARY KEY,
  title     TEXT NOT NULL CHECK (title <> ''),
  url       TEXT NOT NULL CHECK (url <> ''),      -- URL, or a citation where there is no URL
  published TEXT NOT NULL,                        -- YYYY, YYYY-MM, YYYY-MM-DD, or 'undated'
  note      TEXT NOT NULL DEFAULT '',
  note_zh   TEXT NOT NULL DEFAULT '',
  origin    TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

CREATE TABLE frameworks (
  id       TEXT PRIMARY KEY,
  name     TEXT NOT NULL,
  version  TEXT NOT NULL,                         -- current release when as_of was checked
  released TEXT NOT NULL,                         -- release date of that version
  summary  TEXT NOT NULL,
  summary_zh TEXT NOT NULL DEFAULT '',
  source   TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of    TEXT NOT NULL,
  origin   TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

-- A criterion the ranking weighs; `weight` is its base weight before the answers adjust it.
CREATE TABLE criteria (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  name_zh     TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL,
  description_zh TEXT NOT NULL DEFAULT '',
  weight      REAL NOT NULL CHECK (weight >= 0),
  source      TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of       TEXT NOT NULL,
  origin      TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

CREATE TABLE scores (
  framework TEXT NOT NULL REFERENCES frameworks (id) DEFERRABLE INITIALLY DEFERRED,
  criterion TEXT NOT NULL REFERENCES criteria (id) DEFERRABLE INITIALLY DEFERRED,
  score     INTEGER NOT NULL CHECK (score BETWEEN 0 AND 10),
  note      TEXT NOT NULL CHECK (note <> ''),
  note_zh   TEXT NOT NULL DEFAULT '',
  source    TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  also      TEXT NOT NULL DEFAULT '',
  as_of     TEXT NOT NULL,
  origin    TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user')),
  PRIMARY KEY (framework, criterion)
);

-- Hardware platforms: nvidia, amd, tpu, apple, intel, ascend, trainium, gaudi, cpu.
CREATE TABLE hardware (
  id      TEXT PRIMARY KEY,
  name    TEXT NOT NULL,
  name_zh TEXT NOT NULL DEFAULT '',
  summary TEXT NOT NULL,
  summary_zh TEXT NOT NULL DEFAULT '',
  source  TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of   TEXT NOT NULL,
  origin  TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

-- `fit` is the framework's quality on this platform, 0-10 (the criterion hardware_fit takes its
-- score from here for the hardware in the answers). `os_support` is a JSON object of operating
-- system -> {"level", "since", "note", "source"} for the systems where the level differs from
-- `level` (e.g. TensorFlow on a Windows NVIDIA GPU: experimental since 2.11, WSL2 only).
CREATE TABLE hw_support (
  framework  TEXT NOT NULL REFERENCES frameworks (id) DEFERRABLE INITIALLY DEFERRED,
  hardware   TEXT NOT NULL REFERENCES hardware (id) DEFERRABLE INITIALLY DEFERRED,
  level      TEXT NOT NULL CHECK (level IN ('first-class', 'supported', 'experimental', 'community', 'none')),
  since      TEXT NOT NULL DEFAULT '',            -- framework version since when, '' if unknown or none
  fit        INTEGER NOT NULL CHECK (fit BETWEEN 0 AND 10),
  os_support TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(os_support)),
  note       TEXT NOT NULL CHECK (note <> ''),
  note_zh    TEXT NOT NULL DEFAULT '',
  source     TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  also       TEXT NOT NULL DEFAULT '',
  as_of      TEXT NOT NULL,
  origin    TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user')),
  PRIMARY KEY (framework, hardware)
);

-- Distributed strategies. Model-state memory per device for mixed-precision Adam follows
--   replicated_bytes_per_param * P + sharded_bytes_per_param * P / N
-- (ZeRO paper: DDP 16 + 0, ZeRO-1 4 + 12, ZeRO-2 2 + 14, ZeRO-3 0 + 16), with
-- cpu_bytes_per_param * P held in host memory by offloading strategies.
CREATE TABLE strategies (
  id                         TEXT PRIMARY KEY,
  name                       TEXT NOT NULL,
  name_zh                    TEXT NOT NULL DEFAULT '',
  shards                     TEXT NOT NULL,       -- what is split across devices
  shards_zh                  TEXT NOT NULL DEFAULT '',
  scale                      TEXT NOT NULL,       -- the scale it is meant for
  scale_zh                   TEXT NOT NULL DEFAULT '',
  min_devices                INTEGER NOT NULL CHECK (min_devices >= 1),
  status                     TEXT NOT NULL CHECK (status IN ('current', 'maintenance', 'legacy', 'deprecated')),
  memory_formula             TEXT NOT NULL,
  replicated_bytes_per_param REAL NOT NULL CHECK (replicated_bytes_per_param >= 0),
  sharded_bytes_per_param    REAL NOT NULL CHECK (sharded_bytes_per_param >= 0),
  cpu_bytes_per_param        REAL NOT NULL CHECK (cpu_bytes_per_param >= 0),
  tensor_parallel            INTEGER NOT NULL DEFAULT 0 CHECK (tensor_parallel IN (0, 1)), -- splits layers
  kinds                      TEXT NOT NULL DEFAULT '', -- model kinds it is meant for, comma-separated; '' any
  summary                    TEXT NOT NULL,
  summary_zh                 TEXT NOT NULL DEFAULT '',
  source                     TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of                      TEXT NOT NULL,
  origin                     TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

-- `hardware`: the platforms (hardware ids, comma-separated) this framework's implementation runs on.
CREATE TABLE strategy_frameworks (
  strategy  TEXT NOT NULL REFERENCES strategies (id) DEFERRABLE INITIALLY DEFERRED,
  framework TEXT NOT NULL REFERENCES frameworks (id) DEFERRABLE INITIALLY DEFERRED,
  hardware  TEXT NOT NULL DEFAULT '',
  note      TEXT NOT NULL CHECK (note <> ''),     -- how the framework offers it (API, library)
  note_zh   TEXT NOT NULL DEFAULT '',
  source    TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of     TEXT NOT NULL,
  origin    TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user')),
  PRIMARY KEY (strategy, framework)
);

-- Deployment runtimes; `targets` is a comma-separated subset of server,mobile,edge,browser
-- (empty for `none`), `hardware` the serving hardware it runs on (deploy_hardware values) and
-- `kinds` the model kinds it serves ('' any).
CREATE TABLE runtimes (
  id       TEXT PRIMARY KEY,
  name     TEXT NOT NULL,
  targets  TEXT NOT NULL,
  hardware TEXT NOT NULL DEFAULT '',
  kinds    TEXT NOT NULL DEFAULT '',
  status  TEXT NOT NULL CHECK (status IN ('current', 'maintenance', 'deprecated', 'archived')),
  summary TEXT NOT NULL,
  summary_zh TEXT NOT NULL DEFAULT '',
  source  TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of   TEXT NOT NULL,
  origin  TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

-- `path`: native (the framework's own format), converter (an official converter) or indirect
-- (through another framework or format).
CREATE TABLE runtime_frameworks (
  runtime   TEXT NOT NULL REFERENCES runtimes (id) DEFERRABLE INITIALLY DEFERRED,
  framework TEXT NOT NULL REFERENCES frameworks (id) DEFERRABLE INITIALLY DEFERRED,
  path      TEXT NOT NULL DEFAULT 'converter' CHECK (path IN ('native', 'converter', 'indirect')),
  note      TEXT NOT NULL CHECK (note <> ''),     -- the export path (converter, API)
  note_zh   TEXT NOT NULL DEFAULT '',
  source    TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of     TEXT NOT NULL,
  origin    TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user')),
  PRIMARY KEY (runtime, framework)
);

-- Accelerator catalog for the planner: dense peaks (never the 2:4-sparsity figures), memory and
-- the links a plan's communication runs over.
CREATE TABLE accelerators (
  id                 TEXT PRIMARY KEY,
  name               TEXT NOT NULL,
  vendor             TEXT NOT NULL CHECK (vendor IN ('nvidia', 'amd', 'tpu', 'apple', 'intel', 'ascend', 'trainium', 'gaudi')),
  memory_gb          REAL NOT NULL CHECK (memory_gb > 0),
  bandwidth_gbs      REAL NOT NULL CHECK (bandwidth_gbs > 0),
  fp32_tflops        REAL NOT NULL CHECK (fp32_tflops > 0),
  bf16_tflops        REAL NOT NULL CHECK (bf16_tflops >= 0),   -- 0: no BF16 support
  fp16_tflops        REAL NOT NULL CHECK (fp16_tflops >= 0),   -- 0: no FP16 support (TPU)
  tf32_tflops        REAL NOT NULL DEFAULT 0 CHECK (tf32_tflops >= 0), -- 0: no TF32 matrix mode
  fp8_tflops         REAL NOT NULL DEFAULT 0 CHECK (fp8_tflops >= 0),  -- 0: no FP8 matrix mode
  link_gbs           REAL NOT NULL DEFAULT 0 CHECK (link_gbs >= 0),    -- per device, one direction, to
                                                  -- peers in its node or scale-up domain; 0: unknown
  network_gbs        REAL NOT NULL DEFAULT 0 CHECK (network_gbs >= 0), -- per device, one direction,
                                                  -- between nodes of the reference system; 0: unknown
  interconnect       TEXT NOT NULL DEFAULT '',    -- what the two figures are (NVLink 4, 8 x 400 Gb/s ...)
  compute_capability TEXT NOT NULL DEFAULT '',    -- NVIDIA only, e.g. '9.0'
  match              TEXT NOT NULL,               -- lower-case substring of the name a driver reports
  planner_default    INTEGER NOT NULL DEFAULT 0 CHECK (planner_default IN (0, 1)), -- the vendor's device the
                                                  -- planner assumes when the answers name no memory
  figures            TEXT NOT NULL DEFAULT 'vendor' CHECK (figures IN ('vendor', 'derived', 'secondary')),
                                                  -- where the figures come from: the vendor's own
                                                  -- datasheet or documentation; some derived from
                                                  -- vendor figures (clocks x units, dense = sparse / 2
                                                  -- is still 'vendor'); or secondary (press, tables,
                                                  -- a cloud's page) where the vendor publishes none
  source             TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of              TEXT NOT NULL,
  origin             TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

-- On-demand list prices: what one device of an accelerator costs per hour at a provider, in US
-- dollars (the provider's price for an instance divided by the devices it holds), with the region
-- and instance type it was read for. Without a row no cost is planned from the catalog.
CREATE TABLE prices (
  accelerator         TEXT NOT NULL REFERENCES accelerators (id) DEFERRABLE INITIALLY DEFERRED,
  provider            TEXT NOT NULL,
  usd_per_device_hour REAL NOT NULL CHECK (usd_per_device_hour > 0),
  region              TEXT NOT NULL,
  instance            TEXT NOT NULL,
  source              TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  as_of               TEXT NOT NULL,
  origin              TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user')),
  PRIMARY KEY (accelerator, provider)
);

-- Advice as data: the seed articles' decision tree, Q&A, rules of thumb, criterion weights and
-- pitfalls. `condition` and `effect` are JSON documents described in docs/knowledge-base.md.
CREATE TABLE rules (
  id        TEXT PRIMARY KEY,
  kind      TEXT NOT NULL CHECK (kind IN ('decision', 'qa', 'weight', 'score', 'rule_of_thumb', 'pitfall')),
  title     TEXT NOT NULL,                        -- the question (qa, decision) or a short name
  title_zh  TEXT NOT NULL DEFAULT '',
  text      TEXT NOT NULL CHECK (text <> ''),     -- the answer, reason or advice shown to the user
  text_zh   TEXT NOT NULL DEFAULT '',
  condition TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(condition)),
  effect    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(effect)),
  priority  INTEGER NOT NULL DEFAULT 0,           -- order among rules of one kind (decision tree order)
  source    TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED,
  also      TEXT NOT NULL DEFAULT '',
  as_of     TEXT NOT NULL,
  origin    TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user'))
);

-- Probe runs (`fwadvisor probe`): the user's own measurements. A refresh of the built-in facts
-- never touches them; `doc` is the whole fwadvisor.probe/1 document.
CREATE TABLE probe_runs (
  id          TEXT PRIMARY KEY,
  started_at  TEXT NOT NULL,
  duration_s  REAL NOT NULL,
  interrupted INTEGER NOT NULL CHECK (interrupted IN (0, 1)),
  summary     TEXT NOT NULL,                        -- one line for `probe list`
  doc         TEXT NOT NULL CHECK (json_valid(doc))
);
