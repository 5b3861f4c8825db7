/* The TPM 2.0 command layer and its CRB and FIFO transports (drivers/tpm) against a fake TPM:
 * start-up, bank discovery, PCR_Extend's bytes, error answers, malformed responses and a TPM
 * that stops answering. */
#include <string.h>

#include "fake_tpm.h"
#include "support/test.h"

/* Shortened PTP timeouts: a dead TPM must cost a timeout, and the tests little time. */
static void start_transport(struct tpm_device *tpm, struct fake_tpm *f, bool fifo)
{
	fake_tpm_init(f, fifo);
	if (fifo)
		tpm_tis_init(tpm, &f->regs);
	else
		tpm_crb_init(tpm, &f->regs);
	tpm->timeout_a_us = tpm->timeout_b_us = tpm->timeout_c_us = 1000;
	tpm->timeout_command_us = 5000;
}

static void check_start(bool fifo)
{
	struct fake_tpm f;
	struct tpm_device tpm;

	start_transport(&tpm, &f, fifo);
	EXPECT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	EXPECT(tpm_get() == &tpm);
	EXPECT_EQ(f.count, 3);
	EXPECT_EQ(f.codes[0], TPM_CC_Startup);
	EXPECT_EQ(f.codes[1], TPM_CC_SelfTest);
	EXPECT_EQ(f.codes[2], TPM_CC_GetCapability);
	EXPECT_EQ(tpm.supported_banks,
		  TPM_BANK_SHA1 | TPM_BANK_SHA256 | TPM_BANK_SHA384 | TPM_BANK_SHA512);
	EXPECT_EQ(tpm.active_banks, TPM_BANK_SHA1 | TPM_BANK_SHA256 | TPM_BANK_SHA512);
	/* the last command: GetCapability(TPM_CAP_PCRS, 0, 1), 22 bytes, no sessions */
	static const UINT8 getcap[] = {0x80, 0x01, 0, 0, 0, 22, 0, 0, 0x01, 0x7a, 0,
				       0,    0,	   5, 0, 0, 0,	0, 0, 0,    0,	  1};
	EXPECT_EQ(f.cmd_size, sizeof(getcap));
	EXPECT(memcmp(f.cmd, getcap, sizeof(getcap)) == 0);
	fake_tpm_release(&tpm);
}

TEST(tpm_crb_start_finds_banks)
{
	check_start(false);
}

TEST(tpm_fifo_start_finds_banks)
{
	check_start(true);
}

static void check_extend(bool fifo)
{
	struct fake_tpm f;
	struct tpm_device tpm;
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];
	UINT32 at = 0;

	start_transport(&tpm, &f, fifo);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	for (int i = 0; i < TPM_BANK_COUNT; i++)
		memset(digests[i], 0x10 + i, TPM_DIGEST_MAX);
	ASSERT_STATUS(tpm2_pcr_extend(&tpm, 7, 0x1f, (const UINT8(*)[TPM_DIGEST_MAX])digests),
		      EFI_SUCCESS);
	/* header, pcr 7, the empty password session, 3 digests: SHA-1, SHA-256, SHA-512 */
	static const UINT8 head[] = {0x80, 0x02, 0,    0,    0, 31 + 6 + 20 + 32 + 64,
				     0,	   0,	 0x01, 0x82, /* header */
				     0,	   0,	 0,    7,    /* pcrHandle */
				     0,	   0,	 0,    9,    /* authorizationSize */
				     0x40, 0,	 0,    9,    0, 0,
				     0,	   0,	 0,	   /* TPM_RS_PW, nonce, attributes, hmac */
				     0,	   0,	 0,    3}; /* digests.count */
	ASSERT_EQ(f.cmd_size, sizeof(head) + 6 + 20 + 32 + 64);
	EXPECT(memcmp(f.cmd, head, sizeof(head)) == 0);
	at = sizeof(head);
	EXPECT(f.cmd[at] == 0 && f.cmd[at + 1] == 0x04 && f.cmd[at + 2] == 0x10);
	at += 2 + 20;
	EXPECT(f.cmd[at] == 0 && f.cmd[at + 1] == 0x0b && f.cmd[at + 2] == 0x11);
	at += 2 + 32;
	EXPECT(f.cmd[at] == 0 && f.cmd[at + 1] == 0x0d && f.cmd[at + 2 + 63] == 0x13);
	EXPECT_STATUS(tpm2_pcr_extend(&tpm, 24, 0x1f, (const UINT8(*)[TPM_DIGEST_MAX])digests),
		      EFI_INVALID_PARAMETER);
	fake_tpm_release(&tpm);
}

TEST(tpm_crb_extend_sends_every_active_bank)
{
	check_extend(false);
}

TEST(tpm_fifo_extend_sends_every_active_bank)
{
	check_extend(true);
}

TEST(tpm_startup_already_done_is_success)
{
	static const UINT8 initialize[] = {0x80, 0x01, 0, 0, 0, 10, 0, 0, 0x01, 0x00};
	static const struct fake_tpm_answer answers[] = {
	    {TPM_CC_Startup, initialize, sizeof(initialize)}};
	struct fake_tpm f;
	struct tpm_device tpm;

	start_transport(&tpm, &f, false);
	f.answers = answers;
	f.answer_count = 1;
	EXPECT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	fake_tpm_release(&tpm);
}

/* A TPM in failure mode answers TPM_RC_FAILURE: no TPM for the boot, nothing more sent. */
TEST(tpm_error_answer_fails_the_start)
{
	static const UINT8 failure[] = {0x80, 0x01, 0, 0, 0, 10, 0, 0, 0x01, 0x01};
	static const struct fake_tpm_answer answers[] = {
	    {TPM_CC_SelfTest, failure, sizeof(failure)}};
	struct fake_tpm f;
	struct tpm_device tpm;

	start_transport(&tpm, &f, false);
	f.answers = answers;
	f.answer_count = 1;
	EXPECT_STATUS(tpm_start(&tpm), EFI_DEVICE_ERROR);
	EXPECT(tpm_get() == NULL);
	EXPECT_EQ(f.count, 2);
	EXPECT_STATUS(tpm2_self_test(&tpm), EFI_DEVICE_ERROR);
	EXPECT_EQ(f.count, 2);
	fake_tpm_release(&tpm);
}

static void check_malformed(bool fifo, const UINT8 *rsp, UINT32 size)
{
	const struct fake_tpm_answer answers[] = {{TPM_CC_Startup, rsp, size}};
	struct fake_tpm f;
	struct tpm_device tpm;

	start_transport(&tpm, &f, fifo);
	f.answers = answers;
	f.answer_count = 1;
	EXPECT_STATUS(tpm_start(&tpm), EFI_DEVICE_ERROR);
	EXPECT(tpm.failed);
	EXPECT(tpm_get() == NULL);
	fake_tpm_release(&tpm);
}

TEST(tpm_malformed_responses_are_refused)
{
	/* a size field larger than what came, one smaller, a wrong tag, a header cut short (on
	 * CRB a short answer is padded by what the buffer held: only FIFO can tell) */
	static const UINT8 long_claim[] = {0x80, 0x01, 0, 0, 0x10, 0, 0, 0, 0, 0};
	static const UINT8 short_claim[] = {0x80, 0x01, 0, 0, 0, 4, 0, 0, 0, 0};
	static const UINT8 bad_tag[] = {0x00, 0xc4, 0, 0, 0, 10, 0, 0, 0, 0};
	static const UINT8 cut[] = {0x80, 0x01, 0, 0, 0, 10, 0};

	for (int fifo = 0; fifo < 2; fifo++) {
		check_malformed(fifo, long_claim, sizeof(long_claim));
		check_malformed(fifo, short_claim, sizeof(short_claim));
		check_malformed(fifo, bad_tag, sizeof(bad_tag));
	}
	check_malformed(true, cut, sizeof(cut));
}

static void check_dead(bool fifo, bool no_locality)
{
	struct fake_tpm f;
	struct tpm_device tpm;

	start_transport(&tpm, &f, fifo);
	f.dead = !no_locality;
	f.no_locality = no_locality;
	EXPECT_STATUS(tpm_start(&tpm), EFI_TIMEOUT);
	EXPECT(tpm_get() == NULL);
	EXPECT_STATUS(tpm2_startup(&tpm), EFI_DEVICE_ERROR);
	fake_tpm_release(&tpm);
}

TEST(tpm_that_stops_answering_times_out)
{
	check_dead(false, false);
	check_dead(true, false);
	check_dead(false, true);
	check_dead(true, true);
}

TEST(tpm_pcr_bank_parse_is_bounded)
{
	/* header, moreData, TPM_CAP_PCRS, count 2, one full selection, one cut short */
	static const UINT8 rsp[] = {0x80, 0x01, 0, 0, 0, 30,   0, 0, 0, 0, 0, 0,    0, 0,    5,
				    0,	  0,	0, 2, 0, 0x0b, 3, 1, 2, 3, 0, 0x0d, 3, 0xff, 0xff};
	UINT8 one[25];
	UINT32 supported, active;

	memcpy(one, rsp, sizeof(one));
	one[18] = 1;
	EXPECT_STATUS(tpm2_parse_pcr_banks(one, sizeof(one), &supported, &active), EFI_SUCCESS);
	EXPECT_EQ(supported, TPM_BANK_SHA256);
	EXPECT_EQ(active, TPM_BANK_SHA256);

	EXPECT_STATUS(tpm2_parse_pcr_banks(rsp, sizeof(rsp), &supported, &active),
		      EFI_DEVICE_ERROR);
	EXPECT_STATUS(tpm2_parse_pcr_banks(rsp, 25, &supported, &active), EFI_DEVICE_ERROR);
	/* a count beyond what is there ends the walk with a refusal, not a read past it */
	EXPECT_STATUS(tpm2_parse_pcr_banks(rsp, 16, &supported, &active), EFI_DEVICE_ERROR);
}

/* A TPM with an SM3 bank Ember cannot hash: the measurement extends the other banks and
 * leaves SM3 alone rather than extending it with a digest of zeros. */
TEST(tpm_extend_leaves_banks_out_of_reach_alone)
{
	/* GetCapability(PCRS): SHA-256 and SM3_256, both active */
	static const UINT8 pcrs[] = {0x80, 0x01, 0,    0, 0,	31, 0,	  0,	0,   0,	   0,
				     0,	   0,	 0,    5, 0,	0,  0,	  2,	0,   0x0b, 3,
				     0xff, 0xff, 0xff, 0, 0x12, 3,  0xff, 0xff, 0xff};
	static const struct fake_tpm_answer answers[] = {
	    {TPM_CC_GetCapability, pcrs, sizeof(pcrs)}};
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX] = {{0}};
	struct fake_tpm f;
	struct tpm_device tpm;

	start_transport(&tpm, &f, false);
	f.answers = answers;
	f.answer_count = 1;
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	EXPECT_EQ(tpm.active_banks, TPM_BANK_SHA256 | TPM_BANK_SM3_256);
	ASSERT_STATUS(tpm2_pcr_extend(&tpm, 0, TPM_BANK_SHA256 | TPM_BANK_SHA1,
				      (const UINT8(*)[TPM_DIGEST_MAX])digests),
		      EFI_SUCCESS);
	EXPECT_EQ(f.cmd_size, 31 + 2 + 32);
	EXPECT(f.cmd[30] == 1 && f.cmd[31] == 0 && f.cmd[32] == 0x0b);
	EXPECT_STATUS(
	    tpm2_pcr_extend(&tpm, 0, TPM_BANK_SHA1, (const UINT8(*)[TPM_DIGEST_MAX])digests),
	    EFI_INVALID_PARAMETER);
	fake_tpm_release(&tpm);
}

TEST(tpm_property_and_allocate_parse_is_bounded)
{
	static const UINT8 prop[] = {0x80, 1, 0, 0, 0, 35, 0, 0, 0, 0, 0, 0, 0, 0,   6,	  0,   0, 0,
				     2,	   0, 0, 1, 6, 0,  0, 0, 1, 0, 0, 1, 5, 'I', 'B', 'M', 0};
	static const UINT8 alloc[] = {0x80, 2, 0,  0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 13, 1, 0,
				      0,    0, 24, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 1,  0, 0};
	UINT32 value = 0;
	bool ok = false;

	EXPECT_STATUS(tpm2_parse_tpm_property(prop, sizeof(prop), TPM_PT_MANUFACTURER, &value),
		      EFI_SUCCESS);
	EXPECT_EQ(value, 0x49424d00);
	EXPECT_STATUS(tpm2_parse_tpm_property(prop, sizeof(prop), 0x999, &value), EFI_NOT_FOUND);
	for (UINT32 cut = 1; cut < 8; cut++)
		EXPECT_STATUS(
		    tpm2_parse_tpm_property(prop, sizeof(prop) - cut, TPM_PT_MANUFACTURER, &value),
		    EFI_DEVICE_ERROR);
	EXPECT_STATUS(tpm2_parse_tpm_property(alloc, sizeof(alloc), 1, &value), EFI_DEVICE_ERROR);
	EXPECT_STATUS(tpm2_parse_pcr_allocate(alloc, sizeof(alloc), &ok), EFI_SUCCESS);
	EXPECT(ok);
	EXPECT_STATUS(tpm2_parse_pcr_allocate(alloc, 14, &ok), EFI_DEVICE_ERROR);
}
