/* ExitBootServices (UEFI 2.10, 7.4) and what must hold after it: run last, after the
 * summary of everything else has been printed. A call with a stale map key must fail;
 * the retry with a fresh key must succeed, with the EXIT_BOOT_SERVICES events (and the
 * BEFORE_EXIT_BOOT_SERVICES group) notified exactly once in all, in order; afterwards
 * the system table has no boot services or consoles and a valid CRC, and runtime
 * services still work.
 *
 * After the first ExitBootServices call only memory services may be used and no console
 * exists, so results go to a memlog (apps/lib/memlog.h) whose address is printed
 * beforehand (scripts/run-ovmf reads it back from guest memory), and the outcome leaves
 * through ResetSystem(EfiResetShutdown, status, "<summary>").
 *
 * Last comes SetVirtualAddressMap (8.4) with an identity map (every runtime range keeps its
 * address, so the rest still works on any firmware), checked with ConvertPointer from a
 * VIRTUAL_ADDRESS_CHANGE notification. */
#include "conformance.h"
#include "../lib/memlog.h"
#include <ember/lib/crc32.h>

#define LOG_PAGES 4
#define MAP_SLACK 32

struct ebs_probe {
	UINTN count, seq;
	EFI_EVENT event;
	EFI_TPL tpl;
	UINTN during_failed_call;
};

static struct {
	struct ebs_probe by_type, by_group, before, outsider;
	EFI_EVENT events[4];
	EFI_EVENT virtual_change;
	UINTN virtual_notified;
	EFI_STATUS convert[5];
	UINTN seq;
	struct memlog *log;
	EFI_MEMORY_DESCRIPTOR *map;
	UINTN map_cap, map_size, desc_size;
	UINT32 desc_version;
	struct check_totals before_ebs;
	CHAR16 reset_text[64];
} ebs;

/* Only reads and writes memory: notification functions at ExitBootServices must not
 * allocate, and the TPL is read only while the boot services table still exists. */
static void EFIAPI ebs_notify(EFI_EVENT event, void *ctx)
{
	struct ebs_probe *p = ctx;

	p->count++;
	if (!p->seq)
		p->seq = ++ebs.seq;
	p->event = event;
	if (app_st->BootServices)
		p->tpl = current_tpl();
}

/* During SetVirtualAddressMap, in physical mode: ConvertPointer on a runtime pointer (the
 * runtime services table), on NULL with and without EFI_OPTIONAL_PTR, on a NULL address,
 * and on a pointer to loader data, which no runtime range holds. */
static void EFIAPI virtual_change_notify(EFI_EVENT event, void *ctx)
{
	void *runtime = app_rt, *none = NULL, *loader = ebs.log;

	ebs.virtual_notified++;
	ebs.convert[0] = app_rt->ConvertPointer(0, &runtime);
	ebs.convert[1] = runtime == app_rt ? EFI_SUCCESS : EFI_ABORTED; /* identity map */
	ebs.convert[2] = app_rt->ConvertPointer(EFI_OPTIONAL_PTR, &none);
	ebs.convert[3] = app_rt->ConvertPointer(0, &none) == EFI_INVALID_PARAMETER &&
				 app_rt->ConvertPointer(0, NULL) == EFI_INVALID_PARAMETER
			     ? EFI_SUCCESS
			     : EFI_ABORTED;
	ebs.convert[4] = app_rt->ConvertPointer(0, &loader);
}

static bool create_probes(void)
{
	static EFI_GUID exit_group = EFI_EVENT_GROUP_EXIT_BOOT_SERVICES;
	static EFI_GUID before_group = EFI_EVENT_GROUP_BEFORE_EXIT_BOOT_SERVICES;

	return CHECK_STATUS(app_bs->CreateEvent(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_NOTIFY,
						ebs_notify, &ebs.by_type, &ebs.events[0]),
			    EFI_SUCCESS) &&
	       CHECK_STATUS(app_bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, ebs_notify,
						  &ebs.by_group, &exit_group, &ebs.events[1]),
			    EFI_SUCCESS) &&
	       CHECK_STATUS(app_bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, ebs_notify,
						  &ebs.before, &before_group, &ebs.events[2]),
			    EFI_SUCCESS) &&
	       CHECK_STATUS(app_bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, ebs_notify,
						  &ebs.outsider, tguid(G_EBS), &ebs.events[3]),
			    EFI_SUCCESS) &&
	       CHECK_STATUS(app_bs->CreateEvent(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_NOTIFY,
						virtual_change_notify, NULL, &ebs.virtual_change),
			    EFI_SUCCESS);
}

static bool allocate_buffers(void)
{
	EFI_PHYSICAL_ADDRESS log = 0, map = 0;
	UINTN size = 0, key, dsize = 0;
	UINT32 dver;

	app_bs->GetMemoryMap(&size, NULL, &key, &dsize, &dver);
	ebs.map_cap = ALIGN_UP(size + MAP_SLACK * (dsize ? dsize : 48), EFI_PAGE_SIZE);
	if (!CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, LOG_PAGES, &log),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData,
						ebs.map_cap / EFI_PAGE_SIZE, &map),
			  EFI_SUCCESS))
		return false;
	ebs.log = memlog_init((void *)(UINTN)log, LOG_PAGES * EFI_PAGE_SIZE);
	ebs.map = (EFI_MEMORY_DESCRIPTOR *)(UINTN)map;
	return true;
}

bool ebs_prepare(void)
{
	app_print("== 90_exit_boot_services (checked after the summary below)\n");
	if (!create_probes() || !allocate_buffers())
		return false;
	app_print("conformance: post-ExitBootServices log at 0x%llx (%u bytes)\n",
		  (unsigned long long)(UINTN)ebs.log, (unsigned)(LOG_PAGES * EFI_PAGE_SIZE));
	return true;
}

/* Keeps the map: after a successful ExitBootServices it is the final one, which
 * SetVirtualAddressMap is given. */
static EFI_STATUS fresh_key(UINTN *key)
{
	ebs.map_size = ebs.map_cap;
	return app_bs->GetMemoryMap(&ebs.map_size, ebs.map, key, &ebs.desc_size, &ebs.desc_version);
}

/* The first call with a map key made stale by an allocation and a free. */
static void exit_with_stale_key(EFI_BOOT_SERVICES *bs)
{
	EFI_PHYSICAL_ADDRESS page = 0;
	UINTN key = 0;

	CHECK_STATUS(fresh_key(&key), EFI_SUCCESS);
	CHECK_STATUS(bs->AllocatePages(AllocateAnyPages, EfiLoaderData, 1, &page), EFI_SUCCESS);
	CHECK_STATUS(bs->ExitBootServices(app_image, key), EFI_INVALID_PARAMETER);
	ebs.by_type.during_failed_call = ebs.by_type.count;
	ebs.by_group.during_failed_call = ebs.by_group.count;
	ebs.before.during_failed_call = ebs.before.count;
	/* Memory services remain usable after a failed call. */
	if (page)
		CHECK_STATUS(bs->FreePages(page, 1), EFI_SUCCESS);
}

static EFI_STATUS exit_for_real(EFI_BOOT_SERVICES *bs)
{
	EFI_STATUS status = EFI_NOT_STARTED;
	UINTN key = 0;

	/* Something may still change the map between the calls; loaders retry. */
	for (int attempt = 0; attempt < 3 && status != EFI_SUCCESS; attempt++) {
		if (fresh_key(&key) != EFI_SUCCESS)
			continue;
		status = bs->ExitBootServices(app_image, key);
	}
	return status;
}

/* Observed with Debian's OVMF (edk2-stable202211): its DXE core does not signal the
 * group at all. */
#define EDK2_NO_BEFORE "EDK2 (2022.11) never signals EFI_EVENT_GROUP_BEFORE_EXIT_BOOT_SERVICES"

static void check_events(void)
{
	CHECK_EQ(ebs.by_type.count, 1);
	CHECK(ebs.by_type.event == ebs.events[0]);
	CHECK_EQ(ebs.by_group.count, 1);
	CHECK(ebs.by_group.event == ebs.events[1]);
	CHECK_EQ_KNOWN(ebs.before.count, 1, FW_EDK2, EDK2_NO_BEFORE);
	CHECK_EQ(ebs.outsider.count, 0);
	/* BEFORE_EXIT_BOOT_SERVICES handlers run before the EXIT_BOOT_SERVICES ones. */
	CHECK_KNOWN(ebs.before.seq && ebs.before.seq < ebs.by_type.seq, FW_EDK2, EDK2_NO_BEFORE);
	CHECK_KNOWN(ebs.before.seq && ebs.before.seq < ebs.by_group.seq, FW_EDK2, EDK2_NO_BEFORE);
	if (ebs.by_type.tpl)
		CHECK_EQ(ebs.by_type.tpl, TPL_NOTIFY);
	if (ebs.by_group.tpl)
		CHECK_EQ(ebs.by_group.tpl, TPL_CALLBACK);
	app_print("   (notified during the failed call: %u by type, %u by group, %u before)\n",
		  (unsigned)ebs.by_type.during_failed_call,
		  (unsigned)ebs.by_group.during_failed_call,
		  (unsigned)ebs.before.during_failed_call);
}

static void check_system_table(const CHAR16 *vendor)
{
	CHECK(app_st->BootServices == NULL);
	CHECK(app_st->ConIn == NULL && app_st->ConsoleInHandle == NULL);
	CHECK(app_st->ConOut == NULL && app_st->ConsoleOutHandle == NULL);
	CHECK(app_st->StdErr == NULL && app_st->StandardErrorHandle == NULL);
	CHECK(app_st->RuntimeServices == app_rt);
	CHECK(app_st->FirmwareVendor == vendor);
	CHECK_EQ(app_st->Hdr.Signature, EFI_SYSTEM_TABLE_SIGNATURE);

	UINT8 copy[512];
	UINT32 size = app_st->Hdr.HeaderSize;
	if (CHECK(size >= sizeof(EFI_SYSTEM_TABLE) && size <= sizeof(copy))) {
		mem_copy(copy, app_st, size);
		((EFI_TABLE_HEADER *)copy)->CRC32 = 0;
		CHECK_EQ(crc32(copy, size), app_st->Hdr.CRC32);
	}
}

static void check_runtime_services(void)
{
	EFI_TIME t;
	UINT32 hi1 = 0, hi2 = 0;

	mem_set(&t, 0, sizeof(t));
	if (CHECK_STATUS(app_rt->GetTime(&t, NULL), EFI_SUCCESS)) {
		CHECK(t.Year >= 1900 && t.Year <= 9999);
		CHECK(t.Month >= 1 && t.Month <= 12 && t.Day >= 1 && t.Day <= 31);
		CHECK(t.Hour < 24 && t.Minute < 60 && t.Second < 60);
		CHECK(t.Nanosecond < 1000000000);
	}
	CHECK_STATUS(app_rt->GetTime(NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->GetNextHighMonotonicCount(&hi1), EFI_SUCCESS);
	CHECK_STATUS(app_rt->GetNextHighMonotonicCount(&hi2), EFI_SUCCESS);
	CHECK_EQ(hi2, hi1 + 1);
	CHECK_STATUS(app_rt->GetNextHighMonotonicCount(NULL), EFI_INVALID_PARAMETER);

	UINT8 copy[512];
	UINT32 size = app_rt->Hdr.HeaderSize;
	if (CHECK(size >= sizeof(EFI_RUNTIME_SERVICES) && size <= sizeof(copy))) {
		mem_copy(copy, app_rt, size);
		((EFI_TABLE_HEADER *)copy)->CRC32 = 0;
		CHECK_EQ(crc32(copy, size), app_rt->Hdr.CRC32);
	}
}

/* SetVirtualAddressMap with every range at its physical address: the bad descriptor version
 * and size first (refused without a change), then the real call, then a second one. */
static void check_virtual_address_map(void)
{
	EFI_MEMORY_DESCRIPTOR *map = ebs.map;
	UINTN size = ebs.map_size, dsize = ebs.desc_size;

	for (UINTN off = 0; off + dsize <= size; off += dsize) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + off);
		d->VirtualStart = d->PhysicalStart;
	}
	CHECK_STATUS(app_rt->SetVirtualAddressMap(size, dsize, ebs.desc_version + 1, map),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->SetVirtualAddressMap(size, sizeof(EFI_MEMORY_DESCRIPTOR) - 8,
						  ebs.desc_version, map),
		     EFI_INVALID_PARAMETER);
	CHECK_EQ(ebs.virtual_notified, 0);
	if (!CHECK_STATUS(app_rt->SetVirtualAddressMap(size, dsize, ebs.desc_version, map),
			  EFI_SUCCESS))
		return;
	CHECK_EQ(ebs.virtual_notified, 1);
	CHECK_STATUS(ebs.convert[0], EFI_SUCCESS);
	CHECK_STATUS(ebs.convert[1], EFI_SUCCESS);
	CHECK_STATUS(ebs.convert[2], EFI_SUCCESS);
	CHECK_STATUS(ebs.convert[3], EFI_SUCCESS);
	CHECK_STATUS(ebs.convert[4], EFI_NOT_FOUND);
	/* Once in virtual mode, never again. */
	CHECK_STATUS(app_rt->SetVirtualAddressMap(size, dsize, ebs.desc_version, map),
		     EFI_UNSUPPORTED);
	CHECK_EQ(ebs.virtual_notified, 1);
	check_runtime_services();
}

__attribute__((noreturn)) void ebs_run_and_shutdown(void)
{
	EFI_BOOT_SERVICES *bs = app_bs;
	const CHAR16 *vendor = app_st->FirmwareVendor;
	char summary[64];

	ebs.before_ebs = check_totals;
	/* From the first ExitBootServices call on, nothing may touch the console. */
	app_set_output(memlog_write, ebs.log);
	exit_with_stale_key(bs);
	bool exited = CHECK_STATUS(exit_for_real(bs), EFI_SUCCESS);
	app_forget_boot_services();
	if (exited) {
		check_events();
		check_system_table(vendor);
		check_runtime_services();
		check_virtual_address_map();
	}
	UINT32 passed = check_totals.passed - ebs.before_ebs.passed;
	UINT32 failed = check_totals.failed - ebs.before_ebs.failed;
	UINT32 known = check_totals.known - ebs.before_ebs.known;
	if (known)
		app_print("after-exit-boot-services: %u known divergence(s) of this firmware "
			  "(KNOWN lines above)\n",
			  (unsigned)known);
	app_print("after-exit-boot-services: %u passed, %u failed\n", (unsigned)passed,
		  (unsigned)failed);
	format_sn(summary, sizeof(summary), "conformance: %u passed, %u failed",
		  (unsigned)check_totals.passed, (unsigned)check_totals.failed);
	utf8_to_ucs2(ebs.reset_text, ARRAY_SIZE(ebs.reset_text), summary, str8_len(summary));
	app_rt->ResetSystem(EfiResetShutdown, check_totals.failed ? EFI_ABORTED : EFI_SUCCESS,
			    str16_size(ebs.reset_text), ebs.reset_text);
	app_halt();
}
