/* Typed wrappers around zlib's macro-only entry points, for Swift (the HTTP server's gzip responses).
 * deflateInit2/inflateInit2 are macros that pass the library version and the stream's size; the flush and
 * return codes are macros too. Prefix czlib_ (never zlib's own). No logic lives here. */
#ifndef ROWSTREAM_CZLIB_SHIM_H
#define ROWSTREAM_CZLIB_SHIM_H
#include <stdlib.h>
#include <zlib.h>

/** deflateInit2 for raw deflate (no zlib or gzip wrapper): `windowBits` 9...15, `memLevel` 1...9. */
static inline int czlib_deflate_init_raw(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, -windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

/** inflateInit2 with `windowBits` as zlib reads it (31: a gzip stream; -15: raw deflate). For tests. */
static inline int czlib_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

/* Flush modes and return codes. */
static const int czlib_Z_NO_FLUSH = Z_NO_FLUSH;
static const int czlib_Z_SYNC_FLUSH = Z_SYNC_FLUSH;
static const int czlib_Z_FINISH = Z_FINISH;
static const int czlib_Z_OK = Z_OK;
static const int czlib_Z_STREAM_END = Z_STREAM_END;
static const int czlib_Z_BUF_ERROR = Z_BUF_ERROR;

#endif
