/* The system's libcrypt (libxcrypt, Debian's libcrypt1 / libcrypt-dev): crypt(3) password hashes, yescrypt `$y$`
 * and bcrypt `$2b$`, for the access layer's users (docs/SECURITY.md). Swift calls crypt_rn and crypt_gensalt_rn
 * directly; this header only includes crypt.h and names the size of `struct crypt_data`. No logic lives here. */
#ifndef ROWSTREAM_CCRYPT_SHIM_H
#define ROWSTREAM_CCRYPT_SHIM_H
#include <crypt.h>

/* sizeof(struct crypt_data): the scratch space crypt_rn needs (about 32 KiB), allocated by the caller. */
static inline unsigned long ccrypt_data_size(void) { return sizeof(struct crypt_data); }

#endif
