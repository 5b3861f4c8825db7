/* Checks of TPM 2.0 responses (TPM 2.0 Part 1, 18.4; Part 2 for the structures): a TPM may
 * answer anything, so each field is read only after the bytes it needs are known present. */
#define LOG_PREFIX "tpm: "
#include <ember/core/log.h>
#include <ember/drivers/tpm.h>

static UINT16 get16(const UINT8 *p)
{
	return (UINT16)(p[0] << 8 | p[1]);
}

static UINT32 get32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

EFI_STATUS tpm2_response_check(const UINT8 *rsp, UINT32 size, UINT32 *code)
{
	UINT16 tag;

	if (size < TPM_HEADER_SIZE) {
		log_debug("response of %u bytes, shorter than a header\n", size);
		return EFI_DEVICE_ERROR;
	}
	tag = get16(rsp);
	if (tag != TPM_ST_NO_SESSIONS && tag != TPM_ST_SESSIONS) {
		log_debug("response tag 0x%x\n", tag);
		return EFI_DEVICE_ERROR;
	}
	if (get32(rsp + 2) != size) {
		log_debug("response size field %u, %u bytes received\n", get32(rsp + 2), size);
		return EFI_DEVICE_ERROR;
	}
	*code = get32(rsp + 6);
	return EFI_SUCCESS;
}

UINT16 tpm2_bank_alg(UINT32 bank)
{
	switch (bank) {
	case TPM_BANK_SHA1:
		return TPM_ALG_SHA1;
	case TPM_BANK_SHA256:
		return TPM_ALG_SHA256;
	case TPM_BANK_SHA384:
		return TPM_ALG_SHA384;
	case TPM_BANK_SHA512:
		return TPM_ALG_SHA512;
	case TPM_BANK_SM3_256:
		return TPM_ALG_SM3_256;
	}
	return 0;
}

UINT32 tpm2_alg_digest_size(UINT16 alg)
{
	switch (alg) {
	case TPM_ALG_SHA1:
		return 20;
	case TPM_ALG_SHA256:
	case TPM_ALG_SM3_256:
		return 32;
	case TPM_ALG_SHA384:
		return 48;
	case TPM_ALG_SHA512:
		return 64;
	}
	return 0;
}

static UINT32 alg_bank(UINT16 alg)
{
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++)
		if (tpm2_bank_alg(1u << i) == alg)
			return 1u << i;
	return 0;
}

/* After the header: moreData (TPMI_YES_NO), capability (UINT32), then TPML_PCR_SELECTION:
 * count (UINT32) and count TPMS_PCR_SELECTION {hash UINT16, sizeofSelect UINT8, pcrSelect}. */
EFI_STATUS tpm2_parse_pcr_banks(const UINT8 *rsp, UINT32 size, UINT32 *supported, UINT32 *active)
{
	UINT32 at = TPM_HEADER_SIZE + 1, count;

	*supported = *active = 0;
	if (size < at + 8 || get32(rsp + at) != TPM_CAP_PCRS) {
		log_debug("GetCapability(PCRS): short or not TPM_CAP_PCRS\n");
		return EFI_DEVICE_ERROR;
	}
	count = get32(rsp + at + 4);
	at += 8;
	for (UINT32 i = 0; i < count; i++) {
		UINT16 alg;
		UINT8 select_size;
		bool any = false;

		if (size - at < 3) {
			log_debug("GetCapability(PCRS): selection %u truncated\n", i);
			return EFI_DEVICE_ERROR;
		}
		alg = get16(rsp + at);
		select_size = rsp[at + 2];
		at += 3;
		if (size - at < select_size) {
			log_debug("GetCapability(PCRS): bitmap %u truncated\n", i);
			return EFI_DEVICE_ERROR;
		}
		for (UINT8 b = 0; b < select_size; b++)
			any |= rsp[at + b] != 0;
		at += select_size;
		*supported |= alg_bank(alg);
		if (any)
			*active |= alg_bank(alg);
	}
	return EFI_SUCCESS;
}

/* After the header: moreData, capability, then TPML_TAGGED_TPM_PROPERTY: count and count
 * TPMS_TAGGED_PROPERTY {property UINT32, value UINT32}. */
EFI_STATUS tpm2_parse_tpm_property(const UINT8 *rsp, UINT32 size, UINT32 property, UINT32 *value)
{
	UINT32 at = TPM_HEADER_SIZE + 1, count;

	if (size < at + 8 || get32(rsp + at) != TPM_CAP_TPM_PROPERTIES) {
		log_debug("GetCapability(TPM_PROPERTIES): short or another capability\n");
		return EFI_DEVICE_ERROR;
	}
	count = get32(rsp + at + 4);
	at += 8;
	for (UINT32 i = 0; i < count; i++, at += 8) {
		if (size - at < 8) {
			log_debug("GetCapability(TPM_PROPERTIES): property %u truncated\n", i);
			return EFI_DEVICE_ERROR;
		}
		if (get32(rsp + at) == property) {
			*value = get32(rsp + at + 4);
			return EFI_SUCCESS;
		}
	}
	return EFI_NOT_FOUND;
}

/* A response with sessions: after the header, parameterSize (UINT32), then allocationSuccess
 * (TPMI_YES_NO), maxPCR, sizeNeeded, sizeAvailable. */
EFI_STATUS tpm2_parse_pcr_allocate(const UINT8 *rsp, UINT32 size, bool *success)
{
	if (size < TPM_HEADER_SIZE + 5 || get32(rsp + TPM_HEADER_SIZE) < 1) {
		log_debug("PCR_Allocate: response of %u bytes\n", size);
		return EFI_DEVICE_ERROR;
	}
	*success = rsp[TPM_HEADER_SIZE + 4] != 0;
	return EFI_SUCCESS;
}
