/* A small heap of the firmware's own for the crypto library once boot services are gone:
 * the core's pool then belongs to the OS, but authenticated variables are still written
 * (SetVariable at runtime). Blocks are found by offset, so the heap survives
 * SetVirtualAddressMap; it is empty between calls (the library frees what it takes). */
#ifndef EMBER_CRYPTO_ARENA_H
#define EMBER_CRYPTO_ARENA_H

#include <stdbool.h>
#include <stddef.h>

/* Zero-filled memory from the arena, 16-byte aligned; NULL when it is full. */
void *crypto_arena_alloc(size_t size);
/* Returns a block of crypto_arena_alloc's (NULL is ignored). */
void crypto_arena_free(void *p);
/* Whether p is inside the arena. */
bool crypto_arena_owns(const void *p);
/* Bytes handed out and not yet returned (headers included). */
size_t crypto_arena_in_use(void);

#endif
