// System libcurl (Debian: libcurl4-openssl-dev, 7.88) for the Downloader's transport.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these typed
// inline wrappers pass each argument type through.
#include <curl/curl.h>
#include <sys/socket.h>
#include <netinet/in.h>

static inline CURLcode wi_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode wi_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode wi_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode wi_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode wi_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode wi_curl_set_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode wi_curl_set_opensocket_function(CURL *handle, curl_opensocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}
static inline CURLcode wi_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode wi_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLMcode wi_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/// The easy handle and result of a CURLMSG_DONE message (the result is in a union).
static inline CURLcode wi_curl_msg_result(const CURLMsg *message) {
    return message->data.result;
}
/// CURLAUTH_BASIC | CURLAUTH_ONLY: ask first without credentials, answer a Basic challenge only.
static inline unsigned long wi_curl_auth_basic_only(void) {
    return CURLAUTH_BASIC | CURLAUTH_ONLY;
}
static inline CURLcode wi_curl_set_auth(CURL *handle, unsigned long value) {
    return curl_easy_setopt(handle, CURLOPT_HTTPAUTH, value);
}
