/* crypto/hash.c: the digests of FIPS 180-4's examples, in one call and in pieces. */
#include "support/test.h"
#include <stdio.h>
#include <string.h>
#include <ember/crypto/hash.h>

static void hex_to_bytes(const char *hex, uint8_t *out)
{
	for (size_t i = 0; hex[2 * i]; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

struct vector {
	enum hash_alg alg;
	const char *abc;
};

/* The digests of "abc" (FIPS 180-4 examples, as `openssl dgst` prints them). */
static const struct vector vectors[] = {
    {HASH_SHA1, "a9993e364706816aba3e25717850c26c9cd0d89d"},
    {HASH_SHA256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {HASH_SHA384, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
		  "8086072ba1e7cc2358baeca134c825a7"},
    {HASH_SHA512, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
};

TEST(hash_abc_vectors)
{
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		uint8_t want[HASH_MAX_SIZE], got[HASH_MAX_SIZE + 1];

		memset(got, 0xA5, sizeof(got));
		hex_to_bytes(vectors[i].abc, want);
		EXPECT_EQ(hash_size(vectors[i].alg), strlen(vectors[i].abc) / 2);
		hash_buffer(vectors[i].alg, "abc", 3, got);
		EXPECT(memcmp(got, want, hash_size(vectors[i].alg)) == 0);
		/* Nothing written past the digest. */
		EXPECT_EQ(got[hash_size(vectors[i].alg)], 0xA5);
	}
}

TEST(hash_in_pieces_equals_whole)
{
	static uint8_t data[3000];
	enum hash_alg algs[] = {HASH_SHA1, HASH_SHA256, HASH_SHA384, HASH_SHA512};

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	for (size_t a = 0; a < 4; a++) {
		uint8_t whole[HASH_MAX_SIZE], pieces[HASH_MAX_SIZE];
		struct hash_ctx ctx;

		hash_buffer(algs[a], data, sizeof(data), whole);
		hash_init(&ctx, algs[a]);
		for (size_t off = 0, step = 1; off < sizeof(data); off += step, step = step * 2 + 1)
			hash_update(&ctx, data + off,
				    step < sizeof(data) - off ? step : sizeof(data) - off);
		hash_final(&ctx, pieces);
		EXPECT(memcmp(whole, pieces, hash_size(algs[a])) == 0);
	}
}
