/* A loaded image's pages get their protection: code read-only and executable, headers and
 * data non-executable, when its sections lie on pages of their own (pe_code_ranges).
 * Other images run as before, on pages of their code type. FreePages gives the pages
 * their type's protection back when the image goes (core/mem/protect.c). */
#define LOG_PREFIX "image: "
#include "image.h"
#include <ember/core/log.h>

#define MAX_CODE_RANGES 16

void image_protect(struct image *img)
{
	struct pe_range code[MAX_CODE_RANGES];
	int n;
	EFI_STATUS status;

	if (!mem_protection_enabled())
		return;
	n = pe_code_ranges((void *)(uintptr_t)img->pages_base, &img->pe, code, MAX_CODE_RANGES);
	if (n < 0) {
		log_debug("%s runs unprotected (SectionAlignment 0x%x)\n", img->name,
			  img->pe.section_alignment);
		return;
	}
	status = mem_protect(img->pages_base, img->pages, EFI_MEMORY_XP, EFI_MEMORY_RO);
	for (int i = 0; i < n && !EFI_ERROR(status); i++)
		status = mem_protect(img->pages_base + code[i].rva, code[i].size >> EFI_PAGE_SHIFT,
				     EFI_MEMORY_RO, EFI_MEMORY_XP);
	if (EFI_ERROR(status))
		log_warn("Ember: protecting %s: %r\n", img->name, status);
}
