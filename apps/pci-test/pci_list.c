/* Every PciIo handle: its location, IDs, class, device path and BARs (GetBarAttributes). */
#include "pci_test.h"
#include <efi/pci.h>
#include <efi/protocol/device_path_to_text.h>

static EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;

static void print_path(EFI_HANDLE handle)
{
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	CHAR16 *text;

	if (!CHECK_STATUS(app_bs->HandleProtocol(handle, &path_guid, (void **)&path), EFI_SUCCESS))
		return;
	if (EFI_ERROR(app_bs->LocateProtocol(&to_text_guid, NULL, (void **)&to_text))) {
		app_print("  path ?\n");
		return;
	}
	text = to_text->ConvertDevicePathToText(path, FALSE, FALSE);
	app_print("  path %ls\n", text ? text : u"?");
	app_free(text);
}

/* One BAR through GetBarAttributes: a QWORD descriptor, then an end tag. */
static void print_bar(EFI_PCI_IO_PROTOCOL *io, UINT8 index)
{
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR d;
	UINT8 *res = NULL;
	UINT64 supports = 0;

	if (EFI_ERROR(io->GetBarAttributes(io, index, &supports, (void **)&res)) || !res)
		return;
	mem_copy(&d, res, sizeof(d));
	CHECK_EQ(d.Desc, ACPI_ADDRESS_SPACE_DESCRIPTOR);
	CHECK_EQ(d.Len, sizeof(d) - 3);
	CHECK_EQ(res[sizeof(d)], ACPI_END_TAG_DESCRIPTOR);
	app_print("  BAR%u %s%s base 0x%llx len 0x%llx\n", index,
		  d.ResType == ACPI_ADDRESS_SPACE_TYPE_IO ? "io"
		  : d.AddrSpaceGranularity == 64	  ? "mem64"
							  : "mem32",
		  d.SpecificFlag == EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_PREFETCHABLE
		      ? " pref"
		      : "",
		  d.AddrRangeMin, d.AddrLen);
	app_free(res);
	/* The BAR is reachable: its first dword reads without a fault (page tables cover it). */
	if (d.ResType == ACPI_ADDRESS_SPACE_TYPE_MEM) {
		UINT32 v;
		CHECK_STATUS(io->Mem.Read(io, EfiPciIoWidthUint32, index, 0, 1, &v), EFI_SUCCESS);
	}
}

static void list_one(EFI_HANDLE handle)
{
	EFI_PCI_IO_PROTOCOL *io = NULL;
	UINTN seg, bus, dev, fn;
	UINT32 ids = 0, class = 0;

	if (!CHECK_STATUS(app_bs->HandleProtocol(handle, &pci_io_guid, (void **)&io), EFI_SUCCESS))
		return;
	CHECK_STATUS(io->GetLocation(io, &seg, &bus, &dev, &fn), EFI_SUCCESS);
	CHECK_STATUS(io->Pci.Read(io, EfiPciIoWidthUint32, PCI_VENDOR_ID_OFFSET, 1, &ids),
		     EFI_SUCCESS);
	CHECK_STATUS(io->Pci.Read(io, EfiPciIoWidthUint32, PCI_REVISION_ID_OFFSET, 1, &class),
		     EFI_SUCCESS);
	CHECK((ids & 0xffff) != 0xffff);
	app_print("PCI %04x:%02x:%02x.%x %04x:%04x class %06x", (UINT32)seg, (UINT32)bus,
		  (UINT32)dev, (UINT32)fn, ids & 0xffff, ids >> 16, class >> 8);
	app_print("\n");
	print_path(handle);
	for (UINT8 i = 0; i < PCI_MAX_BAR; i++)
		print_bar(io, i);
}

void pt_list_pci(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (!CHECK_STATUS(
		app_bs->LocateHandleBuffer(ByProtocol, &pci_io_guid, NULL, &count, &handles),
		EFI_SUCCESS))
		return;
	app_print("pci-test: %u PCI functions\n", (UINT32)count);
	for (UINTN i = 0; i < count; i++)
		list_one(handles[i]);
	app_free(handles);
}
