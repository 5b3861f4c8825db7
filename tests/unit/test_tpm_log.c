/* tcg2-test's pure logic (apps/tcg2-test/pure/tpm_log.c): a log written by the firmware's
 * tcg_log (drivers/tpm) read back record by record and replayed into the PCR values a TPM
 * computes; truncated records, unknown algorithms and PCRs past 23 refused; the
 * StartupLocality event; PCR_Read, Hash and GetCapability responses, bounded. */
#include <string.h>

#include "support/test.h"
#include <ember/crypto/hash.h>
#include <ember/drivers/tcg_log.h>
#include "../../apps/tcg2-test/pure/tpm_log.h"

static bool host_hash(void *ctx, UINT16 alg, const void *data, size_t size, UINT8 *out)
{
	(void)ctx;
	hash_buffer(alg == 0x0004 ? HASH_SHA1 : HASH_SHA256, data, size, out);
	return alg == 0x0004 || alg == 0x000B;
}

static UINT8 log_buf[1024];
static struct tcg_log log;

static void write_log(void)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX] = {{0}};

	ASSERT_STATUS(tcg_log_init(&log, log_buf, sizeof(log_buf), TPM_BANK_SHA1 | TPM_BANK_SHA256),
		      EFI_SUCCESS);
	for (int i = 0; i < 3; i++) {
		hash_buffer(HASH_SHA1, "abc", 3, digests[0]);
		hash_buffer(HASH_SHA256, "abc", 3, digests[1]);
		ASSERT_STATUS(tcg_log_append(&log, i == 2 ? 7 : 4, i == 1 ? EV_NO_ACTION : 0xD,
					     (const UINT8(*)[TPM_DIGEST_MAX])digests, "ev", 2),
			      EFI_SUCCESS);
	}
}

TEST(tpm_log_reads_and_replays_the_firmware_log)
{
	static struct tlog_replay rp;
	struct tlog_reader r;
	struct tlog_event e;
	UINT8 d[32], both[64], want[32];
	UINT32 size;
	int n = 0;

	write_log();
	ASSERT(tlog_begin(&r, log_buf, log.used));
	EXPECT_EQ(r.alg_count, 2);
	tlog_replay_init(&rp, &r);
	EXPECT_EQ(rp.banks, 3);
	EXPECT(rp.pcr[1][17][0] == 0xFF && rp.pcr[1][16][0] == 0);
	while (tlog_next(&r, &e) == 1) {
		EXPECT(tlog_event_digest(&r, &e, 0x000B, &size) != NULL && size == 32);
		EXPECT(e.data_size == 2 && memcmp(e.data, "ev", 2) == 0);
		ASSERT(tlog_replay_event(&rp, &r, &e, host_hash, NULL));
		n++;
	}
	EXPECT_EQ(n, 3);
	EXPECT_EQ(rp.events, 2); /* EV_NO_ACTION not extended */
	EXPECT_EQ(r.at, log.used);
	/* PCR 4 = SHA-256(zeros || SHA-256("abc")) */
	hash_buffer(HASH_SHA256, "abc", 3, d);
	memset(both, 0, 32);
	memcpy(both + 32, d, 32);
	hash_buffer(HASH_SHA256, both, 64, want);
	EXPECT(memcmp(rp.pcr[1][4], want, 32) == 0);
	EXPECT(memcmp(rp.pcr[1][7], want, 32) == 0);
}

TEST(tpm_log_refuses_malformed_records)
{
	struct tlog_reader r;
	struct tlog_event e;
	UINT32 first;

	write_log();
	ASSERT(tlog_begin(&r, log_buf, log.used));
	first = (UINT32)r.at;
	/* every truncation of the last record is refused, never read past */
	for (UINT32 cut = 1; cut < log.used - log.last_event; cut++) {
		ASSERT(tlog_begin(&r, log_buf, log.used - cut));
		while (tlog_next(&r, &e) == 1)
			;
		EXPECT_EQ(tlog_next(&r, &e), -1);
	}
	log_buf[first] = 24; /* PCR 24 */
	ASSERT(tlog_begin(&r, log_buf, log.used));
	EXPECT_EQ(tlog_next(&r, &e), -1);
	log_buf[first] = 4;
	log_buf[first + 12] = 0x0C; /* SHA-384, not in the Spec ID event */
	ASSERT(tlog_begin(&r, log_buf, log.used));
	EXPECT_EQ(tlog_next(&r, &e), -1);
	EXPECT(!tlog_begin(&r, log_buf, 40)); /* Spec ID event cut */
	log_buf[32] = 'X';
	EXPECT(!tlog_begin(&r, log_buf, log.used));
}

TEST(tpm_log_startup_locality_starts_pcr0)
{
	static struct tlog_replay rp;
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX] = {{0}};
	static const char locality[17] = "StartupLocality\0\3";
	struct tlog_reader r;
	struct tlog_event e;

	ASSERT_STATUS(tcg_log_init(&log, log_buf, sizeof(log_buf), TPM_BANK_SHA256), EFI_SUCCESS);
	ASSERT_STATUS(tcg_log_append(&log, 0, EV_NO_ACTION, (const UINT8(*)[TPM_DIGEST_MAX])digests,
				     locality, sizeof(locality)),
		      EFI_SUCCESS);
	ASSERT(tlog_begin(&r, log_buf, log.used));
	tlog_replay_init(&rp, &r);
	ASSERT_EQ(tlog_next(&r, &e), 1);
	ASSERT(tlog_replay_event(&rp, &r, &e, host_hash, NULL));
	EXPECT(rp.pcr[1][0][31] == 3 && rp.pcr[1][0][30] == 0);
}

TEST(tpm_log_parses_tpm_responses)
{
	static UINT8 values[TLOG_PCRS][TLOG_DIGEST_MAX];
	UINT8 rsp[10 + 4 + 4 + 6 + 4 + 2 * 22] = {0x80, 0x01, 0, 0, 0, sizeof(rsp)};
	UINT8 out[32];
	UINT32 read = 0, value = 0;
	static const UINT8 prop[] = {0x80, 1, 0, 0, 0, 27, 0, 0, 0, 0,	 0,   0,   0, 0,
				     6,	   0, 0, 0, 1, 0,  0, 1, 5, 'I', 'B', 'M', 0};
	static const UINT8 hash[] = {0x80, 1, 0, 0, 0, 16, 0, 0, 0, 0, 0, 4, 1, 2, 3, 4};

	/* SHA-1 PCRs 1 and 2 */
	UINT8 *p = rsp + 14;
	memcpy(p, "\0\0\0\1\0\x04\3\x06\0\0\0\0\0\2", 14);
	p += 14;
	for (int i = 0; i < 2; i++, p += 22) {
		p[1] = 20;
		memset(p + 2, 0x10 + i, 20);
	}
	ASSERT(tlog_parse_pcr_read(rsp, sizeof(rsp), 0x0004, values, &read));
	EXPECT_EQ(read, 6);
	EXPECT(values[1][0] == 0x10 && values[2][19] == 0x11);
	for (size_t cut = 1; cut < sizeof(rsp); cut++)
		EXPECT(!tlog_parse_pcr_read(rsp, sizeof(rsp) - cut, 0x0004, values, &read));
	EXPECT(!tlog_parse_pcr_read(rsp, sizeof(rsp), 0x000B, values, &read));
	EXPECT(tlog_parse_property(prop, sizeof(prop), 0x105, &value) && value == 0x49424d00);
	EXPECT(!tlog_parse_property(prop, sizeof(prop) - 1, 0x105, &value));
	EXPECT(tlog_parse_hash(hash, sizeof(hash), 4, out) && out[3] == 4);
	EXPECT(!tlog_parse_hash(hash, sizeof(hash) - 1, 4, out));
	EXPECT(!tlog_parse_hash(hash, sizeof(hash), 20, out));
}
