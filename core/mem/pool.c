/* Pool allocation (UEFI 2.10, section 7.2): typed, 16-byte aligned blocks.
 * Small blocks come from 16 KiB chunks of pages of the pool's memory type, one size class
 * per chunk; a chunk whose blocks are all free goes back to the page allocator unless it
 * is the only one of its class. Large blocks take their own pages. Every block has a
 * header just before it, so FreePool can check what it is given. */
#include "memmap.h"
#include "../services.h"
#include <ember/core/core.h>
#include <ember/lib/list.h>
#include <ember/lib/str.h>

/* Under AddressSanitizer (host tests, fuzzers) the unused parts of blocks are poisoned, so
 * a driver that overruns a pool block or uses it after FreePool is caught on the spot. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#endif
#endif
#ifndef POISON
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define POOL_LOCK_TPL TPL_NOTIFY
#define CHUNK_SIZE (16 * 1024)
#define CHUNK_PAGES (CHUNK_SIZE / EFI_PAGE_SIZE)
#define CLASS_COUNT 8 /* block sizes 32 << class, header included: 32 .. 4096 */
#define MAX_SMALL_BLOCK (32u << (CLASS_COUNT - 1))

#define SIG_CHUNK SIGNATURE_32('p', 'c', 'h', 'k')
#define SIG_USED SIGNATURE_32('p', 'u', 's', 'e')
#define SIG_FREE SIGNATURE_32('p', 'f', 'r', 'e')
#define SIG_LARGE SIGNATURE_32('p', 'l', 'r', 'g')

struct block_header {
	UINT32 signature;
	UINT32 type;
	UINT64 size; /* small: the class; large: pages */
};
_Static_assert(sizeof(struct block_header) == 16, "block header keeps payloads aligned");

struct free_block {
	struct block_header header;
	struct list link;
};

struct pool;

struct chunk_header {
	UINT32 signature;
	UINT16 class;
	UINT16 used;
	struct pool *pool;
	UINT64 reserved[2];
};
_Static_assert(sizeof(struct chunk_header) == 32, "chunk header keeps blocks aligned");

struct pool {
	UINT32 type;
	bool in_use;
	struct list free[CLASS_COUNT];
	UINTN free_count[CLASS_COUNT];
};

/* Enough pools for the types in use at once in practice. */
static struct pool pools[24];

static struct pool *pool_for(UINT32 type)
{
	for (size_t i = 0; i < ARRAY_SIZE(pools); i++)
		if (pools[i].in_use && pools[i].type == type)
			return &pools[i];
	for (size_t i = 0; i < ARRAY_SIZE(pools); i++) {
		if (!pools[i].in_use) {
			pools[i].in_use = true;
			pools[i].type = type;
			for (int c = 0; c < CLASS_COUNT; c++)
				list_init(&pools[i].free[c]);
			return &pools[i];
		}
	}
	return NULL;
}

static UINT32 block_size(int class)
{
	return 32u << class;
}

/* A free block: only its header and list link may be touched. */
static void poison_free_block(struct free_block *b, int class)
{
	POISON((UINT8 *)(b + 1), block_size(class) - sizeof(*b));
}

static int class_for(UINTN size)
{
	UINTN total = size + sizeof(struct block_header);

	for (int c = 0; c < CLASS_COUNT; c++)
		if (total <= block_size(c))
			return c;
	return -1;
}

static struct chunk_header *chunk_of(void *block)
{
	return (struct chunk_header *)ALIGN_DOWN((uintptr_t)block, CHUNK_SIZE);
}

static bool chunk_add(struct pool *pool, int class)
{
	EFI_PHYSICAL_ADDRESS address;
	struct chunk_header *chunk;
	UINT32 size = block_size(class);

	if (EFI_ERROR(mem_allocate_aligned(AllocateAnyPages, pool->type, CHUNK_PAGES, CHUNK_SIZE,
					   &address)))
		return false;
	chunk = (struct chunk_header *)(uintptr_t)address;
	*chunk = (struct chunk_header){SIG_CHUNK, (UINT16) class, 0, pool, {0, 0}};
	for (UINT32 off = sizeof(*chunk); off + size <= CHUNK_SIZE; off += size) {
		struct free_block *b = (struct free_block *)((UINT8 *)chunk + off);
		b->header = (struct block_header){SIG_FREE, pool->type, (UINT64) class};
		list_add_tail(&b->link, &pool->free[class]);
		pool->free_count[class]++;
		poison_free_block(b, class);
	}
	return true;
}

static UINTN blocks_per_chunk(int class)
{
	return (CHUNK_SIZE - sizeof(struct chunk_header)) / block_size(class);
}

/* Gives a chunk with no used blocks back, unless it holds the class's only free blocks. */
static void chunk_maybe_release(struct chunk_header *chunk)
{
	struct pool *pool = chunk->pool;
	int class = chunk->class;
	UINT32 size = block_size(class);

	if (chunk->used || pool->free_count[class] <= blocks_per_chunk(class))
		return;
	for (UINT32 off = sizeof(*chunk); off + size <= CHUNK_SIZE; off += size) {
		struct free_block *b = (struct free_block *)((UINT8 *)chunk + off);
		list_del(&b->link);
		pool->free_count[class]--;
	}
	chunk->signature = 0;
	UNPOISON(chunk, CHUNK_SIZE);
	mem_free_pages((uintptr_t)chunk, CHUNK_PAGES);
}

static void *alloc_small(struct pool *pool, int class, UINTN size)
{
	struct free_block *b;
	UINT8 *payload;

	if (list_empty(&pool->free[class]) && !chunk_add(pool, class))
		return NULL;
	b = list_first_entry(&pool->free[class], struct free_block, link);
	list_del(&b->link);
	pool->free_count[class]--;
	chunk_of(b)->used++;
	b->header.signature = SIG_USED;
	payload = (UINT8 *)b + sizeof(struct block_header);
	UNPOISON(payload, size);
	POISON(payload + size, block_size(class) - sizeof(struct block_header) - size);
	return payload;
}

static void *alloc_large(UINT32 type, UINTN size)
{
	UINTN pages = EFI_SIZE_TO_PAGES(size + sizeof(struct block_header));
	EFI_PHYSICAL_ADDRESS address;
	struct block_header *h;

	if (EFI_ERROR(mem_allocate_pages(AllocateAnyPages, type, pages, &address)))
		return NULL;
	h = (struct block_header *)(uintptr_t)address;
	*h = (struct block_header){SIG_LARGE, type, pages};
	POISON((UINT8 *)(h + 1) + size, EFI_PAGES_TO_SIZE(pages) - sizeof(*h) - size);
	return h + 1;
}

void *pool_alloc_typed(EFI_MEMORY_TYPE type, UINTN size)
{
	int class = class_for(size);
	EFI_TPL old;
	void *p = NULL;

	if (size > UINT64_MAX / 2)
		return NULL;
	old = tpl_raise(POOL_LOCK_TPL);
	if (class < 0) {
		p = alloc_large(type, size);
	} else {
		struct pool *pool = pool_for(type);
		/* A type beyond the pool table still gets memory, just a page of its own. */
		p = pool ? alloc_small(pool, class, size) : alloc_large(type, size);
	}
	tpl_restore(old);
	return p;
}

void *pool_alloc(UINTN size)
{
	void *p = pool_alloc_typed(EfiBootServicesData, size);

	if (p)
		mem_set(p, 0, size);
	return p;
}

void *pool_dup(const void *src, UINTN size)
{
	void *p = pool_alloc_typed(EfiBootServicesData, size);

	if (p)
		mem_copy(p, src, size);
	return p;
}

/* The header of a block the caller hands back, or NULL when it is not one of ours. */
static struct block_header *valid_header(void *buffer)
{
	struct block_header *h = (struct block_header *)buffer - 1;

	if (!IS_ALIGNED((uintptr_t)buffer, 16) || !mem_is_allocated(h, sizeof(*h)))
		return NULL;
	if (h->signature == SIG_LARGE)
		return IS_ALIGNED((uintptr_t)h, EFI_PAGE_SIZE) ? h : NULL;
	if (h->signature != SIG_USED || h->size >= CLASS_COUNT)
		return NULL;
	struct chunk_header *chunk = chunk_of(h);
	if (!mem_is_allocated(chunk, sizeof(*chunk)) || chunk->signature != SIG_CHUNK ||
	    chunk->class != h->size)
		return NULL;
	return h;
}

EFI_STATUS pool_free_checked(void *buffer)
{
	EFI_TPL old = tpl_raise(POOL_LOCK_TPL);
	struct block_header *h = valid_header(buffer);

	if (!h) {
		tpl_restore(old);
		return EFI_INVALID_PARAMETER;
	}
	if (h->signature == SIG_LARGE) {
		h->signature = 0;
		UNPOISON(h, EFI_PAGES_TO_SIZE(h->size));
		mem_free_pages((uintptr_t)h, h->size);
	} else {
		struct free_block *b = (struct free_block *)h;
		struct chunk_header *chunk = chunk_of(h);
		int class = (int)h->size;
		h->signature = SIG_FREE;
		UNPOISON(&b->link, sizeof(b->link));
		poison_free_block(b, class);
		list_add(&b->link, &chunk->pool->free[class]);
		chunk->pool->free_count[class]++;
		chunk->used--;
		chunk_maybe_release(chunk);
	}
	tpl_restore(old);
	return EFI_SUCCESS;
}

void pool_free(void *buffer)
{
	if (buffer)
		pool_free_checked(buffer);
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_allocate_pool(EFI_MEMORY_TYPE type, UINTN size, VOID **buffer)
{
	if (!buffer || !mem_type_is_allocatable(type))
		return EFI_INVALID_PARAMETER;
	*buffer = pool_alloc_typed(type, size);
	return *buffer ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

EFI_STATUS EFIAPI efi_free_pool(VOID *buffer)
{
	if (!buffer)
		return EFI_INVALID_PARAMETER;
	return pool_free_checked(buffer);
}
