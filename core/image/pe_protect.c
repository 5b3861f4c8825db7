/* Which pages of a loaded image hold its code (pe_code_ranges): read from the section
 * table the loaded headers carry, so the loader can make code read-only and everything
 * else non-executable. Pure logic, bounded by the image's own size. */
#include "pe_format.h"
#include <ember/lib/util.h>

#define PAGE 4096u

static bool is_code(const IMAGE_SECTION_HEADER *sec)
{
	return sec->Characteristics & (IMAGE_SCN_CNT_CODE | IMAGE_SCN_MEM_EXECUTE);
}

int pe_code_ranges(const void *image, const struct pe_image_info *info, struct pe_range *code,
		   int max)
{
	int n = 0;

	/* Sections closer than a page share pages: no protection fits both. */
	if (info->section_alignment % PAGE)
		return -1;
	for (UINT32 i = 0; i < info->number_of_sections; i++) {
		UINT64 offset =
		    info->section_table_offset + (UINT64)i * sizeof(IMAGE_SECTION_HEADER);
		IMAGE_SECTION_HEADER sec;
		UINT32 mem_size, copy_size;
		UINT64 end;
		if (!pe_read(image, info->size_of_headers, offset, &sec, sizeof(sec)))
			return -1;
		pe_section_sizes(&sec, &mem_size, &copy_size);
		if (!is_code(&sec) || !mem_size)
			continue;
		if ((sec.Characteristics & IMAGE_SCN_MEM_WRITE) || n == max)
			return -1; /* code it writes to would fault */
		end = ALIGN_UP((UINT64)sec.VirtualAddress + mem_size, PAGE);
		if (sec.VirtualAddress % PAGE || end > ALIGN_UP(info->size_of_image, PAGE))
			return -1;
		code[n++] =
		    (struct pe_range){sec.VirtualAddress, (UINT32)(end - sec.VirtualAddress)};
	}
	return n;
}
