#ifndef ROWSTREAM_CURING_H
#define ROWSTREAM_CURING_H
// Typed wrappers over liburing for batched socket sends (HTTPServer's SendRing). Only <stdint.h> types cross into
// Swift: liburing.h (which includes <sys/socket.h>, <linux/...>) stays inside curing.c, so no type is defined by two
// modules. The ring is opaque. Thread rule: a ring is used by one thread only (liburing's own rule, without
// IORING_SETUP_SQPOLL); every call here on a given ring must come from that thread.
#include <stdint.h>

struct curing_ring;

/** io_uring_queue_init(entries, 0). Returns the ring, or NULL with *error set to the errno (ENOSYS where the kernel
 *  has no io_uring, EPERM where it is refused by sysctl/seccomp, ENOMEM). */
struct curing_ring *curing_create(uint32_t entries, int32_t *error);

/** The ring's fd (pollable: readable while completions wait). */
int32_t curing_fd(const struct curing_ring *ring);

/** Prepares (does not submit) one send of `length` bytes at `bytes` on socket `fd`, with
 *  MSG_NOSIGNAL | MSG_DONTWAIT (a full socket completes with -EAGAIN instead of waiting inside the kernel).
 *  The bytes are read by the kernel at submission or later: they must stay alive and unchanged until the
 *  completion carrying `user_data` is reaped. Returns 0, or -1 when the submission queue is full (submit first). */
int32_t curing_prepare_send(struct curing_ring *ring, int32_t fd, const void *bytes, uint32_t length,
                            uint64_t user_data);

/** Prepares one gathering sendmsg of `message` (a `struct msghdr`, typed void so no socket type crosses into Swift)
 *  to `fd`, with MSG_NOSIGNAL | MSG_DONTWAIT like `curing_prepare_send`. `message`, its iovecs and the bytes they
 *  name must stay alive and unchanged until the completion carrying `user_data` is reaped. Returns 0, or -1 when the
 *  submission queue is full (submit first). */
int32_t curing_prepare_sendmsg(struct curing_ring *ring, int32_t fd, const void *message, uint64_t user_data);

/** Submits every prepared entry (io_uring_submit). Returns the count submitted or -errno. */
int32_t curing_submit(struct curing_ring *ring);

/** Takes up to `max` completions without waiting: `user_data[i]` and `results[i]` (bytes sent, or -errno).
 *  Returns the count taken. When the queue is empty and completions overflowed it (held by the kernel), moves
 *  them into the queue first (one io_uring_enter), so calling this until it returns 0 takes every completion. */
int32_t curing_reap(struct curing_ring *ring, uint64_t *user_data, int32_t *results, int32_t max);

/** Waits up to `timeout_ms` for at least one completion. Returns 0 when one is ready, -ETIME on timeout, or -errno. */
int32_t curing_wait(struct curing_ring *ring, int32_t timeout_ms);

/** io_uring_queue_exit, then frees the ring. Call only with nothing in flight. */
void curing_destroy(struct curing_ring *ring);

#endif
