/* Validation of a PE32+ file's headers and section table (pe_parse). Everything the
 * loader later relies on is checked here, with 64-bit arithmetic so that no sum of
 * 32-bit fields can wrap. */
#define LOG_PREFIX "pe: "
#include "pe_format.h"
#include <ember/core/log.h>
#include <ember/lib/arch.h>
#include <ember/lib/format.h>

static const char not_pe[] = "not a PE32+ image";

static EFI_STATUS refuse(const char **reason, const char *why)
{
	*reason = why;
	return EFI_LOAD_ERROR;
}

static bool is_power_of_two(UINT32 x)
{
	return x && !(x & (x - 1));
}

static EFI_STATUS read_signatures(const void *base, size_t size, UINT32 *pe_offset,
				  const char **reason)
{
	UINT16 mz;
	UINT32 signature;

	if (!pe_read(base, size, 0, &mz, sizeof(mz)) || mz != IMAGE_DOS_SIGNATURE)
		return refuse(reason, not_pe);
	if (!pe_read(base, size, IMAGE_DOS_LFANEW_OFFSET, pe_offset, sizeof(*pe_offset)))
		return refuse(reason, not_pe);
	if (!pe_read(base, size, *pe_offset, &signature, sizeof(signature)) ||
	    signature != IMAGE_NT_SIGNATURE)
		return refuse(reason, not_pe);
	return EFI_SUCCESS;
}

/* The machine is checked before the optional header's magic, so that a PE32 image for
 * x86 is reported as such rather than as "not PE32+". */
static EFI_STATUS read_optional_header(const void *base, size_t size, struct pe_headers *hdr,
				       const char **reason)
{
	UINT64 offset = (UINT64)hdr->pe_offset + PE_OPTIONAL_HEADER_OFFSET;
	UINT32 declared = hdr->file.SizeOfOptionalHeader;
	IMAGE_OPTIONAL_HEADER64 *opt = &hdr->optional;

	if (declared < sizeof(opt->Magic))
		return refuse(reason, not_pe);
	if (!pe_read(base, size, offset, &opt->Magic, sizeof(opt->Magic)))
		return refuse(reason, "truncated optional header");
	if (opt->Magic != IMAGE_NT_OPTIONAL_HDR64_MAGIC)
		return refuse(reason, not_pe);
	if (declared < PE_OPTIONAL_HEADER_MIN ||
	    !pe_read(base, size, offset, opt, MIN(declared, sizeof(*opt))))
		return refuse(reason, "truncated optional header");
	if (opt->NumberOfRvaAndSizes > (declared - PE_OPTIONAL_HEADER_MIN) / 8)
		return refuse(reason, "truncated optional header");
	hdr->directory_count = MIN(opt->NumberOfRvaAndSizes, IMAGE_NUMBEROF_DIRECTORY_ENTRIES);
	for (UINT32 i = hdr->directory_count; i < IMAGE_NUMBEROF_DIRECTORY_ENTRIES; i++)
		opt->DataDirectory[i] = (IMAGE_DATA_DIRECTORY){0, 0};
	return EFI_SUCCESS;
}

/* Reads the headers of a file or loaded image; only PE32+ images of the firmware's architecture
 * pass. */
EFI_STATUS pe_read_headers(const void *base, size_t size, struct pe_headers *hdr,
			   char reason_text[PE_REASON_TEXT_SIZE], const char **reason)
{
	EFI_STATUS status;

	mem_set(hdr, 0, sizeof(*hdr));
	status = read_signatures(base, size, &hdr->pe_offset, reason);
	if (EFI_ERROR(status))
		return status;
	if (!pe_read(base, size, (UINT64)hdr->pe_offset + 4, &hdr->file, sizeof(hdr->file)))
		return refuse(reason, "truncated headers");
	if (hdr->file.Machine != ARCH_PE_MACHINE) {
		format_sn(reason_text, PE_REASON_TEXT_SIZE, "unsupported machine type 0x%x",
			  (UINT32)hdr->file.Machine);
		*reason = reason_text;
		return EFI_UNSUPPORTED;
	}
	return read_optional_header(base, size, hdr, reason);
}

static EFI_STATUS check_subsystem(UINT16 subsystem, struct pe_image_info *info, const char **reason)
{
	switch (subsystem) {
	case EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION:
	case EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER:
	case EFI_IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER:
		return EFI_SUCCESS;
	}
	format_sn(info->reason_text, sizeof(info->reason_text), "unsupported subsystem %u",
		  (UINT32)subsystem);
	*reason = info->reason_text;
	return EFI_UNSUPPORTED;
}

/* Alignments and the extent of the headers: the section table must lie in the file and
 * inside SizeOfHeaders, which must itself fit in the file and in the image. */
static EFI_STATUS check_layout(const struct pe_headers *hdr, size_t file_size, const char **reason)
{
	const IMAGE_OPTIONAL_HEADER64 *opt = &hdr->optional;
	UINT64 table =
	    (UINT64)hdr->pe_offset + PE_OPTIONAL_HEADER_OFFSET + hdr->file.SizeOfOptionalHeader;
	UINT64 table_end =
	    table + (UINT64)hdr->file.NumberOfSections * sizeof(IMAGE_SECTION_HEADER);

	if (!is_power_of_two(opt->SectionAlignment))
		return refuse(reason, "invalid SectionAlignment");
	if (!is_power_of_two(opt->FileAlignment) || opt->FileAlignment > opt->SectionAlignment)
		return refuse(reason, "invalid FileAlignment");
	if (table_end > file_size)
		return refuse(reason, "truncated section table");
	if (opt->SizeOfHeaders > file_size)
		return refuse(reason, "SizeOfHeaders beyond the end of the file");
	if (opt->SizeOfHeaders > opt->SizeOfImage)
		return refuse(reason, "SizeOfHeaders beyond SizeOfImage");
	if (table_end > opt->SizeOfHeaders)
		return refuse(reason, "section table beyond SizeOfHeaders");
	return EFI_SUCCESS;
}

/* Checks that a section lies inside SizeOfImage and its raw data inside the file. */
EFI_STATUS pe_check_section(const IMAGE_SECTION_HEADER *sec, size_t file_size, UINT32 size_of_image,
			    const char **reason)
{
	UINT32 mem_size, copy_size;

	pe_section_sizes(sec, &mem_size, &copy_size);
	if ((UINT64)sec->VirtualAddress + mem_size > size_of_image)
		return refuse(reason, "section beyond SizeOfImage");
	/* All of the raw data must be there, loaded or not: a shorter file is truncated. */
	if ((copy_size || sec->SizeOfRawData) &&
	    (UINT64)sec->PointerToRawData + MAX(copy_size, sec->SizeOfRawData) > file_size)
		return refuse(reason, "section data beyond the end of the file");
	return EFI_SUCCESS;
}

/* The PE/COFF specification has sections in ascending address order; checking each
 * against the end of the one before it finds every overlap in one pass. Empty sections
 * occupy nothing and are exempt. */
static EFI_STATUS check_sections(const void *file, size_t file_size,
				 const struct pe_image_info *info, const char **reason)
{
	UINT64 previous_end = 0;

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
		if (!mem_size)
			continue;
		if (sec.VirtualAddress < info->size_of_headers)
			return refuse(reason, "section overlaps the headers");
		if (sec.VirtualAddress < previous_end)
			return refuse(reason, "sections overlap or are out of order");
		previous_end = (UINT64)sec.VirtualAddress + mem_size;
	}
	return EFI_SUCCESS;
}

static void fill_info(const struct pe_headers *hdr, struct pe_image_info *info)
{
	const IMAGE_OPTIONAL_HEADER64 *opt = &hdr->optional;

	info->machine = hdr->file.Machine;
	info->subsystem = opt->Subsystem;
	info->characteristics = hdr->file.Characteristics;
	info->dll_characteristics = opt->DllCharacteristics;
	info->number_of_sections = hdr->file.NumberOfSections;
	info->image_base = opt->ImageBase;
	info->size_of_image = opt->SizeOfImage;
	info->size_of_headers = opt->SizeOfHeaders;
	info->entry_point_rva = opt->AddressOfEntryPoint;
	info->section_alignment = opt->SectionAlignment;
	info->file_alignment = opt->FileAlignment;
	info->pe_header_offset = hdr->pe_offset;
	/* check_layout() showed the table ends below SizeOfHeaders, so this fits 32 bits. */
	info->section_table_offset =
	    (UINT32)(hdr->pe_offset + PE_OPTIONAL_HEADER_OFFSET + hdr->file.SizeOfOptionalHeader);
	info->relocs_stripped = (hdr->file.Characteristics & IMAGE_FILE_RELOCS_STRIPPED) != 0;
}

static bool directory_inside(const IMAGE_DATA_DIRECTORY *dir, UINT32 size_of_image)
{
	return (UINT64)dir->VirtualAddress + dir->Size <= size_of_image;
}

/* The entry point must be code past the headers. The relocation directory must lie in
 * the image; a debug directory that does not is merely ignored. */
static EFI_STATUS check_entry_and_directories(const struct pe_headers *hdr,
					      struct pe_image_info *info, const char **reason)
{
	const IMAGE_DATA_DIRECTORY *reloc =
	    &hdr->optional.DataDirectory[IMAGE_DIRECTORY_ENTRY_BASERELOC];
	const IMAGE_DATA_DIRECTORY *debug =
	    &hdr->optional.DataDirectory[IMAGE_DIRECTORY_ENTRY_DEBUG];

	if (info->entry_point_rva < info->size_of_headers ||
	    info->entry_point_rva >= info->size_of_image)
		return refuse(reason, "entry point outside the image");
	if (reloc->Size) {
		if (!directory_inside(reloc, info->size_of_image))
			return refuse(reason, "relocation directory outside the image");
		info->reloc_rva = reloc->VirtualAddress;
		info->reloc_size = reloc->Size;
	}
	if (debug->Size && directory_inside(debug, info->size_of_image)) {
		info->debug_rva = debug->VirtualAddress;
		info->debug_size = debug->Size;
	}
	return EFI_SUCCESS;
}

/* Validates the headers and section table of a file image and fills *info. */
EFI_STATUS pe_parse(const void *file, size_t file_size, struct pe_image_info *info,
		    const char **reason)
{
	const char *ignored;
	struct pe_headers hdr;
	EFI_STATUS status;

	if (!reason)
		reason = &ignored;
	mem_set(info, 0, sizeof(*info));
	status = pe_read_headers(file, file_size, &hdr, info->reason_text, reason);
	if (EFI_ERROR(status))
		goto refused;
	status = check_subsystem(hdr.optional.Subsystem, info, reason);
	if (EFI_ERROR(status))
		goto refused;
	status = check_layout(&hdr, file_size, reason);
	if (EFI_ERROR(status))
		goto refused;
	fill_info(&hdr, info);
	status = check_sections(file, file_size, info, reason);
	if (EFI_ERROR(status))
		goto refused;
	status = check_entry_and_directories(&hdr, info, reason);
	if (EFI_ERROR(status))
		goto refused;
	return EFI_SUCCESS;

refused:
	/* Each check's reason names the rule that failed. */
	log_debug("%llu-byte file refused: %s: %r\n", (unsigned long long)file_size, *reason,
		  status);
	return status;
}
