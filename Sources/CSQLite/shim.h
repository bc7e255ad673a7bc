// The system SQLite (Debian: libsqlite3-dev). Only TripLedger's SQLiteBoundary.swift imports this module.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call. Leaves the WAL for the next command
// instead of checkpointing it when the last connection closes (see SQLiteBoundary.open).
static inline int csqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
