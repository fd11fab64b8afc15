#ifndef ROWSTREAM_CSYSTEM_SHIM_H
#define ROWSTREAM_CSYSTEM_SHIM_H
// Typed wrappers for the Linux calls Swift's Glibc module does not import: epoll, eventfd, accept4.
// Only headers that SwiftGlibc.h does NOT include are included here (<sys/epoll.h>, <sys/eventfd.h>),
// so no type is defined by two modules. accept4 is declared by hand for the same reason
// (<sys/socket.h> belongs to Glibc, and only declares accept4 under _GNU_SOURCE).
// The packed `struct epoll_event` never crosses into Swift: the wrappers take plain arrays.
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

struct sockaddr;
extern int accept4(int fd, struct sockaddr *addr, unsigned int *addr_len, int flags);
/* glibc's malloc_trim (<malloc.h> is not in SwiftGlibc.h): gives free heap memory back to the system. */
extern int malloc_trim(unsigned long pad);

/* Event bits, as plain constants (sys/epoll.h defines them as enum values and macros). */
static const uint32_t csystem_EPOLLIN = EPOLLIN;
static const uint32_t csystem_EPOLLOUT = EPOLLOUT;
static const uint32_t csystem_EPOLLERR = EPOLLERR;
static const uint32_t csystem_EPOLLHUP = EPOLLHUP;
static const uint32_t csystem_EPOLLRDHUP = EPOLLRDHUP;

/* epoll_ctl operations, by name (the kernel's own values, passed through unchanged). */
static const int csystem_EPOLL_CTL_ADD = EPOLL_CTL_ADD;
static const int csystem_EPOLL_CTL_DEL = EPOLL_CTL_DEL;
static const int csystem_EPOLL_CTL_MOD = EPOLL_CTL_MOD;

/* Linux values of SOCK_NONBLOCK / SOCK_CLOEXEC (== O_NONBLOCK / O_CLOEXEC). */
static const int csystem_SOCK_NONBLOCK = 04000;
static const int csystem_SOCK_CLOEXEC = 02000000;

/** epoll_create1(EPOLL_CLOEXEC). Returns the fd or -1 (errno set). */
static inline int csystem_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/** epoll_ctl with `data.fd = fd`. op is csystem_EPOLL_CTL_ADD, _DEL or _MOD. Returns 0 or -1 (errno set). */
static inline int csystem_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &event);
}

/** epoll_wait filling `fds[i]` / `events[i]` for up to `max` (<= 256) ready fds. Returns the count or -1. */
static inline int csystem_epoll_wait(int epfd, int32_t *fds, uint32_t *events, int max, int timeoutMs) {
    struct epoll_event ready[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, ready, max, timeoutMs);
    for (int i = 0; i < n; i++) {
        fds[i] = ready[i].data.fd;
        events[i] = ready[i].events;
    }
    return n;
}

/** eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC). Returns the fd or -1. */
static inline int csystem_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/** Adds 1 to the eventfd counter (wakes a poller). Returns 0 or -1. */
static inline int csystem_eventfd_signal(int fd) {
    return eventfd_write(fd, 1);
}

/** Reads and resets the eventfd counter. Returns 0 or -1 (EAGAIN when it was zero). */
static inline int csystem_eventfd_drain(int fd) {
    eventfd_t value = 0;
    return eventfd_read(fd, &value);
}

/** accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC). Returns the fd or -1 (errno set). */
static inline int csystem_accept(int fd) {
    return accept4(fd, (struct sockaddr *)0, (unsigned int *)0, csystem_SOCK_NONBLOCK | csystem_SOCK_CLOEXEC);
}

/**
 * accept4 like csystem_accept, also reporting the peer: `*ipv4` gets the IPv4 address in host byte order,
 * or 0 when the peer is not IPv4. The sockaddr is kept in a local byte buffer so no Glibc type is needed here.
 */
static inline int csystem_accept_peer(int fd, uint32_t *ipv4) {
    unsigned char storage[128];
    unsigned int length = sizeof storage;
    *ipv4 = 0;
    int accepted = accept4(fd, (struct sockaddr *)storage, &length,
                           csystem_SOCK_NONBLOCK | csystem_SOCK_CLOEXEC);
    unsigned short family = 0;
    __builtin_memcpy(&family, storage, sizeof family);
    if (accepted >= 0 && length >= 8 && family == 2 /* AF_INET */) {
        /* sockaddr_in: family (2 bytes), port (2), address (4, network order). */
        *ipv4 = ((uint32_t)storage[4] << 24) | ((uint32_t)storage[5] << 16) | ((uint32_t)storage[6] << 8)
            | (uint32_t)storage[7];
    }
    return accepted;
}

#endif
