// cpq_shim.h — libpq, PostgreSQL's own C client, loaded on demand.
//
// Only the sharing commands (`trip remote`, `share`, `join`, `sync`, …) talk to PostgreSQL, so the
// `trip` binary does not link libpq: every other command would pay its load time (and that of
// its TLS and Kerberos libraries) on each start. The first `cpq_load()` dlopen()s libpq and
// dlsym()s the functions below. <libpq-fe.h> (libpq-dev) is included only for its types.
//
// Only `RemoteSync/Postgres/PostgresBoundary.swift` imports this module.

#ifndef CPQ_SHIM_H
#define CPQ_SHIM_H

#include <stddef.h>
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Loads libpq once (thread-safe). Returns 0 on success; otherwise -1 and a NUL-terminated
/// reason (from dlerror) in `errbuf`.
int cpq_load(char *errbuf, size_t errbuf_len);

// Plain wrappers: the real functions are reached through dlsym'd pointers, never linked.
// Each may be called only after cpq_load() returned 0.

/// PQconnectdbParams; wrapper because libpq is dlopen'ed, not linked.
PGconn *cpq_connectdb_params(const char *const *keywords, const char *const *values, int expand_dbname);
/// PQstatus; wrapper because libpq is dlopen'ed, not linked.
ConnStatusType cpq_status(const PGconn *conn);
/// PQerrorMessage; wrapper because libpq is dlopen'ed, not linked.
char *cpq_error_message(const PGconn *conn);
/// PQfinish; wrapper because libpq is dlopen'ed, not linked.
void cpq_finish(PGconn *conn);
/// PQexecParams with every parameter as text; wrapper because libpq is dlopen'ed, not linked.
PGresult *cpq_exec_params(PGconn *conn, const char *command, int n_params, const char *const *values);
/// PQexec: several statements in one string (schema scripts); no parameters.
PGresult *cpq_exec(PGconn *conn, const char *command);
/// PQresultStatus; wrapper because libpq is dlopen'ed, not linked.
ExecStatusType cpq_result_status(const PGresult *res);
/// PQresultErrorField; wrapper because libpq is dlopen'ed, not linked.
char *cpq_result_error_field(const PGresult *res, int fieldcode);
/// PQresultErrorMessage; wrapper because libpq is dlopen'ed, not linked.
char *cpq_result_error_message(const PGresult *res);
/// PQntuples; wrapper because libpq is dlopen'ed, not linked.
int cpq_ntuples(const PGresult *res);
/// PQnfields; wrapper because libpq is dlopen'ed, not linked.
int cpq_nfields(const PGresult *res);
/// PQfname; wrapper because libpq is dlopen'ed, not linked.
char *cpq_fname(const PGresult *res, int column);
/// PQgetvalue; wrapper because libpq is dlopen'ed, not linked.
char *cpq_getvalue(const PGresult *res, int row, int column);
/// PQgetlength; wrapper because libpq is dlopen'ed, not linked.
int cpq_getlength(const PGresult *res, int row, int column);
/// PQgetisnull; wrapper because libpq is dlopen'ed, not linked.
int cpq_getisnull(const PGresult *res, int row, int column);
/// PQclear; wrapper because libpq is dlopen'ed, not linked.
void cpq_clear(PGresult *res);
/// PQconninfoParse; the result must be released with cpq_conninfo_free.
PQconninfoOption *cpq_conninfo_parse(const char *conninfo, char **errmsg);
/// PQconninfo: the options a connection actually uses; release with cpq_conninfo_free.
PQconninfoOption *cpq_conninfo(PGconn *conn);
/// PQconninfoFree; wrapper because libpq is dlopen'ed, not linked.
void cpq_conninfo_free(PQconninfoOption *options);
/// PQfreemem (for PQconninfoParse's error message); wrapper because libpq is dlopen'ed, not linked.
void cpq_freemem(void *pointer);
/// PQhost; wrapper because libpq is dlopen'ed, not linked.
char *cpq_host(const PGconn *conn);
/// PQsslInUse; wrapper because libpq is dlopen'ed, not linked.
int cpq_ssl_in_use(PGconn *conn);
/// PQserverVersion; wrapper because libpq is dlopen'ed, not linked.
int cpq_server_version(const PGconn *conn);
/// PQsetNoticeProcessor with a processor that drops notices: the server's NOTICE lines
/// (`relation already exists, skipping`) are not for the traveller's terminal.
void cpq_silence_notices(PGconn *conn);
/// PQputCopyData: one chunk of a `COPY … FROM STDIN`; 1 sent, -1 failed.
int cpq_put_copy_data(PGconn *conn, const char *buffer, int nbytes);
/// PQputCopyEnd: ends the COPY (`errormsg` non-NULL aborts it); 1 sent, -1 failed.
int cpq_put_copy_end(PGconn *conn, const char *errormsg);
/// PQgetResult: the next result of the command in progress; NULL when it is done.
PGresult *cpq_get_result(PGconn *conn);

#ifdef __cplusplus
}
#endif

#endif
