/* EFI_TCG2_PROTOCOL (drivers/tpm/tcg2_protocol.c, tcg2_pcr_banks.c) over the fake TPM:
 * GetCapability's size rules and fields, GetEventLog and the final events table, the checks
 * of HashLogExtendEvent's event header and its flags, SubmitCommand's buffer checks (a size
 * field that disagrees with the block is never sent), and a SetActivePcrBanks request carried
 * out by the next boot's PCR_Allocate, whose refusal GetResultOfSetActivePcrBanks reports. */
#include <string.h>

#include "fake_tpm.h"
#include "support/test.h"
#include "test_varstore.h"
#include <ember/core/core.h>
#include <ember/crypto/hash.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/tcg2.h>
#include "../../drivers/tpm/event_log.h"
#include "../../drivers/tpm/tcg2_private.h"

static struct nor_sim flash;
static struct fake_tpm fake;
static struct tpm_device tpm;
static EFI_TCG2_PROTOCOL *tcg2;

/* GetCapability(TPM_PROPERTIES): TPM_PT_MANUFACTURER "IBM\0". */
static const UINT8 rsp_manufacturer[] = {0x80, 0x01, 0, 0, 0, 27, 0, 0, 0, 0,	0,   0,	  0, 0,
					 6,    0,    0, 0, 1, 0,  0, 1, 5, 'I', 'B', 'M', 0};
/* PCR_Allocate answered allocationSuccess NO. */
static const UINT8 rsp_refused[] = {0x80, 0x02, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 13, 0, 0,
				    0,	  24,	0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 1,  0, 0};

static void start(void)
{
	static const struct fake_tpm_answer answers[] = {
	    {TPM_CC_GetCapability, rsp_manufacturer, sizeof(rsp_manufacturer)},
	    {TPM_CC_PCR_Allocate, rsp_refused, sizeof(rsp_refused)}};

	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(variables_start(&flash.dev), EFI_SUCCESS);
	fake_tpm_init(&fake, false);
	tpm_crb_init(&tpm, &fake.regs);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	fake.answers = answers;
	fake.answer_count = 2;
	ASSERT_STATUS(tcg2_install(), EFI_SUCCESS);
	ASSERT_STATUS(protocol_locate(&efi_tcg2_protocol_guid, (void **)&tcg2), EFI_SUCCESS);
}

static void check_capability(void)
{
	EFI_TCG2_BOOT_SERVICE_CAPABILITY cap;

	EXPECT_STATUS(tcg2->GetCapability(tcg2, NULL), EFI_INVALID_PARAMETER);
	cap.Size = sizeof(cap);
	ASSERT_STATUS(tcg2->GetCapability(tcg2, &cap), EFI_SUCCESS);
	EXPECT(cap.StructureVersion.Major == 1 && cap.StructureVersion.Minor == 1);
	EXPECT(cap.ProtocolVersion.Major == 1 && cap.ProtocolVersion.Minor == 1);
	EXPECT_EQ(cap.HashAlgorithmBitmap, 0xF);
	EXPECT_EQ(cap.ActivePcrBanks, TPM_BANK_SHA1 | TPM_BANK_SHA256 | TPM_BANK_SHA512);
	EXPECT_EQ(cap.NumberOfPCRBanks, 4);
	/* SHA-1 is active: the SHA-1 log is offered too */
	EXPECT_EQ(cap.SupportedEventLogs,
		  EFI_TCG2_EVENT_LOG_FORMAT_TCG_2 | EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2);
	EXPECT_EQ(cap.TPMPresentFlag, 1);
	EXPECT_EQ(cap.ManufacturerID, 0x004d4249); /* "IBM\0" in memory */
	memset(&cap, 0xAA, sizeof(cap));
	cap.Size = EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE;
	ASSERT_STATUS(tcg2->GetCapability(tcg2, &cap), EFI_SUCCESS);
	EXPECT_EQ(cap.Size, 28);
	EXPECT(cap.ProtocolVersion.Major == 1 && cap.ProtocolVersion.Minor == 0);
	EXPECT_EQ(cap.NumberOfPCRBanks, 0xAAAAAAAA);
	cap.Size = 27;
	EXPECT_STATUS(tcg2->GetCapability(tcg2, &cap), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(cap.Size, 36);
}

static const EFI_TCG2_FINAL_EVENTS_TABLE *final_table(void)
{
	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++)
		if (guid_eq(&core_st->ConfigurationTable[i].VendorGuid,
			    &efi_tcg2_final_events_table_guid))
			return core_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

struct test_event {
	UINT32 Size;
	EFI_TCG2_EVENT_HEADER Header;
	char text[8];
} __attribute__((packed));

static EFI_STATUS extend(UINT64 flags, const void *data, UINT64 size, struct test_event *ev)
{
	return tcg2->HashLogExtendEvent(tcg2, flags, (EFI_PHYSICAL_ADDRESS)(uintptr_t)data, size,
					(EFI_TCG2_EVENT *)ev);
}

static void check_event_header(void)
{
	struct test_event ev = {sizeof(ev), {14, 1, 8, 0xD}, "event"};

	EXPECT_STATUS(extend(0, "x", 1, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(extend(0, NULL, 1, &ev), EFI_INVALID_PARAMETER);
	ev.Header.HeaderSize = 13;
	EXPECT_STATUS(extend(0, "x", 1, &ev), EFI_INVALID_PARAMETER);
	ev.Header.HeaderSize = 14;
	ev.Header.HeaderVersion = 2;
	EXPECT_STATUS(extend(0, "x", 1, &ev), EFI_INVALID_PARAMETER);
	ev.Header.HeaderVersion = 1;
	ev.Header.PCRIndex = 24;
	EXPECT_STATUS(extend(0, "x", 1, &ev), EFI_INVALID_PARAMETER);
	ev.Header.PCRIndex = 8;
	ev.Size = 17;
	EXPECT_STATUS(extend(0, "x", 1, &ev), EFI_INVALID_PARAMETER);
	ev.Size = sizeof(ev);
	EXPECT_STATUS(extend(PE_COFF_IMAGE, "MZ not a PE", 11, &ev), EFI_UNSUPPORTED);
}

/* The SHA-1 log's last record is the event just measured (data of size bytes). */
static void check_legacy_log(const char *data, UINT32 size)
{
	EFI_PHYSICAL_ADDRESS location = 0, last = 0;
	BOOLEAN truncated = TRUE;
	UINT8 sha1[20];
	const UINT8 *rec;
	UINT32 value;

	ASSERT_STATUS(tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2, &location, &last,
					&truncated),
		      EFI_SUCCESS);
	ASSERT(location != 0 && last >= location);
	EXPECT(!truncated);
	EXPECT(location != (uintptr_t)event_log_get()->base);
	rec = (const UINT8 *)(uintptr_t)last;
	hash_buffer(HASH_SHA1, data, size, sha1);
	memcpy(&value, rec, 4);
	EXPECT_EQ(value, 8);
	memcpy(&value, rec + 4, 4);
	EXPECT_EQ(value, 0xD);
	EXPECT(memcmp(rec + 8, sha1, 20) == 0);
	memcpy(&value, rec + 28, 4);
	EXPECT_EQ(value, 8); /* the event's text[8] */
	EXPECT(memcmp(rec + 32, "event", 6) == 0);
}

static void check_log_and_final_table(void)
{
	struct test_event ev = {sizeof(ev), {14, 1, 8, 0xD}, "event"};
	EFI_PHYSICAL_ADDRESS location, last, last2;
	BOOLEAN truncated = TRUE;
	const EFI_TCG2_FINAL_EVENTS_TABLE *table = final_table();

	EXPECT_STATUS(tcg2->GetEventLog(tcg2, 4, &location, &last, &truncated),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, NULL, &last, &truncated),
	    EFI_INVALID_PARAMETER);
	ASSERT(table != NULL);
	/* logged before GetEventLog: not in the final events table */
	ASSERT_STATUS(extend(0, "early", 5, &ev), EFI_SUCCESS);
	check_legacy_log("early", 5);
	ASSERT_STATUS(
	    tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &location, &last, &truncated),
	    EFI_SUCCESS);
	EXPECT_EQ(location, (uintptr_t)event_log_get()->base);
	EXPECT(last > location);
	EXPECT(!truncated);
	EXPECT_EQ(table->NumberOfEvents, 0);
	ASSERT_STATUS(extend(0, "late", 4, &ev), EFI_SUCCESS);
	EXPECT_EQ(table->NumberOfEvents, 1);
	tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &location, &last2, &truncated);
	EXPECT(last2 > last);
	EXPECT(memcmp(table->Event, (const void *)(uintptr_t)last2,
		      event_log_get()->used - (last2 - location)) == 0);
	/* extend-only: the TPM is extended, nothing logged anywhere */
	fake.cmd_size = 0;
	ASSERT_STATUS(extend(EFI_TCG2_EXTEND_ONLY, "only", 4, &ev), EFI_SUCCESS);
	EXPECT(fake.cmd_size > 10 && fake.cmd[9] == 0x82);
	tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &location, &last, &truncated);
	EXPECT_EQ(last, last2);
	EXPECT_EQ(table->NumberOfEvents, 1);
	/* EV_NO_ACTION: logged, not extended */
	ev.Header.EventType = EV_NO_ACTION;
	fake.cmd_size = 0;
	ASSERT_STATUS(extend(0, "none", 4, &ev), EFI_SUCCESS);
	EXPECT_EQ(fake.cmd_size, 0);
	EXPECT_EQ(table->NumberOfEvents, 2);
}

static void check_submit(void)
{
	UINT8 cmd[] = {0x80, 0x01, 0, 0, 0, 11, 0, 0, 0x01, 0x43, 1}, out[64];

	EXPECT_STATUS(tcg2->SubmitCommand(tcg2, sizeof(cmd), NULL, sizeof(out), out),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(tcg2->SubmitCommand(tcg2, sizeof(cmd), cmd, sizeof(out), NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(tcg2->SubmitCommand(tcg2, 9, cmd, sizeof(out), out), EFI_INVALID_PARAMETER);
	fake.cmd_size = 0;
	EXPECT_STATUS(tcg2->SubmitCommand(tcg2, 10, cmd, sizeof(out), out), EFI_INVALID_PARAMETER);
	EXPECT_EQ(fake.cmd_size, 0); /* never sent */
	EXPECT_STATUS(tcg2->SubmitCommand(tcg2, sizeof(cmd), cmd, 4, out), EFI_BUFFER_TOO_SMALL);
	memset(out, 0xEE, sizeof(out));
	ASSERT_STATUS(tcg2->SubmitCommand(tcg2, sizeof(cmd), cmd, sizeof(out), out), EFI_SUCCESS);
	EXPECT(out[0] == 0x80 && out[5] == 10 && out[10] == 0xEE);
	EXPECT(tpm_get() == &tpm);
}

static void check_pcr_banks(void)
{
	UINT32 banks = 0, present = 9, response = 9, request;
	UINTN size = sizeof(request);
	static const EFI_GUID guid = EMBER_TCG2_PCR_BANKS_GUID;

	EXPECT_STATUS(tcg2->GetActivePcrBanks(tcg2, &banks), EFI_SUCCESS);
	EXPECT_EQ(banks, 0xB);
	EXPECT_STATUS(tcg2->SetActivePcrBanks(tcg2, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(tcg2->SetActivePcrBanks(tcg2, TPM_BANK_SM3_256), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(tcg2->GetResultOfSetActivePcrBanks(tcg2, &present, &response), EFI_SUCCESS);
	EXPECT(present == 0 && response == 0);
	EXPECT_STATUS(tcg2->SetActivePcrBanks(tcg2, 0xB), EFI_SUCCESS); /* the same: no request */
	EXPECT_STATUS(variable_get(u"Tcg2PcrBanksRequest", &guid, NULL, &size, &request),
		      EFI_NOT_FOUND);
	ASSERT_STATUS(tcg2->SetActivePcrBanks(tcg2, TPM_BANK_SHA256), EFI_SUCCESS);
	ASSERT_STATUS(variable_get(u"Tcg2PcrBanksRequest", &guid, NULL, &size, &request),
		      EFI_SUCCESS);
	EXPECT_EQ(request, TPM_BANK_SHA256);
	/* the next boot: PCR_Allocate of SHA-256 alone, which this TPM refuses */
	tcg2_pcr_banks_apply(&tpm);
	static const UINT8 allocate[] = {0x80, 0x02, 0,	   0,	 0, 55, 0,
					 0,    0x01, 0x2B, 0x40, 0, 0,	0x0C};
	ASSERT_EQ(fake.cmd_size, 55);
	EXPECT(memcmp(fake.cmd, allocate, sizeof(allocate)) == 0);
	static const UINT8 selection[] = {0, 0,	   0, 4,    0,	  0x04, 3, 0,	 0, 0,
					  0, 0x0b, 3, 0xff, 0xff, 0xff, 0, 0x0c, 3, 0,
					  0, 0,	   0, 0x0d, 3,	  0,	0, 0};
	EXPECT(memcmp(fake.cmd + 55 - sizeof(selection), selection, sizeof(selection)) == 0);
	EXPECT_STATUS(variable_get(u"Tcg2PcrBanksRequest", &guid, NULL, &size, &request),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(tcg2->GetResultOfSetActivePcrBanks(tcg2, &present, &response), EFI_SUCCESS);
	EXPECT_EQ(present, 1);
	EXPECT_EQ(response, 0xFFFFFFF1);
}

TEST(tcg2_protocol_services)
{
	start();
	check_capability();
	check_event_header();
	check_log_and_final_table();
	check_submit();
	check_pcr_banks();
}
