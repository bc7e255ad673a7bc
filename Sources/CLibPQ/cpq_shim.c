// cpq_shim.c — resolves libpq with dlopen/dlsym on first use; see include/cpq_shim.h.

#include "cpq_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    PGconn *(*connectdb_params)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    PGresult *(*exec)(PGconn *, const char *);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*result_error_message)(const PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*fname)(const PGresult *, int);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    void (*clear)(PGresult *);
    PQconninfoOption *(*conninfo_parse)(const char *, char **);
    PQconninfoOption *(*conninfo)(PGconn *);
    void (*conninfo_free)(PQconninfoOption *);
    void (*freemem)(void *);
    char *(*host)(const PGconn *);
    int (*ssl_in_use)(PGconn *);
    int (*server_version)(const PGconn *);
    PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
    int (*put_copy_data)(PGconn *, const char *, int);
    int (*put_copy_end)(PGconn *, const char *);
    PGresult *(*get_result)(PGconn *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[256];

#ifdef __APPLE__
#define LIBPQ_NAME "libpq.5.dylib"
#else
#define LIBPQ_NAME "libpq.so.5"
#endif

#define RESOLVE(field, symbol)                                                          \
    do {                                                                                \
        *(void **)(&api.field) = dlsym(library, symbol);                                \
        if (api.field == NULL) {                                                        \
            snprintf(load_error, sizeof load_error, LIBPQ_NAME " lacks %s", symbol);    \
            return;                                                                     \
        }                                                                               \
    } while (0)

static void load_library(void) {
    // RTLD_LOCAL keeps libpq's symbols out of the global namespace; RTLD_NOW surfaces a broken
    // installation here rather than at the first call.
    void *library = dlopen(LIBPQ_NAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "dlopen(" LIBPQ_NAME ") failed");
        return;
    }
    RESOLVE(connectdb_params, "PQconnectdbParams");
    RESOLVE(status, "PQstatus");
    RESOLVE(error_message, "PQerrorMessage");
    RESOLVE(finish, "PQfinish");
    RESOLVE(exec_params, "PQexecParams");
    RESOLVE(exec, "PQexec");
    RESOLVE(result_status, "PQresultStatus");
    RESOLVE(result_error_field, "PQresultErrorField");
    RESOLVE(result_error_message, "PQresultErrorMessage");
    RESOLVE(ntuples, "PQntuples");
    RESOLVE(nfields, "PQnfields");
    RESOLVE(fname, "PQfname");
    RESOLVE(getvalue, "PQgetvalue");
    RESOLVE(getlength, "PQgetlength");
    RESOLVE(getisnull, "PQgetisnull");
    RESOLVE(clear, "PQclear");
    RESOLVE(conninfo_parse, "PQconninfoParse");
    RESOLVE(conninfo, "PQconninfo");
    RESOLVE(conninfo_free, "PQconninfoFree");
    RESOLVE(freemem, "PQfreemem");
    RESOLVE(host, "PQhost");
    RESOLVE(ssl_in_use, "PQsslInUse");
    RESOLVE(server_version, "PQserverVersion");
    RESOLVE(set_notice_processor, "PQsetNoticeProcessor");
    RESOLVE(put_copy_data, "PQputCopyData");
    RESOLVE(put_copy_end, "PQputCopyEnd");
    RESOLVE(get_result, "PQgetResult");
    load_status = 0;
}

int cpq_load(char *errbuf, size_t errbuf_len) {
    pthread_once(&load_once, load_library);
    if (load_status != 0 && errbuf != NULL && errbuf_len > 0) {
        snprintf(errbuf, errbuf_len, "%s", load_error);
    }
    return load_status;
}

PGconn *cpq_connectdb_params(const char *const *keywords, const char *const *values, int expand_dbname) {
    return api.connectdb_params(keywords, values, expand_dbname);
}
ConnStatusType cpq_status(const PGconn *conn) { return api.status(conn); }
char *cpq_error_message(const PGconn *conn) { return api.error_message(conn); }
void cpq_finish(PGconn *conn) { api.finish(conn); }
PGresult *cpq_exec_params(PGconn *conn, const char *command, int n_params, const char *const *values) {
    // Text parameters with server-inferred types, text results: every value crosses as a string
    // the SQL casts explicitly ($1::bigint), so no OID table is needed here.
    return api.exec_params(conn, command, n_params, NULL, values, NULL, NULL, 0);
}
PGresult *cpq_exec(PGconn *conn, const char *command) { return api.exec(conn, command); }
ExecStatusType cpq_result_status(const PGresult *res) { return api.result_status(res); }
char *cpq_result_error_field(const PGresult *res, int fieldcode) { return api.result_error_field(res, fieldcode); }
char *cpq_result_error_message(const PGresult *res) { return api.result_error_message(res); }
int cpq_ntuples(const PGresult *res) { return api.ntuples(res); }
int cpq_nfields(const PGresult *res) { return api.nfields(res); }
char *cpq_fname(const PGresult *res, int column) { return api.fname(res, column); }
char *cpq_getvalue(const PGresult *res, int row, int column) { return api.getvalue(res, row, column); }
int cpq_getlength(const PGresult *res, int row, int column) { return api.getlength(res, row, column); }
int cpq_getisnull(const PGresult *res, int row, int column) { return api.getisnull(res, row, column); }
void cpq_clear(PGresult *res) { api.clear(res); }
PQconninfoOption *cpq_conninfo_parse(const char *conninfo, char **errmsg) { return api.conninfo_parse(conninfo, errmsg); }
PQconninfoOption *cpq_conninfo(PGconn *conn) { return api.conninfo(conn); }
void cpq_conninfo_free(PQconninfoOption *options) { api.conninfo_free(options); }
void cpq_freemem(void *pointer) { api.freemem(pointer); }
char *cpq_host(const PGconn *conn) { return api.host(conn); }
int cpq_ssl_in_use(PGconn *conn) { return api.ssl_in_use(conn); }
int cpq_server_version(const PGconn *conn) { return api.server_version(conn); }

static void drop_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}
void cpq_silence_notices(PGconn *conn) { api.set_notice_processor(conn, drop_notice, NULL); }
int cpq_put_copy_data(PGconn *conn, const char *buffer, int nbytes) { return api.put_copy_data(conn, buffer, nbytes); }
int cpq_put_copy_end(PGconn *conn, const char *errormsg) { return api.put_copy_end(conn, errormsg); }
PGresult *cpq_get_result(PGconn *conn) { return api.get_result(conn); }
