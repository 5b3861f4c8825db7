/* The EFI system table (UEFI 2.10, section 4.3). It lives in runtime memory, as the OS
 * keeps using it (runtime services, configuration tables) after ExitBootServices. */
#include "services.h"
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>

EFI_SYSTEM_TABLE *core_st;

void table_update_crc(EFI_TABLE_HEADER *header)
{
	header->CRC32 = 0;
	header->CRC32 = crc32(header, header->HeaderSize);
}

EFI_STATUS system_table_init(const CHAR16 *vendor, UINT32 revision)
{
	UINTN vendor_size = str16_size(vendor);
	CHAR16 *vendor_copy = pool_alloc_typed(EfiRuntimeServicesData, vendor_size);

	core_st = pool_alloc_typed(EfiRuntimeServicesData, sizeof(*core_st));
	if (!core_st || !vendor_copy)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(vendor_copy, vendor, vendor_size);
	*core_st = (EFI_SYSTEM_TABLE){
	    .Hdr = {EFI_SYSTEM_TABLE_SIGNATURE, EFI_SYSTEM_TABLE_REVISION, sizeof(EFI_SYSTEM_TABLE),
		    0, 0},
	    .FirmwareVendor = vendor_copy,
	    .FirmwareRevision = revision,
	    .RuntimeServices = core_rt,
	    .BootServices = core_bs,
	};
	table_update_crc(&core_st->Hdr);
	return EFI_SUCCESS;
}

void core_set_console_in(EFI_HANDLE handle, EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in)
{
	core_st->ConsoleInHandle = handle;
	core_st->ConIn = in;
	table_update_crc(&core_st->Hdr);
}

void core_set_console_out(EFI_HANDLE handle, EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out)
{
	core_st->ConsoleOutHandle = handle;
	core_st->ConOut = out;
	table_update_crc(&core_st->Hdr);
}

void core_set_std_err(EFI_HANDLE handle, EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *err)
{
	core_st->StandardErrorHandle = handle;
	core_st->StdErr = err;
	table_update_crc(&core_st->Hdr);
}
