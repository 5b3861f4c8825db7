/* The machine's event log and the measuring calls (drivers/tpm/measure.c) over a fake TPM:
 * nothing without a TPM, the digests extended equal the digests logged (plain data and the
 * Authenticode digest of a PE image), EV_NO_ACTION not extended, the final events table
 * filled only after GetEventLog's start, and a full log reported truncated while the PCR is
 * still extended. One test: the log is the machine's, made once per process. */
#include <string.h>

#include "fake_tpm.h"
#include "pe_builder.h"
#include "support/test.h"
#include <ember/core/core.h>
#include <ember/crypto/authenticode.h>
#include <ember/drivers/measure.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/tcg2.h>
#include "../../drivers/tpm/event_log.h"

static struct fake_tpm fake;
static struct tpm_device tpm;

static UINT32 le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static EFI_TCG2_FINAL_EVENTS_TABLE *final_table(void)
{
	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++)
		if (guid_eq(&core_st->ConfigurationTable[i].VendorGuid,
			    &efi_tcg2_final_events_table_guid))
			return core_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

static void check_no_tpm(void)
{
	static const UINT8 failure[] = {0x80, 0x01, 0, 0, 0, 10, 0, 0, 0x01, 0x01};
	static const struct fake_tpm_answer answers[] = {
	    {TPM_CC_SelfTest, failure, sizeof(failure)}};

	fake_tpm_init(&fake, false);
	tpm_crb_init(&tpm, &fake.regs);
	fake.answers = answers;
	fake.answer_count = 1;
	EXPECT_STATUS(tpm_start(&tpm), EFI_DEVICE_ERROR);
	EXPECT(!measure_enabled());
	EXPECT_STATUS(measure_data(0, EV_SEPARATOR, "x", 1, "x", 1), EFI_NOT_READY);
	EXPECT(final_table() == NULL);
}

/* The record at rec carries SHA-1, SHA-256 and SHA-512 (the fake's active banks); the
 * PCR_Extend the fake received last carries the same digests. */
static void check_record(const UINT8 *rec, UINT32 pcr, UINT32 type, const UINT8 *sha1,
			 const UINT8 *sha256)
{
	EXPECT_EQ(le32(rec), pcr);
	EXPECT_EQ(le32(rec + 4), type);
	EXPECT_EQ(le32(rec + 8), 3);
	EXPECT(rec[12] == 0x04 && memcmp(rec + 14, sha1, 20) == 0);
	EXPECT(rec[34] == 0x0b && memcmp(rec + 36, sha256, 32) == 0);
	EXPECT(memcmp(fake.cmd + 31 + 2, sha1, 20) == 0);
	EXPECT(memcmp(fake.cmd + 31 + 22 + 2, sha256, 32) == 0);
	EXPECT_EQ(fake.cmd[13], pcr);
}

static void check_data(struct tcg_log *log)
{
	UINT8 sha1[20], sha256[32];
	const UINT8 *rec;

	ASSERT_STATUS(measure_data(4, EV_EFI_ACTION, "abc", 3, "event", 5), EFI_SUCCESS);
	hash_buffer(HASH_SHA1, "abc", 3, sha1);
	hash_buffer(HASH_SHA256, "abc", 3, sha256);
	rec = log->base + log->last_event;
	check_record(rec, 4, EV_EFI_ACTION, sha1, sha256);
	EXPECT_EQ(le32(rec + 12 + 22 + 34 + 66), 5);
	EXPECT(memcmp(rec + 12 + 22 + 34 + 66 + 4, "event", 5) == 0);
}

static void check_pe_image(struct tcg_log *log)
{
	static UINT8 pe[PEB_FILE_SIZE + 13];
	UINT8 sha1[20], sha256[32];

	peb_build(pe);
	memset(pe + PEB_FILE_SIZE, 0x5a, 13); /* trailing bytes are hashed too */
	ASSERT_STATUS(authenticode_digest(pe, sizeof(pe), HASH_SHA1, sha1), EFI_SUCCESS);
	ASSERT_STATUS(authenticode_digest(pe, sizeof(pe), HASH_SHA256, sha256), EFI_SUCCESS);
	ASSERT_STATUS(measure_pe_image(2, 0x80000004, pe, sizeof(pe), "img", 3), EFI_SUCCESS);
	check_record(log->base + log->last_event, 2, 0x80000004, sha1, sha256);
	EXPECT_STATUS(measure_pe_image(2, 0x80000004, "MZ", 2, "bad", 3), EFI_UNSUPPORTED);
}

/* The SHA-256 Secure Boot computed for the buffer it allowed is taken as it is, once, for
 * that buffer only; the other banks are hashed. */
static void check_known_sha256(struct tcg_log *log)
{
	static UINT8 pe[PEB_FILE_SIZE];
	UINT8 sha1[20], sha256[32], known[32];

	peb_build(pe);
	ASSERT_STATUS(authenticode_digest(pe, sizeof(pe), HASH_SHA1, sha1), EFI_SUCCESS);
	ASSERT_STATUS(authenticode_digest(pe, sizeof(pe), HASH_SHA256, sha256), EFI_SUCCESS);
	memset(known, 0x3c, sizeof(known)); /* not the real digest: shows it was not hashed */
	measure_image_sha256(pe, sizeof(pe), known);
	ASSERT_STATUS(measure_pe_image(4, 0x80000003, pe, sizeof(pe), "app", 3), EFI_SUCCESS);
	check_record(log->base + log->last_event, 4, 0x80000003, sha1, known);
	ASSERT_STATUS(measure_pe_image(4, 0x80000003, pe, sizeof(pe), "app", 3), EFI_SUCCESS);
	check_record(log->base + log->last_event, 4, 0x80000003, sha1, sha256);
	measure_image_sha256(pe, sizeof(pe) - 1, known);
	ASSERT_STATUS(measure_pe_image(4, 0x80000003, pe, sizeof(pe), "app", 3), EFI_SUCCESS);
	check_record(log->base + log->last_event, 4, 0x80000003, sha1, sha256);
}

static void check_digests_and_no_action(struct tcg_log *log)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];

	for (int i = 0; i < TPM_BANK_COUNT; i++)
		memset(digests[i], 0xa0 + i, TPM_DIGEST_MAX);
	ASSERT_STATUS(
	    measure_digests(7, 0x800000e0, (const UINT8(*)[TPM_DIGEST_MAX])digests, "d", 1),
	    EFI_SUCCESS);
	check_record(log->base + log->last_event, 7, 0x800000e0, digests[0], digests[1]);
	fake.cmd_size = 0;
	ASSERT_STATUS(
	    measure_digests(0, EV_NO_ACTION, (const UINT8(*)[TPM_DIGEST_MAX])digests, "info", 4),
	    EFI_SUCCESS);
	EXPECT_EQ(fake.cmd_size, 0);
	EXPECT(mem_is_zero(log->base + log->last_event + 14, 20));
	ASSERT_STATUS(measure_data(0, EV_NO_ACTION, "abc", 3, "info", 4), EFI_SUCCESS);
	EXPECT_EQ(fake.cmd_size, 0); /* nothing sent to the TPM */
	static const UINT8 zero[32];
	EXPECT(memcmp(log->base + log->last_event + 14, zero, 20) == 0);
	EXPECT_STATUS(measure_data(24, EV_SEPARATOR, "x", 1, "x", 1), EFI_INVALID_PARAMETER);
}

static void check_final_table(struct tcg_log *log)
{
	EFI_TCG2_FINAL_EVENTS_TABLE *table = final_table();
	UINT32 size;

	ASSERT(table != NULL);
	EXPECT_EQ(table->Version, 1);
	EXPECT_EQ(table->NumberOfEvents, 0);
	event_log_final_start();
	ASSERT_STATUS(measure_data(5, EV_EFI_ACTION, "late", 4, "late", 4), EFI_SUCCESS);
	EXPECT_EQ(table->NumberOfEvents, 1);
	size = log->used - log->last_event;
	EXPECT(memcmp(table->Event, log->base + log->last_event, size) == 0);
}

static void check_full(struct tcg_log *log)
{
	static UINT8 big[8192];
	EFI_STATUS status = EFI_SUCCESS;
	UINT32 n = 0;

	while (!EFI_ERROR(status) && n++ < 100)
		status = measure_data(8, EV_EFI_ACTION, "x", 1, big, sizeof(big));
	EXPECT_STATUS(status, EFI_VOLUME_FULL);
	EXPECT(log->truncated);
	/* the SHA-1 log (64 KiB) was full before */
	ASSERT(event_log_legacy() != NULL);
	EXPECT(event_log_legacy()->truncated);
	EXPECT(event_log_legacy()->used <= event_log_legacy()->size);
	fake.cmd_size = 0;
	EXPECT_STATUS(measure_data(8, EV_EFI_ACTION, "x", 1, "y", 1), EFI_VOLUME_FULL);
	/* extended all the same */
	EXPECT(fake.cmd_size > 10 && fake.cmd[8] == 0x01 && fake.cmd[9] == 0x82);
}

TEST(measure_extends_and_logs_into_the_machine_log)
{
	struct tcg_log *log;

	check_no_tpm();
	fake_tpm_init(&fake, false);
	tpm_crb_init(&tpm, &fake.regs);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	ASSERT(measure_enabled());
	log = event_log_get();
	ASSERT(log != NULL);
	EXPECT(memcmp(log->base + 32, "Spec ID Event03", 16) == 0);
	EXPECT_EQ(log->banks, TPM_BANK_SHA1 | TPM_BANK_SHA256 | TPM_BANK_SHA512);
	check_data(log);
	check_pe_image(log);
	check_known_sha256(log);
	check_digests_and_no_action(log);
	check_final_table(log);
	check_full(log);
}
