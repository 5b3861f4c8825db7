/* EFI_DT_FIXUP_PROTOCOL (include/efi/protocol/dt_fixup.h), published when the device tree is
 * what the OS gets (`-machine virt,acpi=off`: acpi.c), for a boot program that brings a
 * tree of its own (GRUB's `devicetree`, systemd-stub's .dtb):
 *  - EFI_DT_APPLY_FIXUPS: what Ember knows of the machine that a tree built elsewhere may
 *    not say: the RAM QEMU was given (`-m`), as the first memory node's reg (lib/fdt_edit.c).
 *    Ember hands QEMU's own tree over unchanged, so that is the only fix-up.
 *  - EFI_DT_RESERVE_MEMORY: the tree's reservations (its reservation block and the reg
 *    ranges of /reserved-memory's children) allocated in the memory map, as reserved memory
 *    (whole 64 KiB granules) for "no-map" ones and boot-services data for the others (the
 *    OS keeps those out of its allocator from the tree itself after ExitBootServices).
 *  - EFI_DT_INSTALL_TABLE: the tree becomes the DTB configuration table.
 * The fix-ups are made in a copy first, so a buffer found too small is left untouched and
 * the size it needs is exact. */
#define LOG_PREFIX "dt-fixup: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/fdt_edit.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/dt_fixup.h>
#include "aarch64.h"

#define FLAGS_KNOWN (EFI_DT_APPLY_FIXUPS | EFI_DT_RESERVE_MEMORY | EFI_DT_INSTALL_TABLE)
#define FDT_HEADER_SIZE 40
#define FDT_MAX_SIZE (32u << 20)
#define FIXUP_ROOM 256 /* a memory node added: about 100 bytes */
#define RUNTIME_GRANULE 0x10000

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* Allocates [start, end) rounded out to granule as type; false when any of it is taken. */
static bool allocate_range(UINT64 start, UINT64 end, UINT64 granule, EFI_MEMORY_TYPE type)
{
	EFI_PHYSICAL_ADDRESS at = start & ~(granule - 1);
	UINT64 last = (end + granule - 1) & ~(granule - 1);

	return last > at && !EFI_ERROR(mem_allocate_pages(AllocateAddress, type,
							  EFI_SIZE_TO_PAGES(last - at), &at));
}

static bool reserve(void *ctx, UINT64 base, UINT64 size, bool no_map)
{
	UINT64 end = base + size;

	if (!size || end < base)
		return true;
	/* Reserved memory comes in the OS's 64 KiB granules (main.c); where the rounded range
	 * is partly taken, the exact pages as boot-services data still keep the firmware out
	 * (the OS honours no-map from the tree itself). */
	if (no_map && allocate_range(base, end, RUNTIME_GRANULE, EfiReservedMemoryType))
		return true;
	/* Memory outside RAM, or the firmware's own: the map already keeps the OS out. */
	if (!allocate_range(base, end, EFI_PAGE_SIZE, EfiBootServicesData))
		log_debug("reservation 0x%llx+0x%llx: not all of it is free RAM\n",
			  (unsigned long long)base, (unsigned long long)size);
	return true;
}

/* The fixed-up tree in a pool copy (*edited, through e); EFI_INVALID_PARAMETER when the
 * machine's RAM does not fit the tree's cells. */
static EFI_STATUS apply_fixups(const struct fdt *f, struct fdt_edit *e, UINT8 **edited)
{
	UINT32 capacity = f->size + FIXUP_ROOM;

	*edited = pool_alloc(capacity);
	if (!*edited)
		return EFI_OUT_OF_RESOURCES;
	if (!fdt_edit_copy(e, f, *edited, capacity)) {
		log_debug("cannot copy the tree (an unterminated reservation block, or no room)\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!fdt_edit_set_memory(e, machine.ram_base, machine.ram_size)) {
		log_debug("the tree's cells cannot hold the RAM's range\n");
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI dt_fixup(EFI_DT_FIXUP_PROTOCOL *This, VOID *Fdt, UINTN *BufferSize,
				  UINT32 Flags)
{
	struct fdt f;
	struct fdt_edit e;
	UINT8 *edited = NULL;
	UINT32 total;
	UINTN need;
	EFI_STATUS status = EFI_SUCCESS;

	if (!This || !Fdt || !BufferSize || !Flags || (Flags & ~FLAGS_KNOWN))
		return EFI_INVALID_PARAMETER;
	if (*BufferSize < FDT_HEADER_SIZE)
		return EFI_INVALID_PARAMETER;
	/* The tree is read within the size its header gives, which must be a tree's, and no
	 * further than the caller's buffer. */
	total = be32((const UINT8 *)Fdt + 4);
	if (total < FDT_HEADER_SIZE || total > FDT_MAX_SIZE) {
		log_debug("no valid device tree at %p\n", Fdt);
		return EFI_INVALID_PARAMETER;
	}
	if (*BufferSize < total) {
		*BufferSize = total;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (!fdt_open(&f, Fdt, total) || !fdt_check(&f)) {
		log_debug("no valid device tree at %p\n", Fdt);
		return EFI_INVALID_PARAMETER;
	}
	need = total;
	if (Flags & EFI_DT_APPLY_FIXUPS) {
		status = apply_fixups(&f, &e, &edited);
		if (EFI_ERROR(status))
			goto out;
		if (fdt_edit_used(&e) > need)
			need = fdt_edit_used(&e);
	}
	if (*BufferSize < need) {
		*BufferSize = need;
		status = EFI_BUFFER_TOO_SMALL;
		goto out;
	}
	if (edited) {
		/* The tree fills the buffer: the free room is the caller's for later edits. */
		total = *BufferSize > FDT_MAX_SIZE ? FDT_MAX_SIZE : (UINT32)*BufferSize;
		/* A tree grown past the cap keeps its own size: never less than it holds. */
		if (total < fdt_edit_used(&e))
			total = (UINT32)fdt_edit_used(&e);
		fdt_edit_set_total(&e, total);
		mem_copy(Fdt, edited, fdt_edit_used(&e));
		mem_set((UINT8 *)Fdt + fdt_edit_used(&e), 0, total - fdt_edit_used(&e));
		fdt_open(&f, Fdt, total);
	}
	if (Flags & EFI_DT_RESERVE_MEMORY)
		fdt_reservations(&f, reserve, NULL);
	if (Flags & EFI_DT_INSTALL_TABLE) {
		status = config_table_install(&efi_dtb_table_guid, Fdt);
		if (EFI_ERROR(status))
			log_debug("installing the DTB table: %r\n", status);
	}
out:
	pool_free(edited);
	return status;
}

static EFI_DT_FIXUP_PROTOCOL dt_fixup_protocol = {EFI_DT_FIXUP_PROTOCOL_REVISION, dt_fixup};

void dt_fixup_install(void)
{
	EFI_HANDLE handle = NULL;
	EFI_STATUS status =
	    protocol_install(&handle, &efi_dt_fixup_protocol_guid, &dt_fixup_protocol);

	if (EFI_ERROR(status))
		log_warn("EFI_DT_FIXUP_PROTOCOL not published: %r\n", status);
}
