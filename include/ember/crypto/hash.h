/* Message digests for Secure Boot and measured boot (SHA-1, SHA-256, SHA-384, SHA-512),
 * computed by the crypto library built from Debian's source (crypto/, docs/design.md). */
#ifndef EMBER_CRYPTO_HASH_H
#define EMBER_CRYPTO_HASH_H

#include <stddef.h>
#include <stdint.h>

enum hash_alg { HASH_SHA1, HASH_SHA256, HASH_SHA384, HASH_SHA512 };

#define HASH_MAX_SIZE 64

/* A running digest; the storage holds the library's context (checked in crypto/hash.c). */
struct hash_ctx {
	enum hash_alg alg;
	uint64_t state[64];
};

/* Bytes in a digest of alg (20, 32, 48 or 64). */
size_t hash_size(enum hash_alg alg);
void hash_init(struct hash_ctx *ctx, enum hash_alg alg);
void hash_update(struct hash_ctx *ctx, const void *data, size_t size);
/* Writes hash_size(alg) bytes to digest. */
void hash_final(struct hash_ctx *ctx, uint8_t *digest);
/* The digest of one buffer. */
void hash_buffer(enum hash_alg alg, const void *data, size_t size, uint8_t *digest);

#endif
