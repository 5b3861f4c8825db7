/* The tcg2-test application's pure logic (no UEFI calls, no libc; also compiled into the
 * host's unit tests and fuzzers): a reader of the crypto-agile event log (TCG PC Client
 * Platform Firmware Profile 1.05, 10.2) and of the final events table, the replay of a log
 * into PCR values, and the two TPM 2.0 responses the application reads (TPM2_PCR_Read and
 * TPM2_Hash). Logs and responses are outside data: every field is read only after the
 * bytes it needs are known present, and anything malformed is refused. */
#ifndef TCG2_TEST_TPM_LOG_H
#define TCG2_TEST_TPM_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

#define TLOG_PCRS 24
#define TLOG_BANKS 5 /* SHA-1, SHA-256, SHA-384, SHA-512, SM3-256: bit i of a bank map */
#define TLOG_DIGEST_MAX 64
#define TLOG_ALGS_MAX 8
#define TLOG_EV_NO_ACTION 3

/* TPM_ALG_* of bank bit i, and the bank index of an algorithm (-1 for none). */
UINT16 tlog_bank_alg(unsigned bank);
int tlog_alg_bank(UINT16 alg);
/* The digest size of a TPM_ALG_* Ember knows, 0 for others. */
UINT32 tlog_alg_size(UINT16 alg);

struct tlog_reader {
	const UINT8 *base;
	size_t size, at;
	UINT32 alg_count;
	UINT16 algs[TLOG_ALGS_MAX], sizes[TLOG_ALGS_MAX]; /* from the Spec ID event */
	UINT8 startup_locality;				  /* a StartupLocality event's */
};

struct tlog_event {
	UINT32 pcr, type;
	UINT32 digest_count;
	const UINT8 *digests; /* TPMT_HA records: algorithm (2 bytes), digest */
	const UINT8 *data;
	UINT32 data_size;
	size_t offset, length; /* of the whole record */
};

/* Reads the TCG_PCR_EVENT carrying "Spec ID Event03" at the start of log: false when it is
 * missing or malformed. r->at is then the offset of the first TCG_PCR_EVENT2. */
bool tlog_begin(struct tlog_reader *r, const void *log, size_t size);
/* Starts a reader of bare TCG_PCR_EVENT2 records (a final events table's) with the
 * algorithms of an already begun reader of the log. */
void tlog_begin_records(struct tlog_reader *r, const struct tlog_reader *log, const void *records,
			size_t size);
/* The next TCG_PCR_EVENT2: 1 for a record, 0 at the end (no bytes left), -1 when malformed
 * (truncated, an algorithm not in the Spec ID event, a PCR past 23). */
int tlog_next(struct tlog_reader *r, struct tlog_event *e);
/* The digest of alg in e (its size from the Spec ID event in *size), or NULL. */
const UINT8 *tlog_event_digest(const struct tlog_reader *r, const struct tlog_event *e, UINT16 alg,
			       UINT32 *size);

/* Digest of data with a TPM_ALG_* into out; false on failure. */
typedef bool (*tlog_hash_fn)(void *ctx, UINT16 alg, const void *data, size_t size, UINT8 *out);

/* The PCRs a log's events lead to, for every bank of the Spec ID event. */
struct tlog_replay {
	UINT8 pcr[TLOG_BANKS][TLOG_PCRS][TLOG_DIGEST_MAX];
	UINT32 banks; /* bank bits with a known algorithm */
	UINT32 events;
};

/* Starts PCRs as a TPM does after TPM2_Startup(CLEAR): zeros, PCR 17-22 all ones, PCR 0's
 * last byte the startup locality. */
void tlog_replay_init(struct tlog_replay *rp, const struct tlog_reader *r);
/* Extends e into rp (EV_NO_ACTION events are not extended): false when hashing failed. */
bool tlog_replay_event(struct tlog_replay *rp, const struct tlog_reader *r,
		       const struct tlog_event *e, tlog_hash_fn hash, void *ctx);

/* TPM2_PCR_Read's response (already checked for a full header by the caller, size bytes):
 * the digests of size digest_size of the PCRs its pcrSelectionOut names for alg, into
 * values[pcr], those PCRs' bits into *read. False when malformed. */
bool tlog_parse_pcr_read(const UINT8 *rsp, size_t size, UINT16 alg,
			 UINT8 values[TLOG_PCRS][TLOG_DIGEST_MAX], UINT32 *read);
/* TPM2_GetCapability(TPM_CAP_TPM_PROPERTIES)'s response: the value of property. False when
 * malformed or absent. */
bool tlog_parse_property(const UINT8 *rsp, size_t size, UINT32 property, UINT32 *value);
/* TPM2_Hash's response: outHash (expected_size bytes) into out. False when malformed. */
bool tlog_parse_hash(const UINT8 *rsp, size_t size, UINT32 expected_size, UINT8 *out);

#endif
