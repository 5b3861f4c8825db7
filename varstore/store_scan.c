/* Replaying the active area's log into the index (docs/varstore.md, "Mounting and
 * recovery"). A record is skipped by its size only when its own checks prove that size:
 * its name and data match its body CRC. A record whose body does not (a torn or damaged
 * one) only claims its size: the scan goes on 8 bytes further, so that no such header
 * can hide the records after it, and the claimed space is what the next record may not
 * be written into. Checking the records found inside claimed space is bounded by a
 * reading budget, so the scan stays linear whatever the area holds. */
#define LOG_PREFIX "varstore: "
#include "format.h"
#include <ember/core/log.h>
#include <ember/lib/crc32.h>

/* Body bytes the scan may read, per byte of area, to check records found inside claimed
 * space. Outside it, record bodies never overlap, so each byte is checked at most once. */
#define CLAIM_BUDGET_PER_BYTE 2

struct scan {
	struct vstore *s;
	UINT32 p;	  /* offset of the unit being looked at, in the active area */
	UINT32 claim_end; /* end of the space records of unproven size claim */
	UINT32 budget;	  /* body bytes left for checking records inside that space */
	bool in_garbage;  /* the unit before held neither a record nor erased flash */
};

enum verdict {
	RECORD_PROVEN,	  /* its size is proven: skipped by it */
	RECORD_CLAIMS,	  /* torn or damaged: its size is only a claim */
	RECORD_UNCHECKED, /* inside claimed space, with the budget spent: not even checked */
};

/* Checks a record's name and CRC, computing the hash of its key on the way. The name must
 * end with its only terminator. */
static bool body_ok(struct vstore *s, UINT32 at, const struct vs_record_header *h, UINT32 *hash)
{
	UINT8 *buf = vs_scratch(s);
	UINT32 crc = 0, done = 0, body = h->name_size + h->data_size;
	UINT32 name_end = h->name_size, key_hash = VS_HASH_START;

	at += sizeof(*h);
	while (done < body) {
		/* Chunks stop at the end of the name, so the name's units never straddle one. */
		UINT32 n = MIN(body - done, (UINT32)VS_SCRATCH_SIZE);
		if (done < name_end)
			n = MIN(n, name_end - done);
		if (EFI_ERROR(vs_read(s, at + done, buf, n)))
			return false;
		crc = crc32_update(crc, buf, n);
		if (done < name_end) {
			for (UINT32 i = 0; i < n; i += 2)
				if ((buf[i] == 0 && buf[i + 1] == 0) != (done + i + 2 == name_end))
					return false;
			key_hash = vs_hash_update(key_hash, buf, n);
		}
		done += n;
	}
	if (crc != h->body_crc)
		return false;
	*hash = vs_hash_update(key_hash, &h->guid, sizeof(h->guid));
	return true;
}

/* A record whose body fails its checks: counted; its size is only a claim. */
static enum verdict unproven(struct scan *sc, const struct vs_record_header *h)
{
	if (h->state == VS_COMMITTED) {
		sc->s->report.damaged++;
		log_debug("record at 0x%x: complete, but its name or data fail its CRC\n", sc->p);
	} else {
		sc->s->report.torn++;
		log_debug("record at 0x%x: interrupted write (state 0x%02x), its %u bytes "
			  "unproven\n",
			  sc->p, h->state, h->name_size + h->data_size);
	}
	return RECORD_CLAIMS;
}

/* Checks the well-formed record at sc->p and applies it when it is complete and sound. */
static enum verdict check_record(struct scan *sc, const struct vs_record_header *h)
{
	struct vstore *s = sc->s;
	UINT32 body = h->name_size + h->data_size, hash, entry;
	bool inside = sc->p < sc->claim_end;

	if (inside && body > sc->budget) {
		if (!s->report.unchecked++)
			log_debug("record at 0x%x: not checked, nor the next ones inside claimed "
				  "space: the scan's reading budget is spent\n",
				  sc->p);
		return RECORD_UNCHECKED;
	}
	if (inside)
		sc->budget -= body;
	if (!body_ok(s, s->active + sc->p, h, &hash))
		return unproven(sc, h);
	if (h->state != VS_COMMITTED) {
		/* Whole but never committed (the cut hit its state byte): its size is proven. */
		s->report.torn++;
		log_debug("record at 0x%x: interrupted write (state 0x%02x), ignored\n", sc->p,
			  h->state);
		return RECORD_PROVEN;
	}
	entry = vs_index_find_record(s, hash, s->active + sc->p, h);
	if (!vs_index_apply(s, entry, hash, sc->p, h)) {
		s->report.dropped++;
		log_debug("record at 0x%x: the index is full, variable dropped\n", sc->p);
	}
	if (inside)
		s->report.recovered++;
	return RECORD_PROVEN;
}

static bool all_erased(const void *p, UINT32 size)
{
	const UINT8 *b = p;

	for (UINT32 i = 0; i < size; i++)
		if (b[i] != VS_ERASED)
			return false;
	return true;
}

/* A unit that is neither a record header nor erased. Inside claimed space it belongs to
 * the claiming record, already counted, unless it starts like a record: a header that
 * fails its checks is a record lost wherever it is. */
static void skip_unit(struct scan *sc, const struct vs_record_header *h)
{
	bool garbage =
	    !all_erased(h, VS_ALIGN) && (sc->p >= sc->claim_end || h->magic == VS_RECORD_MAGIC);

	if (garbage) {
		sc->s->report.garbage++;
		if (!sc->in_garbage)
			log_debug("bytes at 0x%x are neither a record nor erased flash: skipped\n",
				  sc->p);
	}
	sc->in_garbage = garbage;
	sc->p += VS_ALIGN;
}

/* At an erased header: skips the run of erased bytes in one go; false when it lasts to
 * the end of the area (the tail). */
static bool skip_erased(struct scan *sc)
{
	struct vstore *s = sc->s;
	UINT32 rest = s->area_size - sc->p;
	UINT32 next = vs_first_programmed(s, s->active + sc->p, rest);

	sc->in_garbage = false;
	if (next == rest)
		return false;
	/* A header's worth is known erased: a read error further on still moves forward. */
	sc->p += MAX(ALIGN_DOWN(next, (UINT32)VS_ALIGN),
		     ALIGN_DOWN((UINT32)sizeof(struct vs_record_header), (UINT32)VS_ALIGN));
	return true;
}

EFI_STATUS vs_scan(struct vstore *s)
{
	struct scan sc = {s, sizeof(struct vs_area_header), 0,
			  CLAIM_BUDGET_PER_BYTE * s->area_size};
	struct vs_record_header h;

	vs_index_reset(s);
	while (sc.p + sizeof(h) <= s->area_size) {
		EFI_STATUS status = vs_read(s, s->active + sc.p, &h, sizeof(h));
		if (EFI_ERROR(status)) {
			log_debug("reading the log at 0x%x failed\n", sc.p);
			return status;
		}
		if (vs_record_header_ok(s, &h, sc.p)) {
			UINT32 size = vstore_record_size(h.name_size, h.data_size);
			enum verdict v = check_record(&sc, &h);
			sc.in_garbage = false;
			if (v == RECORD_PROVEN) {
				sc.p += size;
				continue;
			}
			if (v == RECORD_CLAIMS)
				sc.claim_end = MAX(sc.claim_end, sc.p + size);
			sc.p += VS_ALIGN;
		} else if (!all_erased(&h, sizeof(h))) {
			skip_unit(&sc, &h);
		} else if (!skip_erased(&sc)) {
			break;
		}
	}
	/* Appending stays past any claimed space, as older versions (which skipped records
	 * by their size) expect; vs_record_header_ok keeps claims inside the area. */
	s->tail = MIN(MAX(sc.p, sc.claim_end), s->area_size);
	return EFI_SUCCESS;
}
