// ccurl_shim.c — resolves libcurl with dlopen/dlsym on first use; see include/ccurl_shim.h.

#include "ccurl_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
    void (*free)(void *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[256];

#define RESOLVE(field, symbol)                                                         \
    do {                                                                               \
        *(void **)(&api.field) = dlsym(library, symbol);                               \
        if (api.field == NULL) {                                                       \
            snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks %s", symbol);  \
            return;                                                                    \
        }                                                                              \
    } while (0)

static void load_library(void) {
    // RTLD_LOCAL keeps libcurl's symbols out of the global namespace; RTLD_NOW surfaces a
    // broken installation here rather than at the first call.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "dlopen(libcurl.so.4) failed");
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(url, "curl_url");
    RESOLVE(url_cleanup, "curl_url_cleanup");
    RESOLVE(url_set, "curl_url_set");
    RESOLVE(url_get, "curl_url_get");
    RESOLVE(free, "curl_free");
    load_status = 0;
}

int ccurl_load(char *errbuf, size_t errbuf_len) {
    pthread_once(&load_once, load_library);
    if (load_status != 0 && errbuf != NULL && errbuf_len > 0) {
        snprintf(errbuf, errbuf_len, "%s", load_error);
    }
    return load_status;
}

CURLcode ccurl_global_init_default(void) { return api.global_init(CURL_GLOBAL_DEFAULT); }
CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) {
    return api.slist_append(list, string);
}
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_str(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback) {
    return api.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback) {
    return api.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    return api.easy_getinfo(handle, info, out);
}
CURLcode ccurl_getinfo_str(CURL *handle, CURLINFO info, const char **out) {
    return api.easy_getinfo(handle, info, out);
}
CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *out) {
    return api.easy_getinfo(handle, info, out);
}

CURLU *ccurl_url(void) { return api.url(); }
void ccurl_url_cleanup(CURLU *url) { api.url_cleanup(url); }
CURLUcode ccurl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags) {
    return api.url_set(url, part, content, flags);
}
CURLUcode ccurl_url_get(CURLU *url, CURLUPart part, char **content, unsigned int flags) {
    return api.url_get(url, part, content, flags);
}
void ccurl_free(void *pointer) { api.free(pointer); }
