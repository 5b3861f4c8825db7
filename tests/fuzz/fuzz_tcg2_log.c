/* Fuzzes the parsers of what a firmware or a TPM hands tcg2-test (apps/tcg2-test/pure) and
 * the firmware's parsers of the TPM's GetCapability(TPM_PROPERTIES) and PCR_Allocate answers
 * (drivers/tpm). The first byte chooses: 0 an event log (Spec ID event, records, replay),
 * 1 final events table records, 2 a PCR_Read response, 3 a Hash response, 4 a TPM property
 * list, 5 a PCR_Allocate response. Every record found must lie within the input. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/drivers/tpm.h>
#include "../../apps/tcg2-test/pure/tpm_log.h"

static bool fake_hash(void *ctx, UINT16 alg, const void *data, size_t size, UINT8 *out)
{
	const UINT8 *p = data;

	(void)ctx;
	memset(out, 0, tlog_alg_size(alg));
	for (size_t i = 0; i < size; i++)
		out[i % tlog_alg_size(alg)] ^= p[i];
	return true;
}

static void walk(struct tlog_reader *r, size_t size, bool replay)
{
	static struct tlog_replay rp;
	struct tlog_event e;
	int got;

	tlog_replay_init(&rp, r);
	while ((got = tlog_next(r, &e)) == 1) {
		UINT32 dsize;

		if (e.offset + e.length > size || e.data + e.data_size > r->base + size)
			abort();
		for (UINT32 i = 0; i < r->alg_count; i++)
			if (tlog_event_digest(r, &e, r->algs[i], &dsize) && dsize > TLOG_DIGEST_MAX)
				abort();
		if (replay)
			tlog_replay_event(&rp, r, &e, fake_hash, NULL);
	}
}

static void final_records(const UINT8 *data, size_t size)
{
	struct tlog_reader log = {0}, r;

	log.alg_count = 2;
	log.algs[0] = TPM_ALG_SHA1;
	log.sizes[0] = 20;
	log.algs[1] = TPM_ALG_SHA256;
	log.sizes[1] = 32;
	tlog_begin_records(&r, &log, data, size);
	walk(&r, size, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static UINT8 values[TLOG_PCRS][TLOG_DIGEST_MAX];
	struct tlog_reader r;
	UINT32 read, value;
	UINT8 digest[TLOG_DIGEST_MAX];
	bool ok;

	if (size < 2)
		return 0;
	switch (data[0] % 6) {
	case 0:
		if (tlog_begin(&r, data + 1, size - 1))
			walk(&r, size - 1, true);
		break;
	case 1:
		final_records(data + 1, size - 1);
		break;
	case 2:
		tlog_parse_pcr_read(data + 2, size - 2, tlog_bank_alg(data[1] % TLOG_BANKS), values,
				    &read);
		break;
	case 3:
		tlog_parse_hash(data + 2, size - 2, tlog_alg_size(tlog_bank_alg(data[1] % 4)),
				digest);
		break;
	case 4:
		tpm2_parse_tpm_property(data + 1, (UINT32)(size - 1), TPM_PT_MANUFACTURER, &value);
		tlog_parse_property(data + 1, size - 1, TPM_PT_MANUFACTURER, &value);
		break;
	default:
		tpm2_parse_pcr_allocate(data + 1, (UINT32)(size - 1), &ok);
	}
	return 0;
}
