/* tcg2-test: EFI_TCG2_PROTOCOL on the firmware it runs on (main.c) and the TPM 2.0 commands
 * it sends through SubmitCommand (tpm.c). */
#ifndef TCG2_TEST_H
#define TCG2_TEST_H

#include <efi/protocol/tcg2.h>
#include "../lib/check.h"
#include "pure/tpm_log.h"

extern EFI_TCG2_PROTOCOL *tcg2;

/* TPM2_Hash of data (at most 1024 bytes) with a TPM_ALG_*; fits tlog_hash_fn. */
bool tpm_hash(void *ctx, UINT16 alg, const void *data, size_t size, UINT8 *out);
/* TPM2_PCR_Read of PCRs 0-23 of the bank of alg into values. */
bool tpm_read_pcrs(UINT16 alg, UINT8 values[TLOG_PCRS][TLOG_DIGEST_MAX]);
/* TPM2_GetCapability of one TPM property (TPM_PT_*). */
bool tpm_property(UINT32 property, UINT32 *value);
/* TPM2_PCR_Reset of a resettable PCR (16, the debug PCR) with an empty password. */
bool tpm_reset_pcr(UINT32 pcr);

#endif
