// ccurl_shim.h — libcurl loaded on demand.
//
// The `trip` binary must not link libcurl: commands that never touch the network would pay
// libcurl's load time on every start (`make bench` measures a command's start). So nothing here
// links against libcurl; the first `ccurl_load()` dlopen()s "libcurl.so.4" and dlsym()s the few
// functions below. <curl/curl.h> is included only for its types and constants.
//
// Only `RateService/HTTP/CurlBoundary.swift` imports this module.

#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <stddef.h>
#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads libcurl once (thread-safe). Returns 0 on success; otherwise -1 and a
/// NUL-terminated reason (from dlerror) in `errbuf`.
int ccurl_load(char *errbuf, size_t errbuf_len);

// Plain wrappers: the real functions are reached through dlsym'd pointers, never linked.
// Each may be called only after ccurl_load() returned 0.

/// curl_global_init(CURL_GLOBAL_DEFAULT); wrapper because the flag is a macro Swift cannot import.
CURLcode ccurl_global_init_default(void);
/// curl_easy_init; wrapper because libcurl is dlopen'ed, not linked.
CURL *ccurl_easy_init(void);
/// curl_easy_cleanup; wrapper because libcurl is dlopen'ed, not linked.
void ccurl_easy_cleanup(CURL *handle);
/// curl_easy_perform; wrapper because libcurl is dlopen'ed, not linked.
CURLcode ccurl_easy_perform(CURL *handle);
/// curl_easy_strerror; wrapper because libcurl is dlopen'ed, not linked.
const char *ccurl_easy_strerror(CURLcode code);
/// curl_slist_append; wrapper because libcurl is dlopen'ed, not linked.
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
/// curl_slist_free_all; wrapper because libcurl is dlopen'ed, not linked.
void ccurl_slist_free_all(struct curl_slist *list);

// Typed setopt/getinfo: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call, and the argument type must match the option exactly (long, char*, void*, curl_off_t,
// function pointer).

/// curl_easy_setopt for options taking a `long`; curl_easy_setopt is variadic.
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
/// curl_easy_setopt for options taking a `char *` (libcurl copies the string); curl_easy_setopt is variadic.
CURLcode ccurl_setopt_str(CURL *handle, CURLoption option, const char *value);
/// curl_easy_setopt for options taking a data pointer (slist, userdata, error buffer); curl_easy_setopt is variadic.
CURLcode ccurl_setopt_ptr(CURL *handle, CURLoption option, void *value);
/// curl_easy_setopt for options taking a `curl_off_t` (64-bit sizes); curl_easy_setopt is variadic.
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

/// Signature of CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t nmemb, void *userdata);

/// curl_easy_setopt(CURLOPT_WRITEFUNCTION); a function pointer must travel through the variadic call as one.
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback);
/// curl_easy_setopt(CURLOPT_HEADERFUNCTION); a function pointer must travel through the variadic call as one.
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback);

/// curl_easy_getinfo for `long` results; curl_easy_getinfo is variadic.
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *out);
/// curl_easy_getinfo for `char *` results (owned by the handle); curl_easy_getinfo is variadic.
CURLcode ccurl_getinfo_str(CURL *handle, CURLINFO info, const char **out);
/// curl_easy_getinfo for `curl_off_t` results (sizes, microsecond times); curl_easy_getinfo is variadic.
CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *out);

/// curl_url; wrapper because libcurl is dlopen'ed, not linked.
CURLU *ccurl_url(void);
/// curl_url_cleanup; wrapper because libcurl is dlopen'ed, not linked.
void ccurl_url_cleanup(CURLU *url);
/// curl_url_set; wrapper because libcurl is dlopen'ed, not linked.
CURLUcode ccurl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags);
/// curl_url_get; the result must be released with ccurl_free.
CURLUcode ccurl_url_get(CURLU *url, CURLUPart part, char **content, unsigned int flags);
/// curl_free; wrapper because libcurl is dlopen'ed, not linked.
void ccurl_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
