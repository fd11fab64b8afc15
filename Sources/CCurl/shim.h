#ifndef ROWSTREAM_CCURL_SHIM_H
#define ROWSTREAM_CCURL_SHIM_H
#include <stdlib.h>
#include <curl/curl.h>
#endif
