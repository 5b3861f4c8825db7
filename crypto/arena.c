/* The crypto library's heap after ExitBootServices (crypto/arena.h): first fit over blocks
 * laid end to end, each with a 16-byte header; freeing merges free neighbours. */
#include "arena.h"
#include <stdint.h>
#include <ember/lib/str.h>

/* The unit tests' verifications (4096-bit keys, chains of two, PSS) peak at 11 KiB: room
 * for trust lists of tens of certificates. */
#define ARENA_SIZE (128 * 1024)
#define HEADER 16

struct block {
	uint32_t size; /* with the header; the next block starts size bytes further */
	uint32_t used;
	uint64_t reserved;
};

static uint8_t arena[ARENA_SIZE] __attribute__((aligned(16)));
static bool arena_ready;
static size_t arena_used;

static struct block *block_at(size_t offset)
{
	return (struct block *)(arena + offset);
}

static void arena_init(void)
{
	*block_at(0) = (struct block){ARENA_SIZE, 0, 0};
	arena_ready = true;
}

void *crypto_arena_alloc(size_t size)
{
	size_t need;

	if (!arena_ready)
		arena_init();
	if (size > ARENA_SIZE - HEADER)
		return NULL;
	need = (size + HEADER + 15) & ~(size_t)15;
	for (size_t off = 0; off < ARENA_SIZE; off += block_at(off)->size) {
		struct block *b = block_at(off);

		if (b->used || b->size < need)
			continue;
		/* Split off the rest when it can hold a block of its own. */
		if (b->size - need >= 2 * HEADER) {
			*block_at(off + need) = (struct block){(uint32_t)(b->size - need), 0, 0};
			b->size = (uint32_t)need;
		}
		b->used = 1;
		arena_used += b->size;
		mem_set(arena + off + HEADER, 0, b->size - HEADER);
		return arena + off + HEADER;
	}
	return NULL;
}

bool crypto_arena_owns(const void *p)
{
	return (const uint8_t *)p >= arena && (const uint8_t *)p < arena + ARENA_SIZE;
}

void crypto_arena_free(void *p)
{
	struct block *b;

	if (!p || !crypto_arena_owns(p))
		return;
	b = block_at((size_t)((uint8_t *)p - arena) - HEADER);
	if (!b->used)
		return;
	b->used = 0;
	arena_used -= b->size;
	/* Merge each run of free blocks into its first. */
	for (size_t off = 0; off < ARENA_SIZE; off += block_at(off)->size) {
		struct block *first = block_at(off);

		while (!first->used && off + first->size < ARENA_SIZE &&
		       !block_at(off + first->size)->used)
			first->size += block_at(off + first->size)->size;
	}
}

size_t crypto_arena_in_use(void)
{
	return arena_used;
}
