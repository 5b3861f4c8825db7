/* Laying out a PE32+ file in memory (pe_load): headers at the start, each section at its
 * RVA, zeros everywhere else, then base relocations for the load address. The info comes
 * from pe_parse() of the same file, but every copy is bounded again here anyway: it costs
 * nothing and keeps a mismatched info from turning into an overrun. */
#define LOG_PREFIX "pe: "
#include "pe_format.h"
#include <ember/core/log.h>

static EFI_STATUS refuse(const char **reason, const char *why)
{
	*reason = why;
	return EFI_LOAD_ERROR;
}

static EFI_STATUS copy_sections(const void *file, size_t file_size,
				const struct pe_image_info *info, UINT8 *dest, const char **reason)
{
	for (UINT32 i = 0; i < info->number_of_sections; i++) {
		UINT64 offset =
		    info->section_table_offset + (UINT64)i * sizeof(IMAGE_SECTION_HEADER);
		IMAGE_SECTION_HEADER sec;
		UINT32 mem_size, copy_size;
		EFI_STATUS status;

		if (!pe_read(file, file_size, offset, &sec, sizeof(sec)))
			return refuse(reason, "truncated section table");
		status = pe_check_section(&sec, file_size, info->size_of_image, reason);
		if (EFI_ERROR(status))
			return status;
		pe_section_sizes(&sec, &mem_size, &copy_size);
		mem_copy(dest + sec.VirtualAddress, (const UINT8 *)file + sec.PointerToRawData,
			 copy_size);
	}
	return EFI_SUCCESS;
}

/* Windows and other UEFI loaders leave the actual load address in the loaded headers'
 * ImageBase; some programs read it from there. */
static void record_image_base(const struct pe_image_info *info, UINT8 *dest, UINT64 load_address)
{
	UINT64 field = (UINT64)info->pe_header_offset + PE_OPTIONAL_HEADER_OFFSET +
		       offsetof(IMAGE_OPTIONAL_HEADER64, ImageBase);

	if (field + sizeof(load_address) <= info->size_of_headers)
		mem_copy(dest + field, &load_address, sizeof(load_address));
}

/* Copies a parsed file into dest and relocates it for load_address. */
EFI_STATUS pe_load(const void *file, size_t file_size, const struct pe_image_info *info, void *dest,
		   UINT64 load_address, const char **reason)
{
	UINT64 delta = load_address - info->image_base;
	const char *ignored;
	EFI_STATUS status;

	if (!reason)
		reason = &ignored;
	/* An image without a relocation directory that does not say it was stripped (the
	 * Linux EFI stub) relocates itself and may load anywhere. */
	if (delta && info->relocs_stripped && !info->reloc_size) {
		status = refuse(reason, "relocations required but stripped");
		goto refused;
	}
	if (info->size_of_headers > file_size || info->size_of_headers > info->size_of_image) {
		status = refuse(reason, "SizeOfHeaders beyond the end of the file");
		goto refused;
	}
	mem_set(dest, 0, info->size_of_image);
	mem_copy(dest, file, info->size_of_headers);
	status = copy_sections(file, file_size, info, dest, reason);
	if (EFI_ERROR(status))
		goto refused;
	status = pe_relocate(dest, info->size_of_image, info->reloc_rva, info->reloc_size, delta,
			     reason);
	if (EFI_ERROR(status))
		goto refused;
	record_image_base(info, dest, load_address);
	return EFI_SUCCESS;

refused:
	log_debug("loading at 0x%llx: %s: %r\n", (unsigned long long)load_address, *reason, status);
	return status;
}
