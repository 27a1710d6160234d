#!/bin/sh
# Rebuilds store-v1.sqlite (a schema-1 result store, for TestStoreMigration) from store-v1.sql.
set -e
cd "$(dirname "$0")"
rm -f store-v1.sqlite
sqlite3 store-v1.sqlite < store-v1.sql
sqlite3 store-v1.sqlite 'PRAGMA user_version; PRAGMA integrity_check; SELECT COUNT(*) FROM runs;'
