/* The crypto-agile event log and measurements (include/ember/drivers/tcg_log.h). */
#define LOG_PREFIX "tcg: "
#include <ember/core/log.h>
#include <ember/crypto/hash.h>
#include <ember/drivers/tcg_log.h>
#include <ember/lib/str.h>

#define SPEC_ID_SIGNATURE "Spec ID Event03"
#define BANKS_HASHABLE (TPM_BANK_SHA1 | TPM_BANK_SHA256 | TPM_BANK_SHA384 | TPM_BANK_SHA512)

static void put16(UINT8 *p, UINT16 v)
{
	p[0] = (UINT8)v;
	p[1] = (UINT8)(v >> 8);
}

static void put32(UINT8 *p, UINT32 v)
{
	put16(p, (UINT16)v);
	put16(p + 2, (UINT16)(v >> 16));
}

static UINT32 bank_count(UINT32 banks)
{
	UINT32 n = 0;

	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++)
		n += (banks >> i) & 1;
	return n;
}

UINT32 tcg_hashable_banks(UINT32 active)
{
	return active & BANKS_HASHABLE;
}

/* TCG_PCR_EVENT: PCRIndex 0, EV_NO_ACTION, 20 zero bytes, EventSize, then
 * TCG_EfiSpecIDEventStruct (PFP 10.4.5.1). */
EFI_STATUS tcg_log_init(struct tcg_log *log, void *buffer, UINT32 size, UINT32 banks)
{
	UINT32 spec_size = 16 + 4 + 4 + 4 + 4 * bank_count(banks) + 1;
	UINT32 total = 4 + 4 + 20 + 4 + spec_size;
	UINT8 *p = buffer, *spec;

	mem_set(log, 0, sizeof(*log));
	if (size < total)
		return EFI_BUFFER_TOO_SMALL;
	mem_set(p, 0, total);
	put32(p + 4, EV_NO_ACTION);
	put32(p + 28, spec_size);
	spec = p + 32;
	mem_copy(spec, SPEC_ID_SIGNATURE, sizeof(SPEC_ID_SIGNATURE));
	/* platformClass 0 (client), specVersionMinor 0, Major 2, errata 2, uintnSize 2 (64-bit) */
	spec[21] = 2;
	spec[22] = 2;
	spec[23] = 2;
	put32(spec + 24, bank_count(banks));
	spec += 28;
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++) {
		UINT16 alg = tpm2_bank_alg(1u << i);

		if (!(banks & (1u << i)))
			continue;
		put16(spec, alg);
		put16(spec + 2, (UINT16)tpm2_alg_digest_size(alg));
		spec += 4;
	}
	*spec = 0; /* vendorInfoSize */
	log->base = p;
	log->size = size;
	log->used = total;
	log->banks = banks;
	return EFI_SUCCESS;
}

EFI_STATUS tcg_log_append(struct tcg_log *log, UINT32 pcr, UINT32 type,
			  const UINT8 digests[][TPM_DIGEST_MAX], const void *event,
			  UINT32 event_size)
{
	UINT32 need = 4 + 4 + 4 + 4 + event_size;
	UINT8 *p;

	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++)
		if (log->banks & (1u << i))
			need += 2 + tpm2_alg_digest_size(tpm2_bank_alg(1u << i));
	if (log->truncated || event_size > log->size || log->size - log->used < need) {
		log->truncated = true;
		return EFI_VOLUME_FULL;
	}
	p = log->base + log->used;
	put32(p, pcr);
	put32(p + 4, type);
	put32(p + 8, bank_count(log->banks));
	p += 12;
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++) {
		UINT16 alg = tpm2_bank_alg(1u << i);

		if (!(log->banks & (1u << i)))
			continue;
		put16(p, alg);
		mem_copy(p + 2, digests[i], tpm2_alg_digest_size(alg));
		p += 2 + tpm2_alg_digest_size(alg);
	}
	put32(p, event_size);
	mem_copy(p + 4, event, event_size);
	log->last_event = log->used;
	log->used += need;
	return EFI_SUCCESS;
}

static const enum hash_alg bank_hash[] = {HASH_SHA1, HASH_SHA256, HASH_SHA384, HASH_SHA512};

EFI_STATUS tcg_measure(struct tcg_log *log, struct tpm_device *tpm, UINT32 pcr, UINT32 type,
		       const void *data, UINT32 data_size, const void *event, UINT32 event_size)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];
	EFI_STATUS status = EFI_SUCCESS, logged;

	mem_set(digests, 0, sizeof(digests));
	for (UINT32 i = 0; i < 4; i++)
		if (log->banks & (1u << i))
			hash_buffer(bank_hash[i], data, data_size, digests[i]);
	if (tpm)
		status =
		    tpm2_pcr_extend(tpm, pcr, log->banks, (const UINT8(*)[TPM_DIGEST_MAX])digests);
	if (EFI_ERROR(status))
		log_warn("PCR %u not extended: %r\n", pcr, status);
	logged = tcg_log_append(log, pcr, type, (const UINT8(*)[TPM_DIGEST_MAX])digests, event,
				event_size);
	if (EFI_ERROR(logged))
		log_debug("event log full: event 0x%x for PCR %u not logged\n", type, pcr);
	return EFI_ERROR(status) ? status : logged;
}
