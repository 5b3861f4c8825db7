/* The HII package list of a loaded image (UEFI 2.10, 7.4 LoadImage): the data of the
 * resource directory entry named "HII", found by walking the image's resource directory
 * (PE/COFF ".rsrc": directory tables of 16 bytes with 8-byte entries; a set high bit makes
 * an entry's Name an offset of a counted UCS-2 name and its OffsetToData an offset of a
 * subdirectory; offsets are from the directory's start, the data entry's OffsetToData is
 * an RVA). Every offset is checked against the directory and the image. */
#include "pe_format.h"
#include <efi/protocol/hii_package_list.h>

#define RESOURCE_DIRECTORY_SIZE 16
#define RESOURCE_ENTRY_SIZE 8
#define RESOURCE_HIGH_BIT 0x80000000u
#define RESOURCE_MAX_DEPTH 4 /* type, name, language, and one more for leniency */

struct resource_dir {
	const UINT8 *base; /* the directory's bytes in the image */
	UINT32 size;
};

static bool read_u32(const struct resource_dir *dir, UINT32 off, UINT32 *out)
{
	return pe_read(dir->base, dir->size, off, out, sizeof(*out));
}

/* Whether entry's name is the counted UCS-2 string "HII". */
static bool entry_named_hii(const struct resource_dir *dir, UINT32 name)
{
	static const UINT16 hii[] = {3, 'H', 'I', 'I'};
	UINT16 text[4];

	if (!(name & RESOURCE_HIGH_BIT))
		return false;
	return pe_read(dir->base, dir->size, name & ~RESOURCE_HIGH_BIT, text, sizeof(text)) &&
	       !mem_cmp(text, hii, sizeof(hii));
}

/* The number of entries of the table at off, or -1 when the table lies outside. */
static long entry_count(const struct resource_dir *dir, UINT32 off)
{
	UINT16 counts[2];

	if (!pe_read(dir->base, dir->size, (UINT64)off + 12, counts, sizeof(counts)))
		return -1;
	return (long)counts[0] + counts[1];
}

/* Follows the first entry of each level below the "HII" entry to its data entry. */
static bool descend(const struct resource_dir *dir, UINT32 target, UINT32 *data_entry)
{
	for (int depth = 0; depth < RESOURCE_MAX_DEPTH; depth++) {
		UINT32 table = target & ~RESOURCE_HIGH_BIT, first;

		if (!(target & RESOURCE_HIGH_BIT)) {
			*data_entry = target;
			return true;
		}
		if (entry_count(dir, table) < 1 ||
		    !read_u32(dir, table + RESOURCE_DIRECTORY_SIZE + 4, &first))
			return false;
		target = first;
	}
	return false;
}

/* The data entry of the root's entry named "HII", if any. */
static bool find_hii_entry(const struct resource_dir *dir, UINT32 *data_entry)
{
	long count = entry_count(dir, 0);

	for (long i = 0; i < count; i++) {
		UINT32 at = RESOURCE_DIRECTORY_SIZE + (UINT32)i * RESOURCE_ENTRY_SIZE, name, target;

		if (!read_u32(dir, at, &name) || !read_u32(dir, at + 4, &target))
			return false;
		if (entry_named_hii(dir, name))
			return descend(dir, target, data_entry);
	}
	return false;
}

/* Where a loaded image's HII package list lies: true with its RVA and size. */
bool pe_hii_resource(const void *image, UINT32 image_size, UINT32 *rva, UINT32 *size)
{
	char reason_text[PE_REASON_TEXT_SIZE];
	const char *reason;
	struct pe_headers hdr;
	const IMAGE_DATA_DIRECTORY *res;
	struct resource_dir dir;
	UINT32 entry, data[2];

	if (!image || EFI_ERROR(pe_read_headers(image, image_size, &hdr, reason_text, &reason)))
		return false;
	res = &hdr.optional.DataDirectory[IMAGE_DIRECTORY_ENTRY_RESOURCE];
	if (!res->VirtualAddress || !res->Size || res->VirtualAddress > image_size ||
	    res->Size > image_size - res->VirtualAddress)
		return false;
	dir = (struct resource_dir){(const UINT8 *)image + res->VirtualAddress, res->Size};
	if (!find_hii_entry(&dir, &entry) ||
	    !pe_read(dir.base, dir.size, entry, data, sizeof(data)))
		return false;
	if (data[0] > image_size || data[1] > image_size - data[0] ||
	    data[1] < sizeof(EFI_HII_PACKAGE_LIST_HEADER))
		return false;
	*rva = data[0];
	*size = data[1];
	return true;
}
