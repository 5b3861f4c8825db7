/* The store's access to its flash: bounds-checked reads and programs, erasing an area
 * block by block, formatting an area, and the record/area header checks. */
#include "format.h"
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>

EFI_STATUS vs_read(struct vstore *s, UINT32 at, void *buffer, UINT32 size)
{
	return s->flash->read(s->flash, at, buffer, size);
}

EFI_STATUS vs_program(struct vstore *s, UINT32 at, const void *data, UINT32 size)
{
	if (!size)
		return EFI_SUCCESS;
	return s->flash->program(s->flash, at, data, size);
}

#if defined(__x86_64__) && !__STDC_HOSTED__
/* How many of the count words at w are all ones, from the first: `repe scasq` compares one
 * a step, and QEMU counts each step as one instruction, where the loop below takes about
 * ten for four words. Not in hosted builds, whose sanitizers cannot see into assembly. */
static UINT32 erased_words(const UINT64 *w, UINT32 count)
{
	UINT64 left = count;
	bool differs;

	if (!count)
		return 0;
	__asm__ volatile("repe scasq"
			 : "+D"(w), "+c"(left), "=@ccnz"(differs)
			 : "a"(~0ull)
			 : "memory");
	return (UINT32)(count - left) - differs;
}
#endif

/* The index of the first byte of p[0..n) that is not 0xFF (p 8-byte aligned), or n. */
static UINT32 first_programmed_in(const UINT8 *p, UINT32 n)
{
	const UINT64 *w = (const UINT64 *)p;
	UINT32 i = 0;

	/* A blank store is scanned whole at mount and at its first scan: this loop was a third
	 * of the variable store's start-up time, before it took four words a step. */
#if defined(__x86_64__) && !__STDC_HOSTED__
	i = 8 * erased_words(w, n / 8);
#else
	while (i + 32 <= n && (w[i / 8] & w[i / 8 + 1] & w[i / 8 + 2] & w[i / 8 + 3]) == ~0ull)
		i += 32;
#endif
	while (i + 8 <= n && w[i / 8] == ~0ull)
		i += 8;
	while (i < n && p[i] == VS_ERASED)
		i++;
	return i;
}

UINT32 vs_first_programmed(struct vstore *s, UINT32 at, UINT32 size)
{
	UINT8 *buf = vs_scratch(s);
	UINT32 done = 0;

	while (done < size) {
		UINT32 n = MIN(size - done, (UINT32)VS_SCRATCH_SIZE), i;
		if (EFI_ERROR(vs_read(s, at + done, buf, n)))
			return done;
		i = first_programmed_in(buf, n);
		if (i < n)
			return done + i;
		done += n;
	}
	return size;
}

bool vs_is_erased(struct vstore *s, UINT32 at, UINT32 size)
{
	return vs_first_programmed(s, at, size) == size;
}

/* The header's block goes first, so that an interrupted erase never leaves an area
 * whose header survives while its records are half gone. */
EFI_STATUS vs_erase_area(struct vstore *s, UINT32 base)
{
	UINT32 block = s->flash->block_size;

	for (UINT32 at = base; at < base + s->area_size; at += block) {
		if (vs_is_erased(s, at, block))
			continue;
		EFI_STATUS status = s->flash->erase(s->flash, at);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

EFI_STATUS vs_area_write_header(struct vstore *s, UINT32 base, UINT32 generation)
{
	struct vs_area_header h;

	mem_set(&h, 0xff, sizeof(h));
	h.magic = VS_AREA_MAGIC;
	h.version = VS_VERSION;
	h.header_size = sizeof(h);
	h.area_size = s->area_size;
	h.generation = generation;
	h.reserved = 0;
	h.crc = crc32(&h, offsetof(struct vs_area_header, crc));
	return vs_program(s, base, &h, sizeof(h));
}

EFI_STATUS vs_area_begin(struct vstore *s, UINT32 base, UINT32 generation)
{
	EFI_STATUS status = vs_erase_area(s, base);

	return EFI_ERROR(status) ? status : vs_area_write_header(s, base, generation);
}

EFI_STATUS vs_area_commit(struct vstore *s, UINT32 base)
{
	static const UINT8 committed = VS_COMMITTED;

	return vs_program(s, base + offsetof(struct vs_area_header, state), &committed, 1);
}

EFI_STATUS vs_format_area(struct vstore *s, UINT32 base, UINT32 generation)
{
	EFI_STATUS status = vs_area_begin(s, base, generation);

	return EFI_ERROR(status) ? status : vs_area_commit(s, base);
}

EFI_STATUS vs_copy(struct vstore *s, UINT32 from, UINT32 to, UINT32 size)
{
	UINT8 *buf = vs_scratch(s);

	while (size) {
		UINT32 n = MIN(size, (UINT32)VS_SCRATCH_SIZE);
		EFI_STATUS status = vs_read(s, from, buf, n);
		if (!EFI_ERROR(status))
			status = vs_program(s, to, buf, n);
		if (EFI_ERROR(status))
			return status;
		from += n, to += n, size -= n;
	}
	return EFI_SUCCESS;
}

UINT32 vstore_record_size(UINT32 name_size, UINT32 data_size)
{
	return ALIGN_UP((UINT32)sizeof(struct vs_record_header) + name_size + data_size,
			(UINT32)VS_ALIGN);
}

UINT32 vstore_usable(const struct vstore *s)
{
	return s->area_size - sizeof(struct vs_area_header);
}

void vs_record_header_seal(struct vs_record_header *h)
{
	h->magic = VS_RECORD_MAGIC;
	h->header_crc = crc32(h, offsetof(struct vs_record_header, header_crc));
	h->state = VS_ERASED;
	mem_set(h->pad, 0xff, sizeof(h->pad));
}

bool vs_record_header_ok(const struct vstore *s, const struct vs_record_header *h, UINT32 offset)
{
	UINT32 room = s->area_size - offset;

	if (h->magic != VS_RECORD_MAGIC ||
	    h->header_crc != crc32(h, offsetof(struct vs_record_header, header_crc)))
		return false;
	if (h->name_size < 2 * sizeof(CHAR16) || h->name_size % sizeof(CHAR16) ||
	    h->name_size > VARSTORE_MAX_VARIABLE || h->data_size > VARSTORE_MAX_VARIABLE ||
	    (h->attributes & ~0xffu))
		return false;
	return vstore_record_size(h->name_size, h->data_size) <= room;
}

void vstore_convert(struct vstore *s, void (*convert)(void **pointer, void *ctx), void *ctx)
{
	convert((void **)&s->flash, ctx);
	convert((void **)&s->mem, ctx);
}
