/* ChaCha20 (RFC 8439's test vector) and Ember's EFI_RNG_PROTOCOL over fake sources. */
#include <string.h>
#include "support/test.h"
#include <ember/lib/chacha20.h>
#include <ember/core/core.h>
#include <ember/drivers/rng.h>

TEST(chacha20_rfc8439_block)
{
	/* RFC 8439, 2.3.2: key 00..1f, nonce 000000090000004a00000000, counter 1. */
	static const UINT8 expected[16] = {0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15,
					   0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4};
	static const UINT8 tail[4] = {0xa2, 0x50, 0x3c, 0x4e};
	UINT8 key[32], nonce[12] = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0}, out[64];

	for (int i = 0; i < 32; i++)
		key[i] = (UINT8)i;
	chacha20_block(key, 1, nonce, out);
	EXPECT(memcmp(out, expected, sizeof(expected)) == 0);
	EXPECT(memcmp(out + 60, tail, sizeof(tail)) == 0);
}

static int hardware_reads;

static EFI_STATUS fake_seed(struct rng_source *s, UINT8 *buffer, UINTN size)
{
	memset(buffer, 0x5a, size);
	return EFI_SUCCESS;
}

static EFI_STATUS fake_hardware(struct rng_source *s, UINT8 *buffer, UINTN size)
{
	hardware_reads++;
	memset(buffer, 0xab, size);
	return EFI_SUCCESS;
}

TEST(rng_protocol_algorithms)
{
	static const EFI_GUID rng_guid = EFI_RNG_PROTOCOL_GUID;
	EFI_GUID raw = EFI_RNG_ALGORITHM_RAW, chacha = EMBER_RNG_ALGORITHM_CHACHA20;
	EFI_GUID other = {1, 2, 3, {4}}, list[2];
	static struct rng_source seed = {"seed", false, fake_seed};
	static struct rng_source hardware = {"hardware", true, fake_hardware};
	EFI_RNG_PROTOCOL *rng;
	UINT8 a[100], b[100];
	UINTN size = 0;

	ASSERT_STATUS(rng_source_add(&seed), EFI_SUCCESS);
	ASSERT_STATUS(protocol_locate(&rng_guid, (void **)&rng), EFI_SUCCESS);
	/* Only the generator without hardware. */
	EXPECT_STATUS(rng->GetInfo(rng, &size, NULL), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof(EFI_GUID));
	EXPECT_STATUS(rng->GetInfo(rng, &size, list), EFI_SUCCESS);
	EXPECT(memcmp(&list[0], &chacha, sizeof(chacha)) == 0);
	EXPECT_STATUS(rng->GetRNG(rng, &raw, sizeof(a), a), EFI_UNSUPPORTED);
	EXPECT_STATUS(rng->GetRNG(rng, &other, sizeof(a), a), EFI_UNSUPPORTED);
	EXPECT_STATUS(rng->GetRNG(rng, NULL, 0, a), EFI_INVALID_PARAMETER);
	/* The generator never repeats itself, though its seed source always says the same. */
	EXPECT_STATUS(rng->GetRNG(rng, NULL, sizeof(a), a), EFI_SUCCESS);
	EXPECT_STATUS(rng->GetRNG(rng, &chacha, sizeof(b), b), EFI_SUCCESS);
	EXPECT(memcmp(a, b, sizeof(a)) != 0);

	/* A hardware source: RAW is offered, first, and is the default. */
	ASSERT_STATUS(rng_source_add(&hardware), EFI_SUCCESS);
	size = sizeof(list);
	EXPECT_STATUS(rng->GetInfo(rng, &size, list), EFI_SUCCESS);
	EXPECT_EQ(size, 2 * sizeof(EFI_GUID));
	EXPECT(memcmp(&list[0], &raw, sizeof(raw)) == 0);
	EXPECT(memcmp(&list[1], &chacha, sizeof(chacha)) == 0);
	EXPECT_STATUS(rng->GetRNG(rng, NULL, sizeof(a), a), EFI_SUCCESS);
	EXPECT(a[0] == 0xab && a[99] == 0xab);
	hardware_reads = 0;
	EXPECT_STATUS(rng->GetRNG(rng, &chacha, sizeof(b), b), EFI_SUCCESS);
	EXPECT(hardware_reads == 1); /* reseeded from the hardware */
	EXPECT(b[0] != 0xab || b[1] != 0xab);
	rng_source_remove(&hardware);
	size = sizeof(list);
	EXPECT_STATUS(rng->GetInfo(rng, &size, list), EFI_SUCCESS);
	EXPECT_EQ(size, sizeof(EFI_GUID));
}
