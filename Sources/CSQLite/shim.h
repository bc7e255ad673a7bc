// The system SQLite (Debian: libsqlite3-dev). Only TripLedger's SQLiteBoundary.swift imports this module.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#include <unistd.h>

// "trip-unix": SQLite's "unix" VFS, except that a -wal file that already exists is opened without
// SQLITE_OPEN_CREATE. The unix VFS fsyncs the folder on the first sync of any WAL it opened with
// CREATE, which SQLite always asks for, so every command paid a folder fsync for a -wal kept from
// the command before (SQLITE_FCNTL_PERSIST_WAL). A kept -wal's name is already durable: it was
// created, and the folder synced, by an earlier command. If the file went away in between, the
// open is retried as SQLite asked. No state of its own (a header's statics are not shared between
// object files): the unix VFS is looked up by name.
static inline int csqlite_trip_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out) {
    sqlite3_vfs *unix_vfs = sqlite3_vfs_find("unix");
    if (!unix_vfs) return SQLITE_ERROR;
    if ((flags & SQLITE_OPEN_WAL) && (flags & SQLITE_OPEN_CREATE) && name && access(name, F_OK) == 0) {
        int rc = unix_vfs->xOpen(vfs, name, file, flags & ~SQLITE_OPEN_CREATE, out);
        if (rc == SQLITE_OK) return rc;
    }
    return unix_vfs->xOpen(vfs, name, file, flags, out);
}

// The VFS to open ledgers with: "trip-unix", registered on first use (two threads racing may
// register it twice, harmlessly: both copies behave the same and live as long as the process);
// NULL, the default VFS, if it cannot be.
static inline const char *csqlite_trip_vfs_name(void) {
    if (sqlite3_vfs_find("trip-unix")) return "trip-unix";
    sqlite3_vfs *unix_vfs = sqlite3_vfs_find("unix");
    if (!unix_vfs) return 0;
    sqlite3_vfs *vfs = (sqlite3_vfs *)sqlite3_malloc((int)sizeof(sqlite3_vfs));
    if (!vfs) return 0;
    *vfs = *unix_vfs;
    vfs->pNext = 0;
    vfs->zName = "trip-unix";
    vfs->xOpen = csqlite_trip_open;
    if (sqlite3_vfs_register(vfs, 0) != SQLITE_OK) {
        sqlite3_free(vfs);
        return 0;
    }
    return "trip-unix";
}
