/* Measurements into the TPM and the crypto-agile event log that records them (TCG PC Client
 * Platform Firmware Profile 1.05, 10.2: a TCG_PCR_EVENT carrying the "Spec ID Event03"
 * structure first, then TCG_PCR_EVENT2 records, little-endian). Each measurement is hashed
 * with every active bank's algorithm, extended into the TPM, then appended to the log. */
#ifndef EMBER_TCG_LOG_H
#define EMBER_TCG_LOG_H

#include <stdbool.h>
#include <ember/drivers/tpm.h>

#define EV_NO_ACTION 0x00000003
#define EV_SEPARATOR 0x00000004
#define EV_S_CRTM_VERSION 0x00000008
#define EV_EFI_ACTION 0x80000007

/* A log in memory the caller provides. */
struct tcg_log {
	UINT8 *base;
	UINT32 size;	   /* bytes at base */
	UINT32 used;	   /* bytes written */
	UINT32 last_event; /* offset of the last record */
	UINT32 banks;	   /* TPM_BANK_* the log carries digests for */
	bool truncated;	   /* a record did not fit (EFI_TCG2_EVENT_LOG's EventLogTruncated) */
};

/* Starts a log in buffer with the Spec ID event for banks (the active banks Ember can hash:
 * SHA-1, SHA-256, SHA-384, SHA-512). EFI_BUFFER_TOO_SMALL if even that does not fit. */
EFI_STATUS tcg_log_init(struct tcg_log *log, void *buffer, UINT32 size, UINT32 banks);
/* Appends a TCG_PCR_EVENT2 whose digests are digests[i] for bank (1 << i). */
EFI_STATUS tcg_log_append(struct tcg_log *log, UINT32 pcr, UINT32 type,
			  const UINT8 digests[][TPM_DIGEST_MAX], const void *event,
			  UINT32 event_size);
/* The TPM_BANK_* of tpm's active banks that Ember can hash. */
UINT32 tcg_hashable_banks(UINT32 active);
/* Hashes data with every bank of log, extends pcr of tpm (if any) and logs the event. A TPM
 * that fails is reported by the status; the event is logged all the same. */
EFI_STATUS tcg_measure(struct tcg_log *log, struct tpm_device *tpm, UINT32 pcr, UINT32 type,
		       const void *data, UINT32 data_size, const void *event, UINT32 event_size);

#endif
