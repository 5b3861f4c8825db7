/* The event log reader, the replay and the TPM responses of tcg2-test (tpm_log.h). */
#include <ember/lib/str.h>
#include "tpm_log.h"

#define SPEC_ID "Spec ID Event03"
#define STARTUP_LOCALITY "StartupLocality"

static const UINT16 bank_algs[TLOG_BANKS] = {0x0004, 0x000B, 0x000C, 0x000D, 0x0012};

static UINT16 le16(const UINT8 *p)
{
	return (UINT16)(p[0] | p[1] << 8);
}

static UINT32 le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static UINT16 be16(const UINT8 *p)
{
	return (UINT16)(p[0] << 8 | p[1]);
}

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

UINT16 tlog_bank_alg(unsigned bank)
{
	return bank < TLOG_BANKS ? bank_algs[bank] : 0;
}

int tlog_alg_bank(UINT16 alg)
{
	for (int i = 0; i < TLOG_BANKS; i++)
		if (bank_algs[i] == alg)
			return i;
	return -1;
}

UINT32 tlog_alg_size(UINT16 alg)
{
	static const UINT32 sizes[TLOG_BANKS] = {20, 32, 48, 64, 32};
	int bank = tlog_alg_bank(alg);

	return bank < 0 ? 0 : sizes[bank];
}

/* TCG_EfiSpecIdEvent after the signature: platformClass, versions, uintnSize, then the
 * algorithm list and vendorInfoSize. */
static bool spec_id_read(struct tlog_reader *r, const UINT8 *ev, UINT32 size)
{
	UINT32 count, at = 28;

	if (size < 29 || mem_cmp(ev, SPEC_ID, sizeof(SPEC_ID)) != 0)
		return false;
	count = le32(ev + 24);
	if (count == 0 || count > TLOG_ALGS_MAX || (size - at - 1) / 4 < count)
		return false;
	for (UINT32 i = 0; i < count; i++, at += 4) {
		r->algs[i] = le16(ev + at);
		r->sizes[i] = le16(ev + at + 2);
		if (r->sizes[i] == 0 || r->sizes[i] > TLOG_DIGEST_MAX)
			return false;
	}
	r->alg_count = count;
	return ev[at] <= size - at - 1; /* vendorInfo within the event */
}

bool tlog_begin(struct tlog_reader *r, const void *log, size_t size)
{
	const UINT8 *p = log;
	UINT32 ev_size;

	mem_set(r, 0, sizeof(*r));
	if (size < 32 || le32(p + 4) != TLOG_EV_NO_ACTION)
		return false;
	ev_size = le32(p + 28);
	if (ev_size > size - 32 || !spec_id_read(r, p + 32, ev_size))
		return false;
	r->base = p;
	r->size = size;
	r->at = 32 + ev_size;
	return true;
}

void tlog_begin_records(struct tlog_reader *r, const struct tlog_reader *log, const void *records,
			size_t size)
{
	*r = *log;
	r->base = records;
	r->size = size;
	r->at = 0;
}

static UINT32 alg_digest_size(const struct tlog_reader *r, UINT16 alg)
{
	for (UINT32 i = 0; i < r->alg_count; i++)
		if (r->algs[i] == alg)
			return r->sizes[i];
	return 0;
}

/* TPML_DIGEST_VALUES: count, then count TPMT_HA of the sizes the Spec ID event gives. */
static bool digests_read(const struct tlog_reader *r, struct tlog_event *e, size_t *at)
{
	size_t left = r->size - *at;

	if (left < 4)
		return false;
	e->digest_count = le32(r->base + *at);
	*at += 4;
	e->digests = r->base + *at;
	if (e->digest_count > TLOG_ALGS_MAX)
		return false;
	for (UINT32 i = 0; i < e->digest_count; i++) {
		UINT32 dsize;

		if (r->size - *at < 2)
			return false;
		dsize = alg_digest_size(r, le16(r->base + *at));
		if (!dsize || r->size - *at - 2 < dsize)
			return false;
		*at += 2 + dsize;
	}
	return true;
}

int tlog_next(struct tlog_reader *r, struct tlog_event *e)
{
	size_t at = r->at;

	if (at >= r->size)
		return 0;
	mem_set(e, 0, sizeof(*e));
	e->offset = at;
	if (r->size - at < 8)
		return -1;
	e->pcr = le32(r->base + at);
	e->type = le32(r->base + at + 4);
	at += 8;
	if (e->pcr >= TLOG_PCRS || !digests_read(r, e, &at) || r->size - at < 4)
		return -1;
	e->data_size = le32(r->base + at);
	at += 4;
	if (e->data_size > r->size - at)
		return -1;
	e->data = r->base + at;
	at += e->data_size;
	e->length = at - e->offset;
	r->at = at;
	return 1;
}

const UINT8 *tlog_event_digest(const struct tlog_reader *r, const struct tlog_event *e, UINT16 alg,
			       UINT32 *size)
{
	const UINT8 *p = e->digests;

	/* tlog_next checked that the records are within the log. */
	for (UINT32 i = 0; i < e->digest_count; i++) {
		UINT32 dsize = alg_digest_size(r, le16(p));

		if (le16(p) == alg) {
			*size = dsize;
			return p + 2;
		}
		p += 2 + dsize;
	}
	return NULL;
}

void tlog_replay_init(struct tlog_replay *rp, const struct tlog_reader *r)
{
	mem_set(rp, 0, sizeof(*rp));
	for (UINT32 i = 0; i < r->alg_count; i++) {
		int bank = tlog_alg_bank(r->algs[i]);

		if (bank >= 0 && r->sizes[i] == tlog_alg_size(r->algs[i]))
			rp->banks |= 1u << bank;
	}
	for (int b = 0; b < TLOG_BANKS; b++)
		for (int pcr = 17; pcr <= 22; pcr++)
			mem_set(rp->pcr[b][pcr], 0xFF, TLOG_DIGEST_MAX);
}

/* PFP 10.4.5.3: the locality the TPM was started from, which PCR 0 starts with. */
static void startup_locality(struct tlog_replay *rp, const struct tlog_event *e)
{
	if (e->pcr != 0 || e->data_size < sizeof(STARTUP_LOCALITY) + 1 ||
	    mem_cmp(e->data, STARTUP_LOCALITY, sizeof(STARTUP_LOCALITY)) != 0)
		return;
	for (int b = 0; b < TLOG_BANKS; b++) {
		UINT32 size = tlog_alg_size(tlog_bank_alg(b));

		mem_set(rp->pcr[b][0], 0, TLOG_DIGEST_MAX);
		rp->pcr[b][0][size - 1] = e->data[sizeof(STARTUP_LOCALITY)];
	}
}

bool tlog_replay_event(struct tlog_replay *rp, const struct tlog_reader *r,
		       const struct tlog_event *e, tlog_hash_fn hash, void *ctx)
{
	if (e->type == TLOG_EV_NO_ACTION) {
		startup_locality(rp, e);
		return true;
	}
	for (int b = 0; b < TLOG_BANKS; b++) {
		UINT16 alg = tlog_bank_alg(b);
		UINT32 size = 0;
		const UINT8 *digest = tlog_event_digest(r, e, alg, &size);
		UINT8 both[2 * TLOG_DIGEST_MAX];

		if (!(rp->banks & (1u << b)) || !digest)
			continue;
		mem_copy(both, rp->pcr[b][e->pcr], size);
		mem_copy(both + size, digest, size);
		if (!hash(ctx, alg, both, 2 * size, rp->pcr[b][e->pcr]))
			return false;
	}
	rp->events++;
	return true;
}

/* After the header: pcrUpdateCounter, TPML_PCR_SELECTION pcrSelectionOut, TPML_DIGEST
 * pcrValues (count, then TPM2B_DIGEST each), in the order of the selection's bits. */
bool tlog_parse_pcr_read(const UINT8 *rsp, size_t size, UINT16 alg,
			 UINT8 values[TLOG_PCRS][TLOG_DIGEST_MAX], UINT32 *read)
{
	size_t at = 10 + 4;
	UINT32 selected = 0, count, digest_size = tlog_alg_size(alg);

	*read = 0;
	if (size < at + 4 || !digest_size)
		return false;
	count = be32(rsp + at);
	at += 4;
	for (UINT32 i = 0; i < count; i++) {
		UINT8 select_size;

		if (size - at < 3)
			return false;
		select_size = rsp[at + 2];
		if (size - at - 3 < select_size || be16(rsp + at) != alg || select_size > 3)
			return false;
		for (UINT32 byte = 0; byte < select_size; byte++)
			selected |= (UINT32)rsp[at + 3 + byte] << (8 * byte);
		at += 3 + select_size;
	}
	if (size - at < 4)
		return false;
	count = be32(rsp + at);
	at += 4;
	for (UINT32 pcr = 0; pcr < TLOG_PCRS; pcr++) {
		if (!(selected & (1u << pcr)))
			continue;
		if (count-- == 0 || size - at < 2 || be16(rsp + at) != digest_size ||
		    size - at - 2 < digest_size)
			return false;
		mem_copy(values[pcr], rsp + at + 2, digest_size);
		at += 2 + digest_size;
		*read |= 1u << pcr;
	}
	return count == 0;
}

/* After the header: TPM2B_DIGEST outHash, then the validation ticket (not read). */
bool tlog_parse_hash(const UINT8 *rsp, size_t size, UINT32 expected_size, UINT8 *out)
{
	if (size < 12 || be16(rsp + 10) != expected_size || size - 12 < expected_size)
		return false;
	mem_copy(out, rsp + 12, expected_size);
	return true;
}

/* After the header: moreData, capability (6), TPML_TAGGED_TPM_PROPERTY: count, then
 * {property, value} pairs. */
bool tlog_parse_property(const UINT8 *rsp, size_t size, UINT32 property, UINT32 *value)
{
	size_t at = 10 + 1;
	UINT32 count;

	if (size < at + 8 || be32(rsp + at) != 6)
		return false;
	count = be32(rsp + at + 4);
	at += 8;
	for (UINT32 i = 0; i < count && size - at >= 8; i++, at += 8)
		if (be32(rsp + at) == property) {
			*value = be32(rsp + at + 4);
			return true;
		}
	return false;
}
