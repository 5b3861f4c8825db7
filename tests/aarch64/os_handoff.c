/* What an OS finds on AArch64 (tests/qemu/test_aarch64.py runs it on Ember and AAVMF): the
 * ACPI 2.0 table (its RSDP and XSDT checked) or the device tree table (its magic), the
 * memory attributes table, and the memory map's runtime ranges: runtime code and data,
 * reserved and ACPI NVS memory must fill whole 64 KiB pages (UEFI 2.10, 2.3.6) so that an
 * OS with 64 KiB pages can map them.
 * One line each, then a power-off. */
#include <efi/system_table.h>
#include <efi/memory_attributes_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#define SIZE_64K 0x10000ULL

static EFI_GUID acpi20_guid = EFI_ACPI_20_TABLE_GUID;
static EFI_GUID dtb_guid = EFI_DTB_TABLE_GUID;
static EFI_GUID mat_guid = EFI_MEMORY_ATTRIBUTES_TABLE_GUID;
static EFI_SYSTEM_TABLE *st;

static void say(const char *text)
{
	CHAR16 line[160];
	UINTN i = 0;

	for (; text[i] && i < 157; i++)
		line[i] = (CHAR16)text[i];
	line[i] = 0;
	st->ConOut->OutputString(st->ConOut, line);
}

/* Appends value in hex at *p. */
static char *hex(char *p, UINT64 value)
{
	int shift = 60;

	while (shift > 0 && !(value >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		*p++ = "0123456789abcdef"[(value >> shift) & 15];
	*p = 0;
	return p;
}

static char *text(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	*p = 0;
	return p;
}

static int same_guid(const EFI_GUID *a, const EFI_GUID *b)
{
	const UINT8 *x = (const UINT8 *)a, *y = (const UINT8 *)b;

	for (int i = 0; i < 16; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

static void *table(EFI_GUID *guid)
{
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++)
		if (same_guid(&st->ConfigurationTable[i].VendorGuid, guid))
			return st->ConfigurationTable[i].VendorTable;
	return 0;
}

static UINT8 sum(const UINT8 *p, UINT32 n)
{
	UINT8 s = 0;

	while (n--)
		s += *p++;
	return s;
}

/* "acpi: rev R xsdt XSDT entries N sums ok|bad", or "acpi: none". */
static void report_acpi(void)
{
	const UINT8 *rsdp = table(&acpi20_guid), *xsdt;
	char line[120], *p = line;
	UINT64 xsdt_address;
	UINT32 length;

	if (!rsdp) {
		say("acpi: none\r\n");
		return;
	}
	__builtin_memcpy(&xsdt_address, rsdp + 24, 8);
	xsdt = (const UINT8 *)(UINTN)xsdt_address;
	__builtin_memcpy(&length, xsdt + 4, 4);
	p = text(p, "acpi: rev ");
	p = hex(p, rsdp[15]);
	p = text(p, " xsdt ");
	for (int i = 0; i < 4; i++)
		*p++ = (char)xsdt[i];
	p = text(p, " entries ");
	p = hex(p, (length - 36) / 8);
	p = text(p, sum(rsdp, 20) || sum(rsdp, 36) || sum(xsdt, length) ? " sums bad" : " sums ok");
	text(p, "\r\n");
	say(line);
}

/* "dtb: magic M type T" (the memory type of its pages), or "dtb: none". */
static void report_dtb(const EFI_MEMORY_DESCRIPTOR *map, UINTN size, UINTN stride)
{
	const UINT8 *fdt = table(&dtb_guid);
	char line[80], *p = line;
	UINT64 at = (UINTN)fdt;

	if (!fdt) {
		say("dtb: none\r\n");
		return;
	}
	p = text(p, "dtb: magic ");
	p = hex(p, (UINT32)fdt[0] << 24 | fdt[1] << 16 | fdt[2] << 8 | fdt[3]);
	for (UINTN o = 0; o < size; o += stride) {
		const EFI_MEMORY_DESCRIPTOR *d = (const void *)((const UINT8 *)map + o);
		if (at >= d->PhysicalStart && at < d->PhysicalStart + d->NumberOfPages * 4096) {
			p = text(p, " type ");
			p = hex(p, d->Type);
		}
	}
	text(p, "\r\n");
	say(line);
}

/* "runtime: N ranges, M not 64 KiB, mmio X" (X: the runtime MMIO ranges' bases). */
static void report_runtime(const EFI_MEMORY_DESCRIPTOR *map, UINTN size, UINTN stride)
{
	char line[160], *p = line;
	UINT64 ranges = 0, unaligned = 0;

	p = text(p, "runtime: mmio");
	for (UINTN o = 0; o < size; o += stride) {
		const EFI_MEMORY_DESCRIPTOR *d = (const void *)((const UINT8 *)map + o);
		if (!(d->Attribute & EFI_MEMORY_RUNTIME))
			continue;
		ranges++;
		if ((d->Type == EfiRuntimeServicesCode || d->Type == EfiRuntimeServicesData ||
		     d->Type == EfiReservedMemoryType || d->Type == EfiACPIMemoryNVS) &&
		    (d->PhysicalStart % SIZE_64K || (d->NumberOfPages * 4096) % SIZE_64K))
			unaligned++;
		if (d->Type == EfiMemoryMappedIO && p < line + 120) {
			p = text(p, " ");
			p = hex(p, d->PhysicalStart);
		}
	}
	p = text(p, "; ranges ");
	p = hex(p, ranges);
	p = text(p, ", not 64 KiB ");
	p = hex(p, unaligned);
	text(p, "\r\n");
	say(line);
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static UINT8 map[64 * 1024];
	EFI_MEMORY_ATTRIBUTES_TABLE *mat;
	UINTN size = sizeof(map), key, stride;
	UINT32 version;
	char line[60];

	st = systab;
	report_acpi();
	if (st->BootServices->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)map, &key, &stride,
					   &version) != EFI_SUCCESS) {
		say("memory map: failed\r\n");
		return EFI_DEVICE_ERROR;
	}
	report_dtb((EFI_MEMORY_DESCRIPTOR *)map, size, stride);
	report_runtime((EFI_MEMORY_DESCRIPTOR *)map, size, stride);
	mat = table(&mat_guid);
	hex(text(line, "mat: entries "), mat ? mat->NumberOfEntries : 0);
	say(line);
	say("\r\nhandoff: done\r\n");
	st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, 0);
	return EFI_DEVICE_ERROR;
}
