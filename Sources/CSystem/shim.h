#ifndef ROWSTREAM_CSYSTEM_SHIM_H
#define ROWSTREAM_CSYSTEM_SHIM_H
#include <sys/epoll.h>
#endif
