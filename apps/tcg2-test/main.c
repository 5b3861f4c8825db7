/* tcg2-test: EFI_TCG2_PROTOCOL (TCG EFI Protocol Specification, family 2.0) on the firmware
 * it runs on. GetCapability with its size rules, the argument checks of every service,
 * GetEventLog's crypto-agile log (the Spec ID event first, every record parsed),
 * HashLogExtendEvent of data, of a PE/COFF image (its own) and extend-only, the final events
 * table holding the events logged after the first GetEventLog, and the replay: every PCR
 * 0-23 of every active bank, read with TPM2_PCR_Read through SubmitCommand, must equal what
 * the log's events lead to (so this also checks every measurement the firmware made).
 * With the argument "set-banks" it first asks SetActivePcrBanks for SHA-256 alone and resets;
 * once the firmware has reallocated the banks (through a reset of its own), it checks the
 * result and the banks, then runs the checks above on the new bank.
 * It calls ExitBootServices once with a stale map key, refused (PCR 5 then holds "Exit Boot
 * Services Invocation" and "... Returned with Failure", which the host test looks for).
 * With Secure Boot on, it first loads its own file again (verified by the same db entry,
 * which PCR 7 must then hold once, not twice) and at the end prints the whole log as hex
 * lines ("tcg2-log: ..."), for the host to read PCR 7's events
 * (tests/qemu/test_measured_boot.py); the argument "print-log" prints it too (PCR 1's).
 * Ends with a summary line and powers the machine off, as scripts/run-ovmf expects. */
#include <ember/lib/guids.h>
#include "../lib/devpath.h"
#include "tcg2_test.h"

#define EV_IPL 0x0000000D
#define EV_NO_ACTION_TYPE 0x00000003
#define DATA_PCR 8
#define IMAGE_PCR 9
#define DEBUG_PCR 16 /* resettable from locality 0: the extend-only check leaves no trace */

/* An EFI_TCG2_EVENT with 16 bytes of event data. */
struct test_event {
	UINT32 Size;
	EFI_TCG2_EVENT_HEADER Header;
	char text[16];
} __attribute__((packed));

EFI_TCG2_PROTOCOL *tcg2;
static EFI_GUID tcg2_guid = EFI_TCG2_PROTOCOL_GUID;
static EFI_TCG2_BOOT_SERVICE_CAPABILITY cap;

/* The log as one GetEventLog call shows it: records up to and including its last entry. */
struct log_view {
	struct tlog_reader reader; /* positioned after the Spec ID event */
	const UINT8 *base;
	size_t end; /* offset after the last entry */
	UINT32 records;
};

static UINT32 popcount(UINT32 v)
{
	UINT32 n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static void check_capability(void)
{
	EFI_TCG2_BOOT_SERVICE_CAPABILITY small;
	UINT32 vendor = 0;

	CHECK_STATUS(tcg2->GetCapability(tcg2, NULL), EFI_INVALID_PARAMETER);
	mem_set(&cap, 0, sizeof(cap));
	cap.Size = sizeof(cap);
	CHECK_STATUS(tcg2->GetCapability(tcg2, &cap), EFI_SUCCESS);
	CHECK_EQ(cap.Size, sizeof(cap));
	CHECK(cap.StructureVersion.Major == 1 && cap.StructureVersion.Minor == 1);
	CHECK(cap.ProtocolVersion.Major == 1 && cap.ProtocolVersion.Minor == 1);
	CHECK_EQ(cap.TPMPresentFlag, 1);
	CHECK(cap.SupportedEventLogs & EFI_TCG2_EVENT_LOG_FORMAT_TCG_2);
	CHECK(cap.ActivePcrBanks != 0);
	CHECK_EQ(cap.ActivePcrBanks & ~cap.HashAlgorithmBitmap, 0);
	CHECK(cap.NumberOfPCRBanks >= popcount(cap.ActivePcrBanks));
	CHECK(cap.MaxCommandSize >= 1024 && cap.MaxResponseSize >= 1024);
	/* ManufacturerID: TPM_PT_MANUFACTURER's four characters in the TPM's order in memory */
	if (CHECK(tpm_property(0x105, &vendor)))
		CHECK_EQ(cap.ManufacturerID, vendor >> 24 | (vendor >> 8 & 0xFF00) |
						 (vendor << 8 & 0xFF0000) | vendor << 24);
	app_print("tcg2-test: banks 0x%x active of 0x%x, manufacturer 0x%x, logs 0x%x\n",
		  cap.ActivePcrBanks, cap.HashAlgorithmBitmap, cap.ManufacturerID,
		  cap.SupportedEventLogs);
	/* A caller of version 1.0 gets the 1.0 structure; a smaller one learns the size. */
	mem_set(&small, 0xAA, sizeof(small));
	small.Size = EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE;
	CHECK_STATUS(tcg2->GetCapability(tcg2, &small), EFI_SUCCESS);
	CHECK_EQ(small.Size, EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE);
	CHECK(small.ProtocolVersion.Major == 1 && small.ProtocolVersion.Minor == 0);
	CHECK_EQ(small.ManufacturerID, cap.ManufacturerID);
	CHECK_EQ(small.NumberOfPCRBanks, 0xAAAAAAAA); /* past the 1.0 structure: untouched */
	small.Size = 10;
	CHECK_STATUS(tcg2->GetCapability(tcg2, &small), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(small.Size, sizeof(cap));
}

static void check_banks(void)
{
	UINT32 banks = 0, present = 9, response = 9;

	CHECK_STATUS(tcg2->GetActivePcrBanks(tcg2, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->GetActivePcrBanks(tcg2, &banks), EFI_SUCCESS);
	CHECK_EQ(banks, cap.ActivePcrBanks);
	CHECK_STATUS(tcg2->SetActivePcrBanks(tcg2, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->SetActivePcrBanks(tcg2, 0x80000000u), EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->GetResultOfSetActivePcrBanks(tcg2, NULL, &response),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->GetResultOfSetActivePcrBanks(tcg2, &present, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->GetResultOfSetActivePcrBanks(tcg2, &present, &response), EFI_SUCCESS);
	app_print("tcg2-test: last SetActivePcrBanks: present %u, response 0x%x\n", present,
		  response);
}

static void check_bad_arguments(void)
{
	EFI_PHYSICAL_ADDRESS location, last;
	BOOLEAN truncated;
	UINT8 buf[64] = {0x80, 0x01, 0, 0, 0, 11, 0, 0, 0x01, 0x43, 1}, out[64];
	struct test_event ev = {sizeof(ev), {sizeof(EFI_TCG2_EVENT_HEADER), 1, 8, EV_IPL}, "bad"};
	EFI_PHYSICAL_ADDRESS data = (EFI_PHYSICAL_ADDRESS)(UINTN)buf;

	CHECK_STATUS(tcg2->GetEventLog(tcg2, 0x10, &location, &last, &truncated),
		     EFI_INVALID_PARAMETER);
	if (!(cap.SupportedEventLogs & EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2))
		CHECK_STATUS(tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2, &location,
					       &last, &truncated),
			     EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->HashLogExtendEvent(tcg2, 0, data, 4, NULL), EFI_INVALID_PARAMETER);
	/* The header's size and version are the specification's (6.6.5): EDK2 logs such an
	 * event anyway (harmless to the replay, which follows the log). */
	ev.Header.HeaderSize = 13;
	CHECK_STATUS_KNOWN(tcg2->HashLogExtendEvent(tcg2, 0, data, 4, (EFI_TCG2_EVENT *)&ev),
			   EFI_INVALID_PARAMETER, FW_EDK2, "HeaderSize is not checked");
	ev.Header.HeaderSize = sizeof(EFI_TCG2_EVENT_HEADER);
	ev.Header.HeaderVersion = 2;
	CHECK_STATUS_KNOWN(tcg2->HashLogExtendEvent(tcg2, 0, data, 4, (EFI_TCG2_EVENT *)&ev),
			   EFI_INVALID_PARAMETER, FW_EDK2, "HeaderVersion is not checked");
	ev.Header.HeaderVersion = 1;
	ev.Header.PCRIndex = 24;
	CHECK_STATUS(tcg2->HashLogExtendEvent(tcg2, 0, data, 4, (EFI_TCG2_EVENT *)&ev),
		     EFI_INVALID_PARAMETER);
	ev.Header.PCRIndex = 8;
	ev.Size = sizeof(EFI_TCG2_EVENT) - 1;
	CHECK_STATUS(tcg2->HashLogExtendEvent(tcg2, 0, data, 4, (EFI_TCG2_EVENT *)&ev),
		     EFI_INVALID_PARAMETER);
	ev.Size = sizeof(ev);
	/* not a PE/COFF image */
	CHECK_STATUS(
	    tcg2->HashLogExtendEvent(tcg2, PE_COFF_IMAGE, data, sizeof(buf), (EFI_TCG2_EVENT *)&ev),
	    EFI_UNSUPPORTED);
	CHECK_STATUS(tcg2->SubmitCommand(tcg2, 11, NULL, sizeof(out), out), EFI_INVALID_PARAMETER);
	CHECK_STATUS(tcg2->SubmitCommand(tcg2, 11, buf, sizeof(out), NULL), EFI_INVALID_PARAMETER);
	/* TPM2_SelfTest answers with a 10-byte header: a 4-byte buffer is too small */
	CHECK_STATUS(tcg2->SubmitCommand(tcg2, 11, buf, 4, out), EFI_BUFFER_TOO_SMALL);
}

/* GetEventLog, then every record up to the last entry parsed. */
static bool log_view_get(struct log_view *v)
{
	EFI_PHYSICAL_ADDRESS location = 0, last = 0;
	BOOLEAN truncated = TRUE;
	struct tlog_event e;
	size_t last_offset;
	int got;

	mem_set(v, 0, sizeof(*v));
	if (!CHECK_STATUS(tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &location, &last,
					    &truncated),
			  EFI_SUCCESS) ||
	    !CHECK(location != 0 && last >= location))
		return false;
	CHECK(!truncated);
	v->base = (const UINT8 *)(UINTN)location;
	last_offset = (size_t)(last - location);
	/* The log's length is known only through its last entry: bound the walk past it. */
	if (!CHECK(tlog_begin(&v->reader, v->base, last_offset + 0x100000)))
		return false;
	v->end = v->reader.at;
	if (last_offset == 0)
		return true; /* the Spec ID event alone */
	while ((got = tlog_next(&v->reader, &e)) == 1 && e.offset < last_offset)
		v->records++;
	if (!CHECK(got == 1 && e.offset == last_offset)) {
		app_print("tcg2-test: record %u at 0x%lx malformed or past the last entry 0x%lx\n",
			  v->records, (unsigned long)e.offset, (unsigned long)last_offset);
		return false;
	}
	v->records++;
	v->end = e.offset + e.length;
	return true;
}

static void event_init(EFI_TCG2_EVENT *e, UINT32 size, UINT32 pcr)
{
	e->Size = size;
	e->Header.HeaderSize = sizeof(EFI_TCG2_EVENT_HEADER);
	e->Header.HeaderVersion = EFI_TCG2_EVENT_HEADER_VERSION;
	e->Header.PCRIndex = pcr;
	e->Header.EventType = EV_IPL;
}

static const char data_text[] = "tcg2-test: data measured by HashLogExtendEvent";

static void check_data_event(void)
{
	struct test_event ev;

	event_init((EFI_TCG2_EVENT *)&ev, sizeof(ev), DATA_PCR);
	mem_copy(ev.text, "tcg2-test data", 15);
	CHECK_STATUS(tcg2->HashLogExtendEvent(tcg2, 0, (EFI_PHYSICAL_ADDRESS)(UINTN)data_text,
					      sizeof(data_text), (EFI_TCG2_EVENT *)&ev),
		     EFI_SUCCESS);
}

static void check_image_event(void)
{
	static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image = NULL;
	struct test_event ev;

	if (!CHECK_STATUS(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image),
			  EFI_SUCCESS))
		return;
	event_init((EFI_TCG2_EVENT *)&ev, sizeof(ev), IMAGE_PCR);
	mem_copy(ev.text, "tcg2-test image", 16);
	CHECK_STATUS(tcg2->HashLogExtendEvent(tcg2, PE_COFF_IMAGE,
					      (EFI_PHYSICAL_ADDRESS)(UINTN)image->ImageBase,
					      image->ImageSize, (EFI_TCG2_EVENT *)&ev),
		     EFI_SUCCESS);
}

/* EFI_TCG2_EXTEND_ONLY: PCR 16 becomes H(old || H(data)) in every bank, nothing is logged;
 * PCR_Reset then puts PCR 16 back to zeros, which the replay expects. */
static void check_extend_only(void)
{
	static UINT8 before[TLOG_BANKS][TLOG_PCRS][TLOG_DIGEST_MAX];
	static UINT8 after[TLOG_PCRS][TLOG_DIGEST_MAX];
	EFI_PHYSICAL_ADDRESS location, last1 = 0, last2 = 1;
	BOOLEAN truncated;
	struct test_event ev;

	event_init((EFI_TCG2_EVENT *)&ev, sizeof(ev), DEBUG_PCR);
	mem_copy(ev.text, "tcg2-test debug", 16);
	for (int b = 0; b < TLOG_BANKS; b++)
		if (cap.ActivePcrBanks & (1u << b))
			CHECK(tpm_read_pcrs(tlog_bank_alg(b), before[b]));
	tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &location, &last1, &truncated);
	CHECK_STATUS(tcg2->HashLogExtendEvent(tcg2, EFI_TCG2_EXTEND_ONLY,
					      (EFI_PHYSICAL_ADDRESS)(UINTN)data_text,
					      sizeof(data_text), (EFI_TCG2_EVENT *)&ev),
		     EFI_SUCCESS);
	tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &location, &last2, &truncated);
	CHECK_EQ(last2, last1);
	for (int b = 0; b < TLOG_BANKS; b++) {
		UINT16 alg = tlog_bank_alg(b);
		UINT32 size = tlog_alg_size(alg);
		UINT8 both[2 * TLOG_DIGEST_MAX], want[TLOG_DIGEST_MAX];

		if (!(cap.ActivePcrBanks & (1u << b)))
			continue;
		mem_copy(both, before[b][DEBUG_PCR], size);
		if (!CHECK(tpm_hash(NULL, alg, data_text, sizeof(data_text), both + size)) ||
		    !CHECK(tpm_hash(NULL, alg, both, 2 * size, want)) ||
		    !CHECK(tpm_read_pcrs(alg, after)))
			continue;
		CHECK(mem_cmp(after[DEBUG_PCR], want, size) == 0);
	}
	CHECK(tpm_reset_pcr(DEBUG_PCR));
}

/* The data event's digests: what the TPM itself computes of the data. */
static void check_data_digests(const struct log_view *v, const struct tlog_event *e)
{
	for (int b = 0; b < TLOG_BANKS; b++) {
		UINT16 alg = tlog_bank_alg(b);
		UINT32 size = 0;
		const UINT8 *digest = tlog_event_digest(&v->reader, e, alg, &size);
		UINT8 want[TLOG_DIGEST_MAX];

		if (!(cap.ActivePcrBanks & (1u << b)))
			continue;
		if (CHECK(digest != NULL) &&
		    CHECK(tpm_hash(NULL, alg, data_text, sizeof(data_text), want)))
			CHECK(mem_cmp(digest, want, size) == 0);
	}
}

/* The records after the first view's end are this application's two events. */
static void check_new_records(const struct log_view *first, const struct log_view *second)
{
	struct tlog_reader r = second->reader;
	struct tlog_event e;
	UINT32 n = 0;

	r.at = first->end;
	while (tlog_next(&r, &e) == 1 && e.offset < second->end) {
		if (n == 0 && CHECK_EQ(e.pcr, DATA_PCR) && CHECK_EQ(e.type, EV_IPL) &&
		    CHECK_EQ(e.data_size, 16))
			check_data_digests(second, &e);
		if (n == 1)
			CHECK(e.pcr == IMAGE_PCR && e.data_size == 16);
		n++;
	}
	CHECK_EQ(n, 2);
}

static const EFI_TCG2_FINAL_EVENTS_TABLE *final_table(void)
{
	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++)
		if (guid_eq(&app_st->ConfigurationTable[i].VendorGuid,
			    &efi_tcg2_final_events_table_guid))
			return app_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

/* The final events table ends with the records logged after the first GetEventLog: the
 * same bytes as the log's records between the two views. */
static void check_final_events(const struct log_view *first, const struct log_view *second)
{
	const EFI_TCG2_FINAL_EVENTS_TABLE *table = final_table();
	size_t tail = second->end - first->end, start = 0;
	struct tlog_reader r;
	struct tlog_event e;

	if (!CHECK(table != NULL))
		return;
	CHECK_EQ(table->Version, EFI_TCG2_FINAL_EVENTS_TABLE_VERSION);
	CHECK(table->NumberOfEvents >= second->records - first->records);
	tlog_begin_records(&r, &second->reader, table->Event, 0x100000);
	for (UINT64 i = 0; i < table->NumberOfEvents; i++)
		if (!CHECK_EQ(tlog_next(&r, &e), 1))
			return;
	if (!CHECK(r.at >= tail))
		return;
	start = r.at - tail;
	CHECK(mem_cmp(table->Event + start, first->base + first->end, tail) == 0);
	app_print("tcg2-test: final events table: %u events\n", (UINT32)table->NumberOfEvents);
}

/* Every PCR of every active bank equals the replay of the whole log. */
static void check_replay(const struct log_view *v)
{
	static struct tlog_replay rp;
	static UINT8 pcrs[TLOG_PCRS][TLOG_DIGEST_MAX];
	struct tlog_reader r = v->reader;
	struct tlog_event e;

	tlog_replay_init(&rp, &r);
	r.at = tlog_begin(&r, v->base, v->end) ? r.at : v->end;
	while (tlog_next(&r, &e) == 1)
		if (!CHECK(tlog_replay_event(&rp, &r, &e, tpm_hash, NULL)))
			return;
	app_print("tcg2-test: replayed %u events\n", rp.events);
	for (int b = 0; b < TLOG_BANKS; b++) {
		UINT16 alg = tlog_bank_alg(b);
		UINT32 size = tlog_alg_size(alg);

		if (!(cap.ActivePcrBanks & (1u << b)))
			continue;
		if (!CHECK(rp.banks & (1u << b)) || !CHECK(tpm_read_pcrs(alg, pcrs)))
			continue;
		for (int pcr = 0; pcr < TLOG_PCRS; pcr++)
			if (mem_cmp(pcrs[pcr], rp.pcr[b][pcr], size) != 0)
				CHECK_FAIL("PCR %d of bank 0x%x differs from the log's replay", pcr,
					   alg);
			else
				CHECK(true);
	}
}

/* The SHA-1 log (TCG_PCClientPCREvent records), when the firmware offers it, replays to the
 * SHA-1 PCRs as the crypto-agile log does. */
static void check_legacy_replay(void)
{
	static UINT8 pcrs[TLOG_PCRS][TLOG_DIGEST_MAX], replay[TLOG_PCRS][20];
	EFI_PHYSICAL_ADDRESS location = 0, last = 0, at;
	BOOLEAN truncated = TRUE;
	UINT32 records = 0;

	if (!(cap.SupportedEventLogs & EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2) ||
	    !(cap.ActivePcrBanks & EFI_TCG2_BOOT_HASH_ALG_SHA1))
		return;
	if (!CHECK_STATUS(tcg2->GetEventLog(tcg2, EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2, &location,
					    &last, &truncated),
			  EFI_SUCCESS) ||
	    !CHECK(location != 0 && last >= location))
		return;
	CHECK(!truncated);
	mem_set(replay, 0, sizeof(replay));
	/* PCRs 17-22 (DRTM) start at all ones after TPM2_Startup, as tlog_replay has them */
	mem_set(replay[17], 0xFF, 6 * sizeof(replay[0]));
	for (at = location; at <= last; records++) {
		const UINT8 *rec = (const UINT8 *)(UINTN)at;
		UINT32 pcr, type, size;
		UINT8 both[40];

		mem_copy(&pcr, rec, 4);
		mem_copy(&type, rec + 4, 4);
		mem_copy(&size, rec + 28, 4);
		if (!CHECK(pcr < TLOG_PCRS && size <= 0x100000))
			return;
		if (type != EV_NO_ACTION_TYPE) {
			mem_copy(both, replay[pcr], 20);
			mem_copy(both + 20, rec + 8, 20);
			if (!CHECK(tpm_hash(NULL, 0x0004, both, sizeof(both), replay[pcr])))
				return;
		}
		at += 32 + size;
	}
	if (!CHECK(tpm_read_pcrs(0x0004, pcrs)))
		return;
	for (int pcr = 0; pcr < TLOG_PCRS; pcr++)
		if (mem_cmp(pcrs[pcr], replay[pcr], 20) != 0)
			CHECK_FAIL("SHA-1 log: PCR %d differs from its replay", pcr);
	app_print("tcg2-test: SHA-1 log replayed %u records\n", records);
}

static bool secure_boot_on(void)
{
	UINT8 value = 0;
	UINTN size = sizeof(value);

	return !EFI_ERROR(app_rt->GetVariable(u"SecureBoot", (EFI_GUID *)&efi_global_variable_guid,
					      NULL, &size, &value)) &&
	       size == 1 && value == 1;
}

/* Loads (verified by Secure Boot) and unloads this application's own file once more. */
static void load_self_again(void)
{
	static EFI_GUID loaded_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	static EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image;
	EFI_DEVICE_PATH_PROTOCOL *device, *path;
	EFI_HANDLE handle;

	if (!CHECK_STATUS(app_bs->HandleProtocol(app_image, &loaded_guid, (void **)&image),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(app_bs->HandleProtocol(image->DeviceHandle, &path_guid, (void **)&device),
			  EFI_SUCCESS))
		return;
	path = dp_append(device, image->FilePath);
	if (!CHECK(path != NULL))
		return;
	if (CHECK_STATUS(app_bs->LoadImage(FALSE, app_image, path, NULL, 0, &handle), EFI_SUCCESS))
		CHECK_STATUS(app_bs->UnloadImage(handle), EFI_SUCCESS);
	app_free(path);
	app_print("tcg2-test: loaded itself again\n");
}

/* The log's bytes, 64 a line. */
static void print_log(const struct log_view *v)
{
	static const char digits[] = "0123456789abcdef";
	char line[2 * 64 + 1];

	for (size_t at = 0; at < v->end; at += 64) {
		size_t n = v->end - at < 64 ? v->end - at : 64;

		for (size_t i = 0; i < n; i++) {
			line[2 * i] = digits[v->base[at + i] >> 4];
			line[2 * i + 1] = digits[v->base[at + i] & 15];
		}
		line[2 * n] = 0;
		app_print("tcg2-log: %s\n", line);
	}
}

/* A map key no GetMemoryMap gave: refused, and the firmware goes on as before. */
static void check_exit_boot_services_failure(void)
{
	CHECK_STATUS(app_bs->ExitBootServices(app_image, (UINTN)-2), EFI_INVALID_PARAMETER);
}

/* The first boot asks for SHA-256 alone and resets; the firmware allocates and resets; the
 * third boot finds the result and the bank. */
static void check_set_banks(void)
{
	UINT32 present = 0, response = 1, banks = 0;

	CHECK_STATUS(tcg2->GetResultOfSetActivePcrBanks(tcg2, &present, &response), EFI_SUCCESS);
	CHECK_STATUS(tcg2->GetActivePcrBanks(tcg2, &banks), EFI_SUCCESS);
	if (!present) {
		if (CHECK(banks != EFI_TCG2_BOOT_HASH_ALG_SHA256) &&
		    CHECK_STATUS(tcg2->SetActivePcrBanks(tcg2, EFI_TCG2_BOOT_HASH_ALG_SHA256),
				 EFI_SUCCESS)) {
			app_print("tcg2-test: SHA-256 alone requested, resetting\n");
			app_rt->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
		}
		return;
	}
	CHECK_EQ(response, 0);
	CHECK_EQ(banks, EFI_TCG2_BOOT_HASH_ALG_SHA256);
	app_print("tcg2-test: banks after SetActivePcrBanks: 0x%x\n", banks);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static struct log_view first, second;

	app_init(image, st);
	app_print("tcg2-test on %ls\n", st->FirmwareVendor);
	if (EFI_ERROR(app_bs->LocateProtocol(&tcg2_guid, NULL, (void **)&tcg2))) {
		app_print("tcg2-test: no EFI_TCG2_PROTOCOL\n");
	} else {
		if (app_has_arg("set-banks"))
			check_set_banks();
		if (secure_boot_on())
			load_self_again();
		check_exit_boot_services_failure();
		check_capability();
		check_banks();
		check_bad_arguments();
		if (log_view_get(&first)) {
			app_print("tcg2-test: log of %u events\n", first.records);
			check_data_event();
			check_extend_only();
			check_image_event();
			if (log_view_get(&second)) {
				check_new_records(&first, &second);
				check_final_events(&first, &second);
				check_replay(&second);
				check_legacy_replay();
				if (secure_boot_on() || app_has_arg("print-log"))
					print_log(&second);
			}
		}
	}
	check_print_summary("tcg2-test");
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
