/* The crypto-agile event log and measurements (drivers/tpm/tcg_log.c): the Spec ID event's
 * bytes, a record's digests equal to the TPM's extend and to a known SHA-256, a full log,
 * and a TPM that fails while the event is still logged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_tpm.h"
#include "support/test.h"
#include <ember/drivers/tcg_log.h>

static UINT32 le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static const UINT8 sha256_abc[32] = {
    0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};

TEST(tcg_log_starts_with_the_spec_id_event)
{
	UINT8 buffer[256];
	struct tcg_log log;

	ASSERT_STATUS(tcg_log_init(&log, buffer, sizeof(buffer), TPM_BANK_SHA1 | TPM_BANK_SHA256),
		      EFI_SUCCESS);
	EXPECT_EQ(le32(buffer), 0);
	EXPECT_EQ(le32(buffer + 4), EV_NO_ACTION);
	EXPECT_EQ(le32(buffer + 28), 16 + 12 + 2 * 4 + 1);
	EXPECT(memcmp(buffer + 32, "Spec ID Event03", 16) == 0);
	EXPECT_EQ(buffer[32 + 21], 2); /* specVersionMajor */
	EXPECT_EQ(buffer[32 + 23], 2); /* uintnSize: 64-bit */
	EXPECT_EQ(le32(buffer + 32 + 24), 2);
	static const UINT8 algs[] = {0x04, 0, 20, 0, 0x0b, 0, 32, 0, 0};
	EXPECT(memcmp(buffer + 32 + 28, algs, sizeof(algs)) == 0);
	EXPECT_EQ(log.used, 32 + 16 + 12 + 8 + 1);
	EXPECT_STATUS(tcg_log_init(&log, buffer, 60, TPM_BANK_SHA256), EFI_BUFFER_TOO_SMALL);
}

TEST(tcg_measure_extends_and_logs_the_same_digests)
{
	struct fake_tpm f;
	struct tpm_device tpm;
	UINT8 buffer[512];
	struct tcg_log log;
	const UINT8 *rec;

	fake_tpm_init(&f, false);
	tpm_crb_init(&tpm, &f.regs);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	ASSERT_STATUS(
	    tcg_log_init(&log, buffer, sizeof(buffer), tcg_hashable_banks(tpm.active_banks)),
	    EFI_SUCCESS);
	ASSERT_STATUS(tcg_measure(&log, &tpm, 4, EV_EFI_ACTION, "abc", 3, "event", 5), EFI_SUCCESS);
	rec = buffer + log.last_event;
	EXPECT_EQ(le32(rec), 4);
	EXPECT_EQ(le32(rec + 4), EV_EFI_ACTION);
	EXPECT_EQ(le32(rec + 8), 3); /* SHA-1, SHA-256, SHA-512 */
	EXPECT(rec[12] == 0x04 && rec[12 + 22] == 0x0b);
	EXPECT(memcmp(rec + 12 + 22 + 2, sha256_abc, 32) == 0);
	/* The extend carried the logged SHA-256: it follows SHA-1's 2 + 20 bytes in the command. */
	EXPECT_EQ(f.codes[f.count - 1], TPM_CC_PCR_Extend);
	EXPECT(memcmp(f.cmd + 31 + 22 + 2, sha256_abc, 32) == 0);
	EXPECT_EQ(le32(rec + 12 + 22 + 34 + 66), 5);
	EXPECT(memcmp(rec + 12 + 22 + 34 + 66 + 4, "event", 5) == 0);
	EXPECT_EQ(log.used, log.last_event + 12 + 22 + 34 + 66 + 4 + 5);
	fake_tpm_release(&tpm);
}

TEST(tcg_log_full_is_truncated_and_a_failed_tpm_still_logs)
{
	struct fake_tpm f;
	struct tpm_device tpm;
	UINT8 buffer[160];
	struct tcg_log log;
	UINT32 used;

	fake_tpm_init(&f, false);
	tpm_crb_init(&tpm, &f.regs);
	tpm.timeout_a_us = tpm.timeout_b_us = tpm.timeout_c_us = tpm.timeout_command_us = 1000;
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	ASSERT_STATUS(tcg_log_init(&log, buffer, sizeof(buffer), TPM_BANK_SHA256), EFI_SUCCESS);
	f.dead = true;
	/* The TPM stops answering: the status says so, the event is in the log. */
	EXPECT_STATUS(tcg_measure(&log, &tpm, 0, EV_S_CRTM_VERSION, "v", 1, "v", 1), EFI_TIMEOUT);
	EXPECT_EQ(le32(buffer + log.last_event + 4), EV_S_CRTM_VERSION);
	used = log.used;
	EXPECT_STATUS(tcg_measure(&log, NULL, 0, EV_SEPARATOR, "x", 1, buffer, 100),
		      EFI_VOLUME_FULL);
	EXPECT(log.truncated);
	EXPECT_EQ(log.used, used);
	fake_tpm_release(&tpm);
}

/* A boot's worth of events; with EMBER_TCG_LOG_OUT set, the log is written there for
 * tests/integration/test_tcg_log.py to replay with tpm2_eventlog (tpm2-tools). */
TEST(tcg_log_for_replay)
{
	static const char action[] = "Calling EFI Application from Boot Option";
	static UINT8 buffer[4096];
	const char *out = getenv("EMBER_TCG_LOG_OUT");
	struct fake_tpm f;
	struct tpm_device tpm;
	struct tcg_log log;
	UINT32 zero = 0;

	fake_tpm_init(&f, false);
	tpm_crb_init(&tpm, &f.regs);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	ASSERT_STATUS(
	    tcg_log_init(&log, buffer, sizeof(buffer), tcg_hashable_banks(tpm.active_banks)),
	    EFI_SUCCESS);
	EXPECT_STATUS(tcg_measure(&log, &tpm, 0, EV_S_CRTM_VERSION, "v1", 2, "v1", 2), EFI_SUCCESS);
	for (UINT32 pcr = 0; pcr < 8; pcr++)
		EXPECT_STATUS(tcg_measure(&log, &tpm, pcr, EV_SEPARATOR, &zero, 4, &zero, 4),
			      EFI_SUCCESS);
	EXPECT_STATUS(tcg_measure(&log, &tpm, 4, EV_EFI_ACTION, action, sizeof(action) - 1, action,
				  sizeof(action) - 1),
		      EFI_SUCCESS);
	if (out) {
		FILE *file = fopen(out, "wb");

		ASSERT(file != NULL);
		EXPECT_EQ(fwrite(buffer, 1, log.used, file), log.used);
		fclose(file);
	}
	fake_tpm_release(&tpm);
}
