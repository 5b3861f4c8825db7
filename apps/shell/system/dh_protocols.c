/* What dh says about the protocols it knows: one printer per protocol GUID. */
#include "dh.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/partition_info.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/serial_io.h>
#include <efi/protocol/simple_text_output.h>

#define IND "     " /* detail lines sit under the protocol's name */

typedef void (*detail_fn)(struct shell *sh, EFI_HANDLE h, void *iface);

const CHAR16 *dh_protocol_name(struct shell *sh, const EFI_GUID *guid, CHAR16 buf[40])
{
	const CHAR16 *name = sh_guid_name(sh, guid);
	char text[37];

	if (name)
		return name;
	guid_to_str(text, guid);
	for (int i = 0; i < 37; i++)
		buf[i] = (CHAR16)text[i];
	return buf;
}

static void device_path(struct shell *sh, EFI_HANDLE h, void *iface)
{
	CHAR16 *text = sh_devpath_text(sh, iface);

	(void)h;
	sh_print(sh, IND "%ls\n", text ? text : u"(malformed)");
	app_free(text);
}

static const char *memory_type_name(UINT32 type)
{
	static const char *const names[] = {"Reserved",	 "LoaderCode", "LoaderData", "BS_Code",
					    "BS_Data",	 "RT_Code",    "RT_Data",    "Available",
					    "Unusable",	 "ACPI_Recl",  "ACPI_NVS",   "MMIO",
					    "MMIO_Port", "PalCode",    "Persistent", "Unaccepted"};

	return type < ARRAY_SIZE(names) ? names[type] : "OEM/OS";
}

static void loaded_image(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = iface;
	CHAR16 *file = li->FilePath ? sh_devpath_text(sh, li->FilePath) : NULL;
	char n1[20], n2[20];

	(void)h;
	sh_print(sh, IND "File:        %ls\n", file ? file : u"(none)");
	sh_print(sh, IND "Revision:    0x%08X\n", li->Revision);
	sh_print(sh, IND "Parent:      [%s]\n", sys_hnum(sh, li->ParentHandle, n1));
	sh_print(sh, IND "Device:      [%s]\n", sys_hnum(sh, li->DeviceHandle, n2));
	sh_print(sh, IND "Image:       0x%llX, 0x%llX bytes\n",
		 (unsigned long long)(UINTN)li->ImageBase, (unsigned long long)li->ImageSize);
	sh_print(sh, IND "Memory:      %s, %s\n", memory_type_name(li->ImageCodeType),
		 memory_type_name(li->ImageDataType));
	sh_print(sh, IND "LoadOptions: %u bytes\n", li->LoadOptionsSize);
	sh_print(sh, IND "Unload:      %s\n", li->Unload ? "yes" : "no");
	app_free(file);
}

static void block_io(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_BLOCK_IO_PROTOCOL *bio = iface;
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	char size[32];

	(void)h;
	if (!m)
		return;
	sys_commas(size, (m->LastBlock + 1) * m->BlockSize);
	sh_print(sh, IND "MediaId %u, %s%s%s%s%s\n", m->MediaId,
		 m->RemovableMedia ? "removable" : "fixed",
		 m->MediaPresent ? ", present" : ", no medium",
		 m->LogicalPartition ? ", partition" : ", whole device",
		 m->ReadOnly ? ", read-only" : "", m->WriteCaching ? ", write cache" : "");
	sh_print(sh, IND "Blocks of %u bytes, last block 0x%llX (%s bytes), I/O align %u\n",
		 m->BlockSize, (unsigned long long)m->LastBlock, size, m->IoAlign);
}

static void driver_binding(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_DRIVER_BINDING_PROTOCOL *db = iface;
	char n1[20], n2[20];

	(void)h;
	sh_print(sh, IND "Version 0x%08X, image [%s], binding handle [%s]\n", db->Version,
		 sys_hnum(sh, db->ImageHandle, n1), sys_hnum(sh, db->DriverBindingHandle, n2));
}

static void component_name2(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_COMPONENT_NAME2_PROTOCOL *cn = iface;
	CHAR16 *name = NULL;

	(void)h;
	if (!EFI_ERROR(cn->GetDriverName(cn, (CHAR8 *)"en", &name)) && name)
		sh_print(sh, IND "Driver name: %ls\n", name);
	if (cn->SupportedLanguages)
		sh_print(sh, IND "Languages:   %s\n", (const char *)cn->SupportedLanguages);
}

static void pci_io(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_PCI_IO_PROTOCOL *pci = iface;
	UINTN seg, bus, dev, fn;
	UINT32 id = 0, class_rev = 0;

	(void)h;
	if (EFI_ERROR(pci->GetLocation(pci, &seg, &bus, &dev, &fn)))
		return;
	pci->Pci.Read(pci, EfiPciIoWidthUint32, 0, 1, &id);
	pci->Pci.Read(pci, EfiPciIoWidthUint32, 8, 1, &class_rev);
	sh_print(sh, IND "Segment %02X Bus %02X Device %02X Function %02X\n", (unsigned)seg,
		 (unsigned)bus, (unsigned)dev, (unsigned)fn);
	sh_print(sh, IND "Vendor %04X Device %04X Class %06X Revision %02X, ROM %llu bytes\n",
		 id & 0xffff, id >> 16, class_rev >> 8, class_rev & 0xff,
		 (unsigned long long)pci->RomSize);
}

static void graphics_output(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = iface;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *m = gop->Mode;

	(void)h;
	if (!m || !m->Info)
		return;
	sh_print(sh, IND "Mode %u of %u: %ux%u, %u pixels per line, format %u\n", m->Mode,
		 m->MaxMode, m->Info->HorizontalResolution, m->Info->VerticalResolution,
		 m->Info->PixelsPerScanLine, (unsigned)m->Info->PixelFormat);
	sh_print(sh, IND "Frame buffer 0x%llX, 0x%llX bytes\n",
		 (unsigned long long)m->FrameBufferBase, (unsigned long long)m->FrameBufferSize);
}

static void text_out(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = iface;
	UINTN cols = 0, rows = 0;

	(void)h;
	if (!out->Mode)
		return;
	out->QueryMode(out, (UINTN)out->Mode->Mode, &cols, &rows);
	sh_print(sh, IND "Mode %d of %d: %u columns, %u rows; attribute 0x%02X\n", out->Mode->Mode,
		 out->Mode->MaxMode, (unsigned)cols, (unsigned)rows, out->Mode->Attribute);
}

static void serial_io(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_SERIAL_IO_PROTOCOL *sio = iface;
	EFI_SERIAL_IO_MODE *m = sio->Mode;
	static const char parity[] = "DNEOMS";

	(void)h;
	if (!m)
		return;
	sh_print(sh, IND "%llu baud, %u data bits, parity %c, stop bits %u\n",
		 (unsigned long long)m->BaudRate, m->DataBits,
		 m->Parity < 6 ? parity[m->Parity] : '?', m->StopBits);
}

static void partition_info(struct shell *sh, EFI_HANDLE h, void *iface)
{
	EFI_PARTITION_INFO_PROTOCOL *pi = iface;
	static const char *const types[] = {"other", "MBR", "GPT"};

	(void)h;
	sh_print(sh, IND "%s partition%s\n", pi->Type < 3 ? types[pi->Type] : "unknown",
		 pi->System ? ", EFI system partition" : "");
}

static const struct {
	EFI_GUID guid;
	detail_fn fn;
} printers[] = {
    {EFI_DEVICE_PATH_PROTOCOL_GUID, device_path},
    {EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID, device_path},
    {EFI_LOADED_IMAGE_PROTOCOL_GUID, loaded_image},
    {EFI_BLOCK_IO_PROTOCOL_GUID, block_io},
    {EFI_DRIVER_BINDING_PROTOCOL_GUID, driver_binding},
    {EFI_COMPONENT_NAME2_PROTOCOL_GUID, component_name2},
    {EFI_PCI_IO_PROTOCOL_GUID, pci_io},
    {EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID, graphics_output},
    {EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID, text_out},
    {EFI_SERIAL_IO_PROTOCOL_GUID, serial_io},
    {EFI_PARTITION_INFO_PROTOCOL_GUID, partition_info},
};

void dh_protocol_details(struct shell *sh, EFI_HANDLE h, const EFI_GUID *guid, void *iface)
{
	if (!iface)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(printers); i++)
		if (guid_eq(&printers[i].guid, guid)) {
			printers[i].fn(sh, h, iface);
			return;
		}
}

/* "BY_DRIVER|EXCLUSIVE" for open attributes. */
static const char *open_attributes(char *buf, UINT32 attributes)
{
	static const struct {
		UINT32 bit;
		const char *name;
	} names[] = {
	    {EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL, "HANDLE_PROTOCOL"},
	    {EFI_OPEN_PROTOCOL_GET_PROTOCOL, "GET_PROTOCOL"},
	    {EFI_OPEN_PROTOCOL_TEST_PROTOCOL, "TEST_PROTOCOL"},
	    {EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER, "BY_CHILD_CONTROLLER"},
	    {EFI_OPEN_PROTOCOL_BY_DRIVER, "BY_DRIVER"},
	    {EFI_OPEN_PROTOCOL_EXCLUSIVE, "EXCLUSIVE"},
	};
	UINTN pos = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (attributes & names[i].bit)
			pos +=
			    format_sn(buf + pos, 96 - pos, "%s%s", pos ? "|" : "", names[i].name);
	return buf;
}

void dh_open_info(struct shell *sh, EFI_HANDLE h, EFI_GUID *guid)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *e = NULL;
	UINTN n = 0;
	char attrs[96], n1[20], n2[20];

	if (EFI_ERROR(app_bs->OpenProtocolInformation(h, guid, &e, &n)))
		return;
	for (UINTN i = 0; i < n; i++)
		sh_print(sh, IND "Open: agent [%s] controller [%s] count %u %s\n",
			 sys_hnum(sh, e[i].AgentHandle, n1),
			 sys_hnum(sh, e[i].ControllerHandle, n2), e[i].OpenCount,
			 open_attributes(attrs, e[i].Attributes));
	app_free(e);
}
