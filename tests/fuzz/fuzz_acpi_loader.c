/* Fuzzes QEMU's table-loader interpreter (platform/common/qemu_loader.c) and the ACPI
 * entry-point builder (platform/common/acpi_tables.c) on any script and blobs. Input: a
 * little-endian u16 script length, the script, then the blobs' contents: each ALLOCATE takes a u16
 * size and that many bytes (fewer if the input ends). Blobs get fake addresses below 4 GiB, 1 MiB
 * apart. Whatever the input, a built XSDT and RSDP must have valid checksums. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../platform/common/acpi_tables.h"
#include "../../platform/common/qemu_loader.h"

struct feed {
	const uint8_t *data;
	size_t size;
	unsigned blobs;
};

static EFI_STATUS fuzz_allocate(void *ctx, const char *name, UINT32 align, UINT8 zone,
				struct qemu_loader_blob *blob)
{
	struct feed *f = ctx;
	size_t size = 0;

	if (f->size >= 2) {
		size = f->data[0] | (size_t)f->data[1] << 8;
		f->data += 2;
		f->size -= 2;
	}
	if (size > f->size)
		size = f->size;
	if (!size)
		return EFI_NOT_FOUND;
	blob->data = malloc(size);
	memcpy(blob->data, f->data, size);
	f->data += size;
	f->size -= size;
	blob->size = size;
	blob->address = 0x100000ULL * ++f->blobs;
	return EFI_SUCCESS;
}

static EFI_STATUS fuzz_write_pointer(void *ctx, const char *name, UINT32 offset, UINT8 size,
				     UINT64 value)
{
	return strcmp(name, "etc/readonly") ? EFI_SUCCESS : EFI_ACCESS_DENIED;
}

static void build_entry_points(struct qemu_loader *loader)
{
	struct qemu_loader_blob *rsdp = qemu_loader_blob(loader, "etc/acpi/rsdp");
	EFI_ACPI_DESCRIPTION_HEADER rsdt;
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER out;
	UINT64 tables[64], rsdt_address;
	UINTN count;
	uint8_t *xsdt;

	if (!rsdp)
		return;
	/* The Arm path (an RSDP of revision 2 and its XSDT): every table it lists was checked. */
	count = acpi_xsdt_tables(loader, rsdp->data, rsdp->size, tables, 64, &rsdt);
	for (UINTN i = 0; count != (UINTN)-1 && i < count; i++)
		if (!acpi_table_check(loader, tables[i], &rsdt))
			abort();
	count = acpi_rsdt_tables(loader, rsdp->data, rsdp->size, tables, 64, &rsdt_address, &rsdt);
	if (count == (UINTN)-1)
		return;
	xsdt = malloc(ACPI_XSDT_SIZE(count));
	acpi_build_xsdt(xsdt, &rsdt, tables, count);
	if (acpi_checksum(xsdt, ACPI_XSDT_SIZE(count)) != 0)
		abort();
	acpi_build_rsdp(&out, rsdt.OemId, (UINT32)rsdt_address, (UINT64)(uintptr_t)xsdt);
	if (acpi_checksum(&out, 20) != 0 || acpi_checksum(&out, sizeof(out)) != 0)
		abort();
	free(xsdt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qemu_loader loader;
	struct feed feed;
	size_t script_size;
	struct qemu_loader_ops ops = {fuzz_allocate, fuzz_write_pointer, &feed};

	if (size < 2)
		return 0;
	script_size = data[0] | (size_t)data[1] << 8;
	if (script_size > size - 2)
		script_size = size - 2;
	feed = (struct feed){data + 2 + script_size, size - 2 - script_size, 0};
	if (!EFI_ERROR(qemu_loader_run(&loader, &ops, data + 2, script_size)))
		build_entry_points(&loader);
	for (UINTN i = 0; i < loader.blob_count; i++)
		free(loader.blobs[i].data);
	return 0;
}
