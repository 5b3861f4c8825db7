/* EFI_DT_FIXUP_PROTOCOL from a boot program (tests/qemu/test_aarch64_dt_fixup.py runs it on
 * Ember with `-machine virt,acpi=off`). A copy of the DTB table's tree is made to look like
 * a tree brought from elsewhere: its memory node renamed (so Ember must add one), a free
 * page of RAM reserved in its reservation block, and its total size cut to what it uses.
 * Then: bad arguments refused; Fixup with that size answers EFI_BUFFER_TOO_SMALL and a
 * bigger size; with that size in a new buffer it succeeds, the tree has a memory@40000000
 * node again and fills the buffer, the reserved page can no longer be allocated, and the
 * tree is the DTB table. One line each. */
#include <stdbool.h>
#include <efi/system_table.h>
#include <efi/protocol/dt_fixup.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static EFI_GUID dtb_guid = EFI_DTB_TABLE_GUID;
static EFI_GUID fixup_guid = EFI_DT_FIXUP_PROTOCOL_GUID;
static EFI_SYSTEM_TABLE *st;
static const char memory_name[] = "memory@40000000";
#define PROBE_PAGES 512

static void say(const CHAR16 *text)
{
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)text);
}

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

static void put32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

static void copy(UINT8 *dst, const UINT8 *src, UINTN n)
{
	for (UINTN i = 0; i < n; i++)
		dst[i] = src[i];
}

/* The offset of the node name memory_name (with its NUL) in the first n bytes, or -1. */
static long find_memory(const UINT8 *p, UINTN n)
{
	for (UINTN i = 0; i + sizeof(memory_name) <= n; i++) {
		UINTN k = 0;
		while (k < sizeof(memory_name) && p[i + k] == (UINT8)memory_name[k])
			k++;
		if (k == sizeof(memory_name))
			return (long)i;
	}
	return -1;
}

/* A copy of the tree of used bytes with one more reservation-block entry, (page, 4 KiB),
 * in front; the blocks after the reservation block move by its 16 bytes. NULL when the
 * tree's blocks are not in that order. */
static UINT8 *copy_with_reservation(EFI_BOOT_SERVICES *bs, const UINT8 *table, UINT32 used,
				    UINT64 page)
{
	UINT32 rsv = be32(table + 16), structure = be32(table + 8), strings = be32(table + 12);
	UINT8 *tree;

	if (rsv < 40 || structure < rsv || strings < rsv || used < rsv ||
	    bs->AllocatePool(EfiBootServicesData, used + 16, (void **)&tree) != EFI_SUCCESS)
		return NULL;
	copy(tree, table, rsv);
	put32(tree + rsv, (UINT32)(page >> 32));
	put32(tree + rsv + 4, (UINT32)page);
	put32(tree + rsv + 8, 0);
	put32(tree + rsv + 12, 4096);
	copy(tree + rsv + 16, table + rsv, used - rsv);
	put32(tree + 4, used + 16);
	put32(tree + 8, structure + 16);
	put32(tree + 12, strings + 16);
	return tree;
}

static void *dtb_table(void)
{
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		const EFI_GUID *g = &st->ConfigurationTable[i].VendorGuid;
		const UINT8 *a = (const UINT8 *)g, *b = (const UINT8 *)&dtb_guid;
		UINTN k = 0;
		while (k < sizeof(EFI_GUID) && a[k] == b[k])
			k++;
		if (k == sizeof(EFI_GUID))
			return st->ConfigurationTable[i].VendorTable;
	}
	return NULL;
}

static bool bad_arguments_refused(EFI_DT_FIXUP_PROTOCOL *p, UINT8 *tree, UINT8 *zeros)
{
	UINTN size = 4096;

	return p->Fixup(p, NULL, &size, EFI_DT_APPLY_FIXUPS) == EFI_INVALID_PARAMETER &&
	       p->Fixup(p, tree, NULL, EFI_DT_APPLY_FIXUPS) == EFI_INVALID_PARAMETER &&
	       p->Fixup(p, tree, &size, 0) == EFI_INVALID_PARAMETER &&
	       p->Fixup(p, tree, &size, 8) == EFI_INVALID_PARAMETER &&
	       p->Fixup(p, zeros, &size, EFI_DT_APPLY_FIXUPS) == EFI_INVALID_PARAMETER;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_BOOT_SERVICES *bs = systab->BootServices;
	EFI_DT_FIXUP_PROTOCOL *p;
	EFI_PHYSICAL_ADDRESS pages, page;
	UINT8 *table, *tree, zeros[64] = {0};
	UINT32 used;
	UINTN size;
	long memory;

	st = systab;
	if (bs->LocateProtocol(&fixup_guid, NULL, (void **)&p) != EFI_SUCCESS) {
		say(u"dt_fixup: no protocol\r\n");
		return EFI_NOT_FOUND;
	}
	table = dtb_table();
	if (p->Revision != EFI_DT_FIXUP_PROTOCOL_REVISION || !table || be32(table) != 0xd00dfeed) {
		say(u"dt_fixup: bad revision, or no DTB table\r\n");
		return EFI_NOT_FOUND;
	}
	/* The tree packed (QEMU's: header, reservations, structure, strings last). */
	used = be32(table + 12) + be32(table + 32);
	tree = copy_with_reservation(bs, table, used, 0); /* the page comes later */
	if (!tree) {
		say(u"dt_fixup: QEMU's tree is not laid out as expected\r\n");
		return EFI_NOT_FOUND;
	}
	used += 16;
	memory = find_memory(tree, used);
	if (memory < 0) {
		say(u"dt_fixup: QEMU's tree has no memory@40000000\r\n");
		return EFI_NOT_FOUND;
	}
	tree[memory] = 'x';
	say(bad_arguments_refused(p, tree, zeros) ? u"dt_fixup: bad arguments refused\r\n"
						  : u"dt_fixup: bad arguments taken\r\n");
	size = used;
	if (p->Fixup(p, tree, &size, EFI_DT_APPLY_FIXUPS) != EFI_BUFFER_TOO_SMALL || size <= used) {
		say(u"dt_fixup: no EFI_BUFFER_TOO_SMALL with a bigger size\r\n");
		return EFI_DEVICE_ERROR;
	}
	say(u"dt_fixup: EFI_BUFFER_TOO_SMALL, a bigger size asked\r\n");
	if (bs->AllocatePages(AllocateAnyPages, EfiACPIReclaimMemory, EFI_SIZE_TO_PAGES(size),
			      &pages) != EFI_SUCCESS)
		return EFI_OUT_OF_RESOURCES;
	copy((UINT8 *)(UINTN)pages, tree, used);
	/* A page nobody holds: the middle of 2 MiB of free RAM, given back (allocations on
	 * the way, the firmware's own copy of the tree among them, take from the ends). */
	if (bs->AllocatePages(AllocateAnyPages, EfiBootServicesData, PROBE_PAGES, &page) !=
		EFI_SUCCESS ||
	    bs->FreePages(page, PROBE_PAGES) != EFI_SUCCESS)
		return EFI_OUT_OF_RESOURCES;
	page += PROBE_PAGES / 2 * 4096;
	put32((UINT8 *)(UINTN)pages + be32(table + 16), (UINT32)(page >> 32));
	put32((UINT8 *)(UINTN)pages + be32(table + 16) + 4, (UINT32)page);
	if (p->Fixup(p, (void *)(UINTN)pages, &size,
		     EFI_DT_APPLY_FIXUPS | EFI_DT_RESERVE_MEMORY | EFI_DT_INSTALL_TABLE) !=
	    EFI_SUCCESS) {
		say(u"dt_fixup: Fixup failed with the size it asked for\r\n");
		return EFI_DEVICE_ERROR;
	}
	tree = (UINT8 *)(UINTN)pages;
	say(find_memory(tree, size) >= 0 && be32(tree + 4) == size
		? u"dt_fixup: memory@40000000 added, the tree fills the buffer\r\n"
		: u"dt_fixup: no memory node, or the tree does not fill the buffer\r\n");
	say(bs->AllocatePages(AllocateAddress, EfiLoaderData, 1, &page) == EFI_NOT_FOUND
		? u"dt_fixup: the reserved page is taken in the memory map\r\n"
		: u"dt_fixup: the reserved page is still free\r\n");
	say(dtb_table() == tree ? u"dt_fixup: installed as the DTB table\r\n"
				: u"dt_fixup: not the DTB table\r\n");
	return EFI_SUCCESS;
}
