-- A result store as Wirebench's first store schema (user_version 1) wrote it: the layout of kSchemaV1 in
-- core/storage/ResultStore.cpp, with two sessions. Rebuild store-v1.sqlite with ./make-store-v1.sh.
PRAGMA journal_mode = DELETE;
BEGIN;
CREATE TABLE sessions ( id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, started_at TEXT NOT NULL, ended_at TEXT, state TEXT NOT NULL CHECK (state IN ('running','finished','cancelled','interrupted')), plan_json TEXT NOT NULL DEFAULT '{}', machine_hostname TEXT NOT NULL DEFAULT '', wirebench_version TEXT NOT NULL DEFAULT '');
CREATE TABLE runs ( id INTEGER PRIMARY KEY AUTOINCREMENT, session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, run_index INTEGER NOT NULL DEFAULT 0, host TEXT NOT NULL DEFAULT '', address TEXT NOT NULL DEFAULT '', os TEXT NOT NULL DEFAULT '', protocol TEXT NOT NULL, frame_size INTEGER NOT NULL DEFAULT 0, mss INTEGER NOT NULL DEFAULT 0, repetition INTEGER NOT NULL DEFAULT 1, bytes INTEGER NOT NULL DEFAULT 0, seconds REAL NOT NULL DEFAULT 0, throughput_MBps REAL NOT NULL DEFAULT 0, status TEXT NOT NULL, error TEXT NOT NULL DEFAULT '', warnings_json TEXT NOT NULL DEFAULT '[]', started_at TEXT);
CREATE TABLE samples ( run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, end_seconds REAL NOT NULL, interval_seconds REAL NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX runs_by_session ON runs(session_id);
CREATE INDEX samples_by_run ON samples(run_id);

-- Session 1: finished, two hosts in the plan (one with an SMB share option), three runs.
INSERT INTO sessions VALUES (1, '6f1c2a54-0d2e-4f7b-9a51-3c0e8e7d2b10', '2026-10-01T09:00:00.000Z', '2026-10-01T09:01:10.000Z',
  'finished',
  '{"hosts":[{"name":"linux-fs","address":"192.0.2.10","port":5301,"os":"Linux","server_type":"wirebenchd","link_speed_Mbps":1000,"embedded":false,"options":{"smb.share":"bench"}},{"name":"win-fs","address":"192.0.2.20","port":5301,"os":"Windows Server 2003","server_type":"wirebenchd","link_speed_Mbps":1000,"embedded":false,"options":{}}],"protocols":["tcp-send"],"frame_sizes":[1500,9000],"repetitions":1,"interleave_hosts":false,"params":{"duration_ms":10000,"message_size":131072,"send_buffer":0,"recv_buffer":0,"sample_interval_ms":100,"warmup_ms":0,"streams":1,"file_size":268435456,"stop_on_error":false,"options":{}}}',
  'benchbox', '0.0.9');
INSERT INTO runs VALUES (1, 1, 0, 'linux-fs', '192.0.2.10', 'Linux', 'tcp-send', 1500, 1448, 1, 1176000000, 10.0, 117.6, 'ok', '', '[]', '2026-10-01T09:00:00.000Z');
INSERT INTO runs VALUES (2, 1, 1, 'win-fs', '192.0.2.20', 'Windows Server 2003', 'tcp-send', 1500, 1460, 1, 1043000000, 10.0, 104.3, 'ok', '', '["the server reported 3 retransmissions"]', '2026-10-01T09:00:11.000Z');
INSERT INTO runs VALUES (3, 1, 2, 'win-fs', '192.0.2.20', 'Windows Server 2003', 'tcp-send', 9000, 0, 1, 0, 0, 0, 'failed', 'win-fs (192.0.2.20:5301): connection refused; start wirebenchd there', '[]', '2026-10-01T09:00:22.000Z');
INSERT INTO samples VALUES (1, 0.1, 0.1, 11700000);
INSERT INTO samples VALUES (1, 0.2, 0.1, 11800000);
INSERT INTO samples VALUES (1, 0.3, 0.1, 11760000);
INSERT INTO samples VALUES (2, 0.1, 0.1, 10400000);
INSERT INTO samples VALUES (2, 0.2, 0.1, 10460000);

-- Session 2: an older plan without hosts in its JSON, left 'running' by a crash; one run.
INSERT INTO sessions VALUES (2, 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', '2026-10-02T14:30:00.000Z', NULL, 'running',
  '{"protocols":["tcp-recv"],"frame_sizes":[1500],"repetitions":5}', 'benchbox', '0.0.9');
INSERT INTO runs VALUES (4, 2, 0, 'nas', '192.0.2.30', 'FreeBSD', 'tcp-recv', 1500, 1448, 1, 935000000, 10.0, 93.5, 'ok', '', '[]', '2026-10-02T14:30:00.000Z');
INSERT INTO samples VALUES (4, 0.1, 0.1, 9350000);
COMMIT;
PRAGMA user_version = 1;
