/* The machine's event log (drivers/tpm/measure.c), private to drivers/tpm: what the TCG2
 * protocol needs beside the measure_* calls of include/ember/drivers/measure.h. */
#ifndef EMBER_TPM_EVENT_LOG_H
#define EMBER_TPM_EVENT_LOG_H

#include <ember/drivers/tcg_log.h>

/* The machine's log, created (with the final events table) on first use; NULL without a
 * TPM or when its memory could not be allocated. */
struct tcg_log *event_log_get(void);
/* Extends pcr with digests (unless type is EV_NO_ACTION) and, when log_it, logs the event in
 * the log and, once event_log_final_start was called, in the final events table. */
EFI_STATUS event_log_record(UINT32 pcr, UINT32 type, const UINT8 digests[][TPM_DIGEST_MAX],
			    const void *event, UINT32 event_size, bool log_it);
/* The SHA-1 log (EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2): TCG_PCClientPCREvent records (PCR,
 * type, SHA-1 digest, event size, event) of every event, kept beside the crypto-agile log
 * when the SHA-1 bank is active. */
struct tcg_legacy_log {
	UINT8 *base;
	UINT32 size, used;
	UINT32 last_event; /* offset of the last record */
	bool truncated;
};

/* The SHA-1 log, NULL without one (no TPM, no SHA-1 bank, no memory). */
const struct tcg_legacy_log *event_log_legacy(void);
/* Called by GetEventLog: every later event also goes into EFI_TCG2_FINAL_EVENTS_TABLE. */
void event_log_final_start(void);
/* Hashes data in every bank of banks into digests (digests[i] for bank 1 << i); with
 * pe_image, the Authenticode digest (EFI_UNSUPPORTED for no PE/COFF image). */
EFI_STATUS event_log_hash(UINT32 banks, const void *data, UINTN size, bool pe_image,
			  UINT8 digests[][TPM_DIGEST_MAX]);

#endif
