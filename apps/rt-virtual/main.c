/* rt-virtual: the runtime services in virtual mode with nothing left at their physical
 * addresses, as an OS that keeps no 1:1 alias sees them (Linux keeps one, so it would not
 * notice a pointer SetVirtualAddressMap missed). After ExitBootServices it gives
 * SetVirtualAddressMap every runtime range moved up by VIRTUAL_OFFSET, switches to page
 * tables of its own where those ranges exist only there, and uses the services through
 * the converted table: variables, time, the wake-up alarm, the monotonic count, and
 * ResetSystem to end. With the keys on a disk (auth.c) it also makes authenticated writes
 * in virtual mode.
 * x86-64 only; it writes to COM1 itself once the consoles are gone. */
#include "rt_virtual.h"
#include <ember/lib/str.h>
#include <ember/lib/time.h>

#define VIRTUAL_OFFSET (1ULL << 44) /* 16 TiB: canonical, far from RAM */
#define TABLE_PAGES 128
#define MAX_RUNTIME 64
#define IDENTITY_LIMIT (4ULL << 30)
#define CHUNK (2ULL << 20)
#define PTE_PRESENT 0x1ULL
#define PTE_WRITE 0x2ULL
#define PTE_LARGE 0x80ULL
#define PTE_ADDRESS 0x000ffffffffff000ULL
#define COM1 0x3f8

static UINT64 *tables;
static UINTN tables_used;
static UINT8 map[64 * 1024];
static UINTN map_size, descriptor_size;
static UINT32 descriptor_version;
static EFI_MEMORY_DESCRIPTOR *runtime[MAX_RUNTIME];
static UINTN runtime_count;
static unsigned checks, failures;

static void outb(UINT16 port, UINT8 v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static UINT8 inb(UINT16 port)
{
	UINT8 v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void serial_out(void *ctx, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			serial_out(ctx, "\r", 1);
		while (!(inb(COM1 + 5) & 0x20))
			;
		outb(COM1, (UINT8)text[i]);
	}
}

static void check(bool ok, const char *what)
{
	checks++;
	if (!ok) {
		failures++;
		app_print("rt-virtual: FAILED: %s\n", what);
	}
}

void rtv_check(bool ok, const char *what)
{
	check(ok, what);
}

/* The wake-up alarm (the RTC's on Ember's QEMU platform): set an hour ahead, read back,
 * disabled again. */
static void check_wakeup(EFI_RUNTIME_SERVICES *rt, const EFI_TIME *now)
{
	EFI_TIME alarm, got = {0};
	BOOLEAN enabled = FALSE, pending = TRUE;

	efi_time_from_unix(efi_time_to_unix(now) + 3600, &alarm);
	check(rt->SetWakeupTime(TRUE, &alarm) == EFI_SUCCESS, "SetWakeupTime(TRUE)");
	check(rt->GetWakeupTime(&enabled, &pending, &got) == EFI_SUCCESS && enabled && !pending &&
		  got.Year == alarm.Year && got.Month == alarm.Month && got.Day == alarm.Day &&
		  got.Hour == alarm.Hour && got.Minute == alarm.Minute &&
		  got.Second == alarm.Second,
	      "GetWakeupTime reads the alarm back");
	check(rt->SetWakeupTime(FALSE, NULL) == EFI_SUCCESS, "SetWakeupTime(FALSE)");
	check(rt->GetWakeupTime(&enabled, &pending, &got) == EFI_SUCCESS && !enabled,
	      "GetWakeupTime after disabling");
}

/* ---- Page tables: identity for all but the runtime ranges, which move up ---- */

static UINT64 *new_table(void)
{
	UINT64 *t;

	if (tables_used == TABLE_PAGES)
		return NULL;
	t = tables + tables_used++ * 512;
	mem_set(t, 0, EFI_PAGE_SIZE);
	return t;
}

static UINT64 *next_level(UINT64 *table, UINTN index)
{
	if (!table)
		return NULL;
	if (!(table[index] & PTE_PRESENT)) {
		UINT64 *t = new_table();
		if (!t)
			return NULL;
		table[index] = (UINT64)(UINTN)t | PTE_PRESENT | PTE_WRITE;
	}
	return (UINT64 *)(UINTN)(table[index] & PTE_ADDRESS);
}

static bool map_page(UINT64 *pml4, UINT64 va, UINT64 pa)
{
	UINT64 *pt = next_level(next_level(next_level(pml4, (va >> 39) & 511), (va >> 30) & 511),
				(va >> 21) & 511);

	if (!pt)
		return false;
	pt[(va >> 12) & 511] = pa | PTE_PRESENT | PTE_WRITE;
	return true;
}

static bool is_runtime(UINT64 start, UINT64 end)
{
	for (UINTN i = 0; i < runtime_count; i++) {
		UINT64 s = runtime[i]->PhysicalStart;
		UINT64 e = s + runtime[i]->NumberOfPages * EFI_PAGE_SIZE;
		if (start < e && s < end)
			return true;
	}
	return false;
}

static UINT64 *build_tables(void)
{
	UINT64 *pml4 = new_table();

	for (UINT64 chunk = 0; chunk < IDENTITY_LIMIT && pml4; chunk += CHUNK) {
		if (!is_runtime(chunk, chunk + CHUNK)) {
			UINT64 *pd = next_level(next_level(pml4, 0), chunk >> 30);
			if (!pd)
				return NULL;
			pd[(chunk >> 21) & 511] = chunk | PTE_PRESENT | PTE_WRITE | PTE_LARGE;
			continue;
		}
		for (UINT64 page = chunk; page < chunk + CHUNK; page += EFI_PAGE_SIZE)
			if (!is_runtime(page, page + EFI_PAGE_SIZE) && !map_page(pml4, page, page))
				return NULL;
	}
	for (UINTN i = 0; i < runtime_count && pml4; i++)
		for (UINT64 p = 0; p < runtime[i]->NumberOfPages; p++) {
			UINT64 pa = runtime[i]->PhysicalStart + p * EFI_PAGE_SIZE;
			if (!map_page(pml4, pa + VIRTUAL_OFFSET, pa))
				return NULL;
		}
	return pml4;
}

/* ---- The steps ---- */

static EFI_STATUS exit_boot_services(void)
{
	EFI_STATUS status = EFI_NOT_STARTED;
	UINTN key;

	for (int attempt = 0; attempt < 3 && status != EFI_SUCCESS; attempt++) {
		map_size = sizeof(map);
		if (app_bs->GetMemoryMap(&map_size, (EFI_MEMORY_DESCRIPTOR *)map, &key,
					 &descriptor_size, &descriptor_version) != EFI_SUCCESS)
			continue;
		status = app_bs->ExitBootServices(app_image, key);
	}
	return status;
}

/* The runtime descriptors, moved together at the front of the map (as Linux passes them). */
static void collect_runtime(void)
{
	UINT8 *out = map;

	for (UINTN off = 0; off + descriptor_size <= map_size; off += descriptor_size) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(map + off);
		if (!(d->Attribute & EFI_MEMORY_RUNTIME) || runtime_count == MAX_RUNTIME)
			continue;
		d->VirtualStart = d->PhysicalStart + VIRTUAL_OFFSET;
		for (UINTN i = 0; i < descriptor_size; i++) /* out <= d: a forward copy is safe */
			out[i] = ((UINT8 *)d)[i];
		runtime[runtime_count++] = (EFI_MEMORY_DESCRIPTOR *)out;
		out += descriptor_size;
	}
}

static bool moved(const void *p)
{
	return (UINT64)(UINTN)p >= VIRTUAL_OFFSET;
}

static void use_services(EFI_RUNTIME_SERVICES *rt)
{
	static EFI_GUID global = EFI_GLOBAL_VARIABLE;
	static EFI_GUID guid = {
	    0x5a1e7c0d, 0x7f2b, 0x4c41, {0x9d, 0x3e, 0x61, 0x0a, 0x8b, 0x2c, 0x4f, 0x15}};
	const UINT32 nbr = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
			   EFI_VARIABLE_RUNTIME_ACCESS;
	char value[32];
	UINTN size = sizeof(value), names = 0;
	CHAR16 name[128] = {0};
	EFI_GUID g;
	EFI_TIME time;
	UINT64 max, remaining, largest;
	UINT32 high = 0;

	check(rt->GetVariable(u"PlatformLangCodes", &global, NULL, &size, value) == EFI_SUCCESS &&
		  size == 6 && !mem_cmp(value, "en-US", 6),
	      "GetVariable(PlatformLangCodes)");
	check(rt->SetVariable(u"RtVirtual", &guid, nbr, 7, "virtual") == EFI_SUCCESS,
	      "SetVariable(RtVirtual)");
	size = sizeof(value);
	check(rt->GetVariable(u"RtVirtual", &guid, NULL, &size, value) == EFI_SUCCESS &&
		  size == 7 && !mem_cmp(value, "virtual", 7),
	      "GetVariable(RtVirtual)");
	for (;;) {
		UINTN name_size = sizeof(name);
		if (rt->GetNextVariableName(&name_size, name, &g) != EFI_SUCCESS)
			break;
		names++;
	}
	check(names >= 5, "GetNextVariableName lists the variables");
	check(rt->QueryVariableInfo(nbr, &max, &remaining, &largest) == EFI_SUCCESS &&
		  remaining < max,
	      "QueryVariableInfo");
	check(rt->GetTime(&time, NULL) == EFI_SUCCESS && time.Year >= 2000, "GetTime");
	check(rt->SetTime(&time) == EFI_SUCCESS, "SetTime");
	check_wakeup(rt, &time);
	check(rt->GetNextHighMonotonicCount(&high) == EFI_SUCCESS && high > 0,
	      "GetNextHighMonotonicCount");
	app_print("rt-virtual: %u variables, time %04u-%02u-%02u %02u:%02u\n", (unsigned)names,
		  time.Year, time.Month, time.Day, time.Hour, time.Minute);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_PHYSICAL_ADDRESS pages;
	EFI_RUNTIME_SERVICES *rt, *physical;
	UINT64 *pml4;
	EFI_STATUS status;
	bool keys;

	app_init(image, st);
	if (app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, TABLE_PAGES, &pages)) {
		app_print("rt-virtual: no memory for page tables\n");
		return EFI_OUT_OF_RESOURCES;
	}
	tables = (UINT64 *)(UINTN)pages;
	keys = rtv_auth_prepare();
	app_print("rt-virtual: %s\n", keys ? "keys enrolled" : "no keys: no authenticated writes");
	app_print("rt-virtual: exiting boot services\n");
	status = exit_boot_services();
	app_forget_boot_services();
	app_set_output(serial_out, NULL);
	if (status != EFI_SUCCESS) {
		app_print("rt-virtual: ExitBootServices: %r\n", status);
		return status;
	}
	__asm__ __volatile__("cli");
	collect_runtime();
	status = app_rt->SetVirtualAddressMap(runtime_count * descriptor_size, descriptor_size,
					      descriptor_version, (EFI_MEMORY_DESCRIPTOR *)map);
	check(status == EFI_SUCCESS, "SetVirtualAddressMap");
	/* Read while the physical addresses still work: the table has moved. */
	rt = st->RuntimeServices;
	check(moved(rt), "the system table's RuntimeServices was converted");
	/* Its entry points, read at its physical address (the new one is not mapped yet). */
	physical = (EFI_RUNTIME_SERVICES *)((UINT8 *)rt - VIRTUAL_OFFSET);
	for (void **entry = (void **)&physical->GetTime;
	     moved(rt) && entry <= (void **)&physical->QueryVariableInfo; entry++)
		if (!moved(*entry)) {
			app_print("rt-virtual: entry %u of the table is at %p\n",
				  (unsigned)(entry - (void **)&physical->GetTime), *entry);
			check(false, "an entry point of the runtime services table was converted");
		}
	pml4 = build_tables();
	if (!pml4 || status != EFI_SUCCESS || !moved(rt)) {
		app_print("rt-virtual: cannot go on (%u runtime ranges, %u table pages)\n",
			  (unsigned)runtime_count, (unsigned)tables_used);
		for (;;)
			__asm__ __volatile__("hlt");
	}
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(pml4) : "memory");
	app_print("rt-virtual: %u runtime ranges now only at +0x%llx\n", (unsigned)runtime_count,
		  (unsigned long long)VIRTUAL_OFFSET);
	use_services(rt);
	if (keys)
		rtv_auth_check(rt);
	app_print("rt-virtual: %u passed, %u failed\n", checks - failures, failures);
	rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	app_print("rt-virtual: ResetSystem returned\n");
	for (;;)
		__asm__ __volatile__("hlt");
}
