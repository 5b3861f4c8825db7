/* dmem: shows memory in hex (UEFI Shell 2.2, dmem); without an address, the system table
 * and its configuration tables. */
#include "sys.h"
#include <efi/protocol/pci_root_bridge_io.h>
#include <ember/lib/guids.h>

static void show_system_table(struct shell *sh)
{
	EFI_SYSTEM_TABLE *st = app_st;
	char n1[20], n2[20], n3[20];

	sh_print(sh, "EFI System Table at %016llX\n", (unsigned long long)(UINTN)st);
	sh_print(sh, "  Revision %u.%u, header size 0x%X, firmware %ls revision 0x%08X\n",
		 st->Hdr.Revision >> 16, (st->Hdr.Revision & 0xffff) / 10, st->Hdr.HeaderSize,
		 st->FirmwareVendor ? st->FirmwareVendor : u"?", st->FirmwareRevision);
	sh_print(sh, "  ConIn  [%s] %016llX\n", sys_hnum(sh, st->ConsoleInHandle, n1),
		 (unsigned long long)(UINTN)st->ConIn);
	sh_print(sh, "  ConOut [%s] %016llX\n", sys_hnum(sh, st->ConsoleOutHandle, n2),
		 (unsigned long long)(UINTN)st->ConOut);
	sh_print(sh, "  StdErr [%s] %016llX\n", sys_hnum(sh, st->StandardErrorHandle, n3),
		 (unsigned long long)(UINTN)st->StdErr);
	sh_print(sh, "  Runtime Services %016llX\n",
		 (unsigned long long)(UINTN)st->RuntimeServices);
	sh_print(sh, "  Boot Services    %016llX\n", (unsigned long long)(UINTN)st->BootServices);
	sh_print(sh, "  Configuration tables (%u):\n", (unsigned)st->NumberOfTableEntries);
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &st->ConfigurationTable[i];
		const CHAR16 *name = sh_guid_name(sh, &t->VendorGuid);
		sh_print(sh, "    %pG %016llX %ls\n", &t->VendorGuid,
			 (unsigned long long)(UINTN)t->VendorTable, name ? name : u"");
	}
}

/* MMIO is read with the root bridge's Mem.Read, byte by byte, as devices want it. */
static EFI_STATUS read_mmio(UINT64 address, UINTN size, UINT8 *out)
{
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb;

	if (EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_pci_root_bridge_io_protocol_guid,
					     NULL, (void **)&rb)))
		return EFI_UNSUPPORTED;
	return rb->Mem.Read(rb, EfiPciWidthUint8, address, size, out);
}

static EFI_STATUS cmd_dmem(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-mmio", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	UINT64 address, size = 0x200;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);
	UINT8 *buf;

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		show_system_table(sh);
		return EFI_SUCCESS;
	}
	if (a.count > 2 || !sh_parse_u64(a.pos[0], true, &address) ||
	    (a.count == 2 && (!sh_parse_u64(a.pos[1], true, &size) || !size || size > 0x1000000))) {
		sh_error(sh, "dmem: give an address and a size in hex (size up to 1000000)\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!sh_args_has(&a, "-mmio")) {
		sh_print(sh, "Memory Address %016llX %llX Bytes\n", (unsigned long long)address,
			 (unsigned long long)size);
		sys_hexdump(sh, 2, address, (const void *)(UINTN)address, (UINTN)size);
		return EFI_SUCCESS;
	}
	buf = app_alloc((UINTN)size);
	if (!buf)
		return EFI_OUT_OF_RESOURCES;
	status = read_mmio(address, (UINTN)size, buf);
	if (EFI_ERROR(status)) {
		sh_error(sh, "dmem: cannot read MMIO there: %s\n", sys_status_text(status));
	} else {
		sh_print(sh, "Memory Mapped IO Address %016llX %llX Bytes\n",
			 (unsigned long long)address, (unsigned long long)size);
		sys_hexdump(sh, 2, address, buf, (UINTN)size);
	}
	app_free(buf);
	return status;
}

SH_COMMAND(dmem, "dmem", "Shows memory in hex",
	   "dmem [address [size]] [-mmio]\n"
	   "  Shows size bytes (default 200) of memory from address, both hex: 16 bytes a\n"
	   "  line with their printable characters. Without an address, shows the EFI\n"
	   "  system table: revision, consoles, service tables and the configuration\n"
	   "  tables (ACPI, SMBIOS ...) with their addresses. Reading where nothing is\n"
	   "  mapped can crash.\n"
	   "  -mmio  reads device memory through the PCI root bridge (byte accesses)\n"
	   "  Examples:\n"
	   "    dmem\n"
	   "    dmem FED00000 40 -mmio\n",
	   cmd_dmem);
