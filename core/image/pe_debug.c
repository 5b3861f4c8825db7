/* The CodeView debug entry of a loaded PE32+ image, which names the program's PDB (or,
 * for images made from ELF, the debug file): crash reports print it. The loaded image is
 * as untrusted as the file it came from, so its headers are read with the same checks. */
#include "pe_format.h"

/* Offset of the path in each CodeView record: RSDS has a GUID and an age before it, NB10
 * an offset, a time stamp and an age. */
#define RSDS_NAME_OFFSET 24
#define NB10_NAME_OFFSET 16

static const char *codeview_name(const UINT8 *image, UINT32 image_size,
				 const IMAGE_DEBUG_DIRECTORY *entry)
{
	UINT32 rva = entry->AddressOfRawData, size = entry->SizeOfData, signature, name;

	/* Debug data outside any section is not loaded: AddressOfRawData is then 0. */
	if (!rva || (UINT64)rva + size > image_size || size < sizeof(signature))
		return NULL;
	mem_copy(&signature, image + rva, sizeof(signature));
	if (signature == CODEVIEW_SIGNATURE_RSDS)
		name = RSDS_NAME_OFFSET;
	else if (signature == CODEVIEW_SIGNATURE_NB10)
		name = NB10_NAME_OFFSET;
	else
		return NULL;
	for (UINT32 at = name; at < size; at++) {
		if (!image[rva + at])
			return at > name ? (const char *)image + rva + name : NULL;
	}
	return NULL;
}

/* The PDB path of a loaded image's CodeView debug entry, or NULL. */
const char *pe_debug_name(const void *image, UINT32 image_size)
{
	char reason_text[PE_REASON_TEXT_SIZE];
	const char *reason;
	struct pe_headers hdr;
	const IMAGE_DATA_DIRECTORY *dir;

	if (!image || EFI_ERROR(pe_read_headers(image, image_size, &hdr, reason_text, &reason)))
		return NULL;
	dir = &hdr.optional.DataDirectory[IMAGE_DIRECTORY_ENTRY_DEBUG];
	for (UINT32 at = 0; dir->Size - at >= sizeof(IMAGE_DEBUG_DIRECTORY);
	     at += sizeof(IMAGE_DEBUG_DIRECTORY)) {
		IMAGE_DEBUG_DIRECTORY entry;
		const char *name;

		if (!pe_read(image, image_size, (UINT64)dir->VirtualAddress + at, &entry,
			     sizeof(entry)))
			return NULL;
		if (entry.Type != IMAGE_DEBUG_TYPE_CODEVIEW)
			continue;
		name = codeview_name(image, image_size, &entry);
		if (name)
			return name;
	}
	return NULL;
}
