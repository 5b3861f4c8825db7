/* The first form set of an exported package list (apps/setup/pure/form_set_info.h). */
#include "form_set_info.h"
#include <efi/hii_ifr.h>
#include <efi/protocol/hii_package_list.h>
#include <ember/lib/str.h>

#define LIST_HEADER 20	 /* EFI_HII_PACKAGE_LIST_HEADER: GUID, UINT32 length */
#define PACKAGE_HEADER 4 /* EFI_HII_PACKAGE_HEADER: 24-bit length, 8-bit type */
#define FORM_SET_MIN 22	 /* opcode header, GUID, title and help string ids */

static UINT32 read32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

/* The form set opcode among a forms package's opcodes, which end at end. */
static bool find_in_forms(const UINT8 *op, const UINT8 *end, struct form_set_info *out)
{
	while (end - op >= 2) {
		UINT8 length = op[1] & 0x7f;

		if (length < 2 || length > end - op)
			return false;
		if (op[0] == EFI_IFR_FORM_SET_OP) {
			if (length < FORM_SET_MIN)
				return false;
			mem_copy(&out->guid, op + 2, sizeof(out->guid));
			out->title = (EFI_STRING_ID)(op[18] | op[19] << 8);
			return true;
		}
		op += length;
	}
	return false;
}

bool form_set_info(const UINT8 *list, size_t size, struct form_set_info *out)
{
	size_t at = LIST_HEADER, list_size;

	if (size < LIST_HEADER)
		return false;
	list_size = read32(list + 16);
	if (list_size < LIST_HEADER || list_size > size)
		return false;
	while (list_size - at >= PACKAGE_HEADER) {
		UINT32 header = read32(list + at);
		size_t length = header & 0xffffff;
		UINT8 type = (UINT8)(header >> 24);

		if (length < PACKAGE_HEADER || length > list_size - at ||
		    type == EFI_HII_PACKAGE_END)
			return false;
		if (type == EFI_HII_PACKAGE_FORMS)
			return find_in_forms(list + at + PACKAGE_HEADER, list + at + length, out);
		at += length;
	}
	return false;
}
