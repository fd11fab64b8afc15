#include "curing.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/socket.h>

struct curing_ring {
    struct io_uring ring;
};

struct curing_ring *curing_create(uint32_t entries, int32_t *error) {
    struct curing_ring *ring = calloc(1, sizeof *ring);
    if (ring == NULL) {
        *error = ENOMEM;
        return NULL;
    }
    int result = io_uring_queue_init(entries, &ring->ring, 0);
    if (result < 0) {
        free(ring);
        *error = -result;
        return NULL;
    }
    *error = 0;
    return ring;
}

int32_t curing_fd(const struct curing_ring *ring) {
    return ring->ring.ring_fd;
}

int32_t curing_prepare_send(struct curing_ring *ring, int32_t fd, const void *bytes, uint32_t length,
                            uint64_t user_data) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&ring->ring);
    if (sqe == NULL) return -1;
    io_uring_prep_send(sqe, fd, bytes, length, MSG_NOSIGNAL | MSG_DONTWAIT);
    io_uring_sqe_set_data64(sqe, user_data);
    return 0;
}

int32_t curing_prepare_sendmsg(struct curing_ring *ring, int32_t fd, const void *message, uint64_t user_data) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&ring->ring);
    if (sqe == NULL) return -1;
    io_uring_prep_sendmsg(sqe, fd, message, MSG_NOSIGNAL | MSG_DONTWAIT);
    io_uring_sqe_set_data64(sqe, user_data);
    return 0;
}

int32_t curing_submit(struct curing_ring *ring) {
    return io_uring_submit(&ring->ring);
}

int32_t curing_reap(struct curing_ring *ring, uint64_t *user_data, int32_t *results, int32_t max) {
    struct io_uring_cqe *cqe;
    unsigned head;
    int32_t count = 0;
    // Completions the queue had no room for wait on the kernel's overflow list (the ring sets IORING_SQ_CQ_OVERFLOW)
    // until a call into the kernel moves them over: reading the queue alone never sees them (they stayed there for
    // good, the ring's fd polling readable all the while: a busy loop). Once the queue is empty, move them.
    if (io_uring_cq_ready(&ring->ring) == 0 && io_uring_cq_has_overflow(&ring->ring)) {
        io_uring_get_events(&ring->ring);
    }
    io_uring_for_each_cqe(&ring->ring, head, cqe) {
        if (count == max) break;
        user_data[count] = io_uring_cqe_get_data64(cqe);
        results[count] = cqe->res;
        count++;
    }
    io_uring_cq_advance(&ring->ring, (unsigned)count);
    return count;
}

int32_t curing_wait(struct curing_ring *ring, int32_t timeout_ms) {
    struct __kernel_timespec timeout = {
        .tv_sec = timeout_ms / 1000,
        .tv_nsec = (long long)(timeout_ms % 1000) * 1000000,
    };
    struct io_uring_cqe *cqe = NULL;
    return io_uring_wait_cqe_timeout(&ring->ring, &cqe, &timeout);
}

void curing_destroy(struct curing_ring *ring) {
    io_uring_queue_exit(&ring->ring);
    free(ring);
}
