/* The boot's measurements (security/measure_*.c, bds/measure_boot.c) over the fake TPM: the
 * records they put in the machine's event log, in the PCRs and with the event data of the
 * TCG PC Client Platform Firmware Profile (UEFI_VARIABLE_DATA, UEFI_IMAGE_LOAD_EVENT, the
 * separators and actions), and the digest each covers. In a child process with a fresh
 * log: the log and the TPM are the machine's. */
#include <string.h>

#include "bds_fixture.h"
#include "fake_tpm.h"
#include "pe_builder.h"
#include "support/test.h"
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/pe.h>
#include <ember/crypto/authenticode.h>
#include <ember/crypto/hash.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include "../../drivers/tpm/event_log.h"

/* One TCG_PCR_EVENT2 of the fake's banks (SHA-1, SHA-256, SHA-512). */
struct record {
	UINT32 pcr, type;
	const UINT8 *sha256;
	const UINT8 *event;
	UINT32 event_size;
};

static struct fake_tpm fake;
static struct tpm_device tpm;
static struct tcg_log *log;
static UINT32 next; /* offset of the next record not yet read */

static UINT32 le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

/* The next record logged since the last call; false when there is none. */
static bool next_record(struct record *r)
{
	const UINT8 *p = log->base + next;

	if (next >= log->used)
		return false;
	r->pcr = le32(p);
	r->type = le32(p + 4);
	r->sha256 = p + 12 + 22 + 2;
	p += 12 + 22 + 34 + 66;
	r->event_size = le32(p);
	r->event = p + 4;
	next = (UINT32)(r->event + r->event_size - log->base);
	return true;
}

static void expect_sha256_of(const struct record *r, const void *data, size_t size)
{
	UINT8 digest[32];

	hash_buffer(HASH_SHA256, data, size, digest);
	EXPECT(memcmp(r->sha256, digest, 32) == 0);
}

static void start(void)
{
	fake_tpm_init(&fake, false);
	tpm_crb_init(&tpm, &fake.regs);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	log = event_log_get();
	ASSERT(log != NULL);
	/* A fresh log: another test may have filled the machine's. */
	ASSERT_STATUS(tcg_log_init(log, log->base, log->size, log->banks), EFI_SUCCESS);
	next = log->used;
}

static void variables(void)
{
	static const UINT8 data[] = {1, 2, 3};
	const UEFI_VARIABLE_DATA *v;
	struct record r;

	start();
	measure_variable(1, EV_EFI_VARIABLE_BOOT, u"BootOrder", &efi_global_variable_guid, data,
			 sizeof(data), true);
	ASSERT(next_record(&r));
	EXPECT_EQ(r.pcr, 1);
	EXPECT_EQ(r.type, EV_EFI_VARIABLE_BOOT);
	ASSERT_EQ(r.event_size, sizeof(*v) + 9 * 2 + sizeof(data));
	v = (const UEFI_VARIABLE_DATA *)r.event;
	EXPECT(guid_eq(&v->VariableName, &efi_global_variable_guid));
	EXPECT_EQ(v->UnicodeNameLength, 9);
	EXPECT_EQ(v->VariableDataLength, sizeof(data));
	EXPECT(memcmp(v + 1, u"BootOrder", 18) == 0);
	EXPECT(memcmp((const UINT8 *)(v + 1) + 18, data, sizeof(data)) == 0);
	/* EV_EFI_VARIABLE_BOOT: the digest of the data only. */
	expect_sha256_of(&r, data, sizeof(data));
	/* Driver configuration: of the whole structure, and measured when absent too. */
	measure_variable(7, EV_EFI_VARIABLE_DRIVER_CONFIG, u"PK", &efi_global_variable_guid, NULL,
			 0, false);
	ASSERT(next_record(&r));
	EXPECT_EQ(r.event_size, sizeof(*v) + 4);
	expect_sha256_of(&r, r.event, r.event_size);
}

static void actions_and_separators(void)
{
	static const UINT8 zero[4];
	struct record r;

	start();
	measure_boot_attempt();
	/* The first attempt: the policy into PCR 7 first (five variables and a separator). */
	for (int i = 0; i < 6; i++) {
		ASSERT(next_record(&r));
		EXPECT_EQ(r.pcr, 7);
		EXPECT_EQ(r.type, i < 5 ? EV_EFI_VARIABLE_DRIVER_CONFIG : EV_SEPARATOR);
	}
	while (next_record(&r) && r.type == EV_EFI_VARIABLE_BOOT)
		EXPECT_EQ(r.pcr, 1);
	EXPECT_EQ(r.pcr, 4);
	EXPECT_EQ(r.type, EV_EFI_ACTION);
	ASSERT_EQ(r.event_size, strlen(TCG_ACTION_CALLING_BOOT_OPTION));
	EXPECT(memcmp(r.event, TCG_ACTION_CALLING_BOOT_OPTION, r.event_size) == 0);
	expect_sha256_of(&r, TCG_ACTION_CALLING_BOOT_OPTION, r.event_size);
	for (UINT32 pcr = 0; pcr < 7; pcr++) {
		ASSERT(next_record(&r));
		EXPECT_EQ(r.pcr, pcr);
		EXPECT_EQ(r.type, EV_SEPARATOR);
		EXPECT(r.event_size == 4 && memcmp(r.event, zero, 4) == 0);
		expect_sha256_of(&r, zero, 4);
	}
	EXPECT(!next_record(&r));
	/* Later attempts: the action alone; the return is an action too. */
	measure_boot_returned();
	measure_boot_attempt();
	ASSERT(next_record(&r));
	EXPECT(r.pcr == 4 && r.event_size == strlen(TCG_ACTION_RETURNING_BOOT_OPTION));
	ASSERT(next_record(&r));
	EXPECT(r.pcr == 4 && r.event_size == strlen(TCG_ACTION_CALLING_BOOT_OPTION));
	EXPECT(!next_record(&r));
}

static void images(void)
{
	static UINT8 pe[PEB_FILE_SIZE];
	static const UINT8 path[] = {0x04, 0x04, 8, 0, 'a', 0, 0, 0, 0x7f, 0xff, 4, 0};
	const UEFI_IMAGE_LOAD_EVENT *e;
	UINT8 digest[32];
	struct record r;

	start();
	peb_build(pe);
	measure_image(pe, sizeof(pe), EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION, 0x1000000, 0x5000,
		      PEB_IMAGE_BASE, (const EFI_DEVICE_PATH_PROTOCOL *)path);
	while (next_record(&r) && r.pcr == 7) /* the policy, measured before anything runs */
		;
	EXPECT_EQ(r.pcr, 4);
	EXPECT_EQ(r.type, EV_EFI_BOOT_SERVICES_APPLICATION);
	ASSERT_EQ(r.event_size, sizeof(*e) + sizeof(path));
	e = (const UEFI_IMAGE_LOAD_EVENT *)r.event;
	EXPECT_EQ(e->ImageLocationInMemory, 0x1000000);
	EXPECT_EQ(e->ImageLengthInMemory, 0x5000);
	EXPECT_EQ(e->ImageLinkTimeAddress, PEB_IMAGE_BASE);
	EXPECT_EQ(e->LengthOfDevicePath, sizeof(path));
	EXPECT(memcmp(e + 1, path, sizeof(path)) == 0);
	ASSERT_STATUS(authenticode_digest(pe, sizeof(pe), HASH_SHA256, digest), EFI_SUCCESS);
	EXPECT(memcmp(r.sha256, digest, 32) == 0);
	/* Drivers go into PCR 2; no path: an empty one. */
	measure_image(pe, sizeof(pe), EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER, 0x2000000,
		      0x5000, PEB_IMAGE_BASE, NULL);
	ASSERT(next_record(&r));
	EXPECT(r.pcr == 2 && r.type == EV_EFI_BOOT_SERVICES_DRIVER);
	EXPECT_EQ(r.event_size, sizeof(*e));
	EXPECT(!next_record(&r));
}

static void authorities(void)
{
	static const UINT8 entry[20] = {1, 2, 3};
	static const UINT8 other[20] = {4, 5, 6};
	const UEFI_VARIABLE_DATA *v;
	struct record r;

	start();
	measure_authority(entry, sizeof(entry));
	while (next_record(&r) && r.type != EV_EFI_VARIABLE_AUTHORITY)
		;
	EXPECT_EQ(r.pcr, 7);
	v = (const UEFI_VARIABLE_DATA *)r.event;
	EXPECT(guid_eq(&v->VariableName, &efi_image_security_database_guid));
	EXPECT(v->UnicodeNameLength == 2 && memcmp(v + 1, u"db", 4) == 0);
	EXPECT(memcmp((const UINT8 *)(v + 1) + 4, entry, sizeof(entry)) == 0);
	expect_sha256_of(&r, r.event, r.event_size);
	/* Once per distinct entry. */
	measure_authority(entry, sizeof(entry));
	EXPECT(!next_record(&r));
	measure_authority(other, sizeof(other));
	EXPECT(next_record(&r) && r.type == EV_EFI_VARIABLE_AUTHORITY);
}

/* A TPM that refuses PCR_Extend (TPM_RC_FAILURE) or stops answering: the image still loads
 * (measuring never stops a boot), and a dead TPM is not asked again. */
static void failing_tpm(void)
{
	static const UINT8 failure[] = {0x80, 0x01, 0, 0, 0, 10, 0, 0, 0x01, 0x01};
	static const struct fake_tpm_answer answers[] = {
	    {TPM_CC_PCR_Extend, failure, sizeof(failure)}};
	static UINT8 pe[PEB_FILE_SIZE];
	EFI_HANDLE image = NULL;

	start();
	peb_build(pe);
	fake.answers = answers;
	fake.answer_count = 1;
	measure_boot_attempt();
	EXPECT_STATUS(image_load(false, core_image_handle, NULL, pe, sizeof(pe), &image, NULL),
		      EFI_SUCCESS);
	EXPECT(image != NULL);
	tpm.timeout_a_us = tpm.timeout_b_us = tpm.timeout_c_us = 1000;
	tpm.timeout_command_us = 5000;
	fake.dead = true;
	measure_separator(0);
	EXPECT(tpm_get() == NULL);
	EXPECT(!measure_enabled());
	image = NULL;
	EXPECT_STATUS(image_load(false, core_image_handle, NULL, pe, sizeof(pe), &image, NULL),
		      EFI_SUCCESS);
	EXPECT(image != NULL);
}

/* The boot manager boots one program on a GPT disk twice (Boot0001, Boot0002): the boot
 * variables into PCR 1 once, the disk's GPT into PCR 5 once (its header and its one used
 * entry), the action and the program into PCR 4 at each attempt. */
static void boot_from_gpt_disk(void)
{
	static const struct bds_file files[] = {{"/ONE.EFI", 1}};
	static const UINT16 order[] = {1, 2};
	struct bds_platform platform = {0};
	EFI_DEVICE_PATH_PROTOCOL *part, *file;
	UINT32 gpts = 0, apps = 0, calls = 0, variables = 0;
	struct record r;

	bds_world_start();
	start();
	bds_gpt_disk_add(files, 1, &part);
	file = bds_file_path(part, "/ONE.EFI");
	bds_option_put(u"Boot", 1, LOAD_OPTION_ACTIVE, u"one", file, NULL, 0);
	bds_option_put(u"Boot", 2, LOAD_OPTION_ACTIVE, u"again", file, NULL, 0);
	bds_order_put(u"BootOrder", order, 2);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,1"));
	while (next_record(&r)) {
		const UEFI_GPT_DATA *gpt = (const UEFI_GPT_DATA *)r.event;
		if (r.type == EV_EFI_GPT_EVENT) {
			gpts++;
			EXPECT_EQ(r.pcr, 5);
			EXPECT_EQ(gpt->UEFIPartitionHeader.Header.Signature, EFI_PTAB_HEADER_ID);
			EXPECT_EQ(gpt->NumberOfPartitions, 1);
			EXPECT_EQ(r.event_size, sizeof(*gpt) + 128);
			expect_sha256_of(&r, r.event, r.event_size);
		} else if (r.type == EV_EFI_BOOT_SERVICES_APPLICATION) {
			apps++;
			EXPECT(r.pcr == 4 && gpts == 1); /* the GPT before the program */
		} else if (r.type == EV_EFI_ACTION && r.pcr == 4) {
			calls++;
		} else if (r.type == EV_EFI_VARIABLE_BOOT) {
			variables++;
		}
	}
	EXPECT_EQ(gpts, 1);
	EXPECT_EQ(apps, 2);
	EXPECT_EQ(calls, 4); /* calling, returning, calling, returning */
	EXPECT_EQ(variables, 3);
	pool_free(file);
}

TEST(measure_boot_gpt_once_programs_each_time)
{
	RUN_ISOLATED(boot_from_gpt_disk);
}

TEST(measure_boot_a_failing_tpm_stops_no_boot)
{
	RUN_ISOLATED(failing_tpm);
}

TEST(measure_boot_variables_layout_and_digest)
{
	RUN_ISOLATED(variables);
}

TEST(measure_boot_attempts_separators_and_actions)
{
	RUN_ISOLATED(actions_and_separators);
}

TEST(measure_boot_images_into_pcr4_and_pcr2)
{
	RUN_ISOLATED(images);
}

TEST(measure_boot_authority_once_per_entry)
{
	RUN_ISOLATED(authorities);
}
