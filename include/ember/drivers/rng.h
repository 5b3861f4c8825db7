/* Ember's EFI_RNG_PROTOCOL (drivers/rng) and the entropy sources platforms and drivers give
 * it. The protocol is published when the first source arrives, so a platform without any
 * offers none. Algorithms, as GetInfo lists them:
 *  - EFI_RNG_ALGORITHM_RAW, only while a hardware source exists (RDRAND, virtio-rng): its
 *    bytes, unprocessed. It is the default then.
 *  - EMBER_RNG_ALGORITHM_CHACHA20: Ember's own generator, ChaCha20 with fast key erasure
 *    (each request's first key-stream bytes become the next key). It is seeded at start from
 *    every source (hardware ones and timing samples such as TSC jitter, whose entropy
 *    nobody can vouch for), and reseeded from the hardware sources and the clock on every
 *    request. It is not a NIST SP 800-90A DRBG, hence a GUID of Ember's own. */
#ifndef EMBER_RNG_H
#define EMBER_RNG_H

#include <stdbool.h>
#include <ember/lib/list.h>
#include <efi/protocol/rng.h>

#define EMBER_RNG_ALGORITHM_CHACHA20                                                               \
	EFI_GUID_INIT(0x7c1e5b42, 0x3a9d, 0x4f60, 0x8b, 0x21, 0xe4, 0x5d, 0x0c, 0x93, 0x6a, 0x17)

struct rng_source {
	const char *name;
	/* Every byte is entropy from hardware (offered raw); false: seed material only. */
	bool hardware;
	EFI_STATUS (*read)(struct rng_source *source, UINT8 *buffer, UINTN size);
	struct list link; /* the generator's */
};

/* Adds a source (kept until removed); the first one publishes the protocol. */
EFI_STATUS rng_source_add(struct rng_source *source);
/* Removes a source (a driver that stops). */
void rng_source_remove(struct rng_source *source);
/* A source's read for an instruction that yields 64 bits at a time (RDRAND, RNDR): fills
 * buffer with its little-endian words, the last one cut; EFI_DEVICE_ERROR when word fails. */
EFI_STATUS rng_read_words(UINT8 *buffer, UINTN size, bool (*word)(uint64_t *value));

#endif
