/* Typed wrappers around OpenSSL libcrypto's macro-only and void-pointer entry points, for Swift (sealing
 * cursors and resume tokens: AES-SIV through EVP, keys through HKDF; SHA-256 of API tokens and CRYPTO_memcmp). Swift calls the typed EVP functions
 * directly; here are only what does not import well: the untyped EVP_CIPHER_CTX_ctrl calls for AEAD tags and
 * macro constants. One static inline each, prefix ccrypto_ (never OpenSSL's own prefixes). No logic lives here. */
#ifndef ROWSTREAM_CCRYPTO_SHIM_H
#define ROWSTREAM_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/crypto.h>

/* EVP_CIPHER_CTX_ctrl for an AEAD's tag: read it after sealing, set it before opening. */
static inline int ccrypto_aead_get_tag(EVP_CIPHER_CTX *ctx, int length, unsigned char *tag) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, length, tag);
}
static inline int ccrypto_aead_set_tag(EVP_CIPHER_CTX *ctx, int length, unsigned char *tag) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, length, tag);
}

/* Macros that do not import. */
static inline int ccrypto_pkey_hkdf(void) { return EVP_PKEY_HKDF; }

#endif
