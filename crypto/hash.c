/* Message digests over mbedTLS's SHA-1, SHA-256 and SHA-512 (SHA-384 is SHA-512 with other
 * initial values and a shorter output). */
#include <ember/crypto/hash.h>
#include "mbedtls/sha1.h"
#include "mbedtls/sha256.h"
#include "mbedtls/sha512.h"

union hash_lib_ctx {
	mbedtls_sha1_context sha1;
	mbedtls_sha256_context sha256;
	mbedtls_sha512_context sha512;
};

_Static_assert(sizeof(union hash_lib_ctx) <= sizeof(((struct hash_ctx *)0)->state),
	       "struct hash_ctx too small for the library's contexts");

static union hash_lib_ctx *lib_ctx(struct hash_ctx *ctx)
{
	return (union hash_lib_ctx *)ctx->state;
}

size_t hash_size(enum hash_alg alg)
{
	switch (alg) {
	case HASH_SHA1:
		return 20;
	case HASH_SHA256:
		return 32;
	case HASH_SHA384:
		return 48;
	case HASH_SHA512:
		return 64;
	}
	return 0;
}

/* The library's functions return errors only for NULL contexts (without
 * MBEDTLS_SHA256_ALT and the like), so their results are not looked at. */
void hash_init(struct hash_ctx *ctx, enum hash_alg alg)
{
	union hash_lib_ctx *c = lib_ctx(ctx);

	ctx->alg = alg;
	switch (alg) {
	case HASH_SHA1:
		mbedtls_sha1_init(&c->sha1);
		(void)mbedtls_sha1_starts_ret(&c->sha1);
		break;
	case HASH_SHA256:
		mbedtls_sha256_init(&c->sha256);
		(void)mbedtls_sha256_starts_ret(&c->sha256, 0);
		break;
	case HASH_SHA384:
	case HASH_SHA512:
		mbedtls_sha512_init(&c->sha512);
		(void)mbedtls_sha512_starts_ret(&c->sha512, alg == HASH_SHA384);
		break;
	}
}

void hash_update(struct hash_ctx *ctx, const void *data, size_t size)
{
	union hash_lib_ctx *c = lib_ctx(ctx);

	switch (ctx->alg) {
	case HASH_SHA1:
		(void)mbedtls_sha1_update_ret(&c->sha1, data, size);
		break;
	case HASH_SHA256:
		(void)mbedtls_sha256_update_ret(&c->sha256, data, size);
		break;
	case HASH_SHA384:
	case HASH_SHA512:
		(void)mbedtls_sha512_update_ret(&c->sha512, data, size);
		break;
	}
}

void hash_final(struct hash_ctx *ctx, uint8_t *digest)
{
	union hash_lib_ctx *c = lib_ctx(ctx);

	switch (ctx->alg) {
	case HASH_SHA1:
		(void)mbedtls_sha1_finish_ret(&c->sha1, digest);
		mbedtls_sha1_free(&c->sha1);
		break;
	case HASH_SHA256:
		(void)mbedtls_sha256_finish_ret(&c->sha256, digest);
		mbedtls_sha256_free(&c->sha256);
		break;
	case HASH_SHA384: /* the library writes 48 bytes for SHA-384 */
	case HASH_SHA512:
		(void)mbedtls_sha512_finish_ret(&c->sha512, digest);
		mbedtls_sha512_free(&c->sha512);
		break;
	}
}

void hash_buffer(enum hash_alg alg, const void *data, size_t size, uint8_t *digest)
{
	struct hash_ctx ctx;

	hash_init(&ctx, alg);
	hash_update(&ctx, data, size);
	hash_final(&ctx, digest);
}
