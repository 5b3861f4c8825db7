/* Fuzzes the HII package checks and the string-block walk (core/hii/package_check.c,
 * core/hii/string_blocks.c): the input as a package list (what NewPackageList and a
 * loaded image's resource section hand over) and, whole, as string blocks. For a list the
 * checks accept, every string of every string package is found and decoded, and a
 * string found must lie inside the input. The list then goes through the protocols: a
 * string added and one changed in its first language (core/hii/string_edit.c rebuilds
 * the packages), and what ExportPackageLists gives back must pass the checks again. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdlib.h>
#include <string.h>

#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/core/hii_packages.h>
#include <ember/lib/guids.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/hii_string.h>

static EFI_HII_DATABASE_PROTOCOL *db;
static EFI_HII_STRING_PROTOCOL *strings;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	if (EFI_ERROR(hii_publish()) ||
	    EFI_ERROR(protocol_locate(&efi_hii_database_protocol_guid, (void **)&db)) ||
	    EFI_ERROR(protocol_locate(&efi_hii_string_protocol_guid, (void **)&strings)))
		abort();
	return 0;
}

/* Edits the strings of the first language and checks the exported result. */
static void edit_and_export(EFI_HII_HANDLE h)
{
	static CHAR16 text[] = {'f', 'u', 'z', 'z', 0};
	char languages[64], *end;
	UINTN size = sizeof(languages);
	EFI_STRING_ID id;
	void *out;

	if (strings->GetLanguages(strings, h, languages, &size) == EFI_SUCCESS && languages[0]) {
		end = strchr(languages, ';');
		if (end)
			*end = 0;
		strings->NewString(strings, h, &id, languages, NULL, text, NULL);
		strings->SetString(strings, h, 1, languages, text, NULL);
	}
	size = 0;
	if (db->ExportPackageLists(db, h, &size, NULL) != EFI_BUFFER_TOO_SMALL)
		abort();
	out = malloc(size);
	if (!out || db->ExportPackageLists(db, h, &size, out) != EFI_SUCCESS ||
	    hii_package_list_check(out, size))
		abort();
	free(out);
}

static void through_protocols(const UINT8 *p)
{
	EFI_HII_HANDLE h;

	if (db->NewPackageList(db, (const EFI_HII_PACKAGE_LIST_HEADER *)p, NULL, &h))
		abort(); /* the checks accepted it */
	edit_and_export(h);
	if (db->RemovePackageList(db, h))
		abort();
}

static void strings_of(const UINT8 *blocks, size_t size, const UINT8 *input, size_t input_size)
{
	EFI_STRING_ID last = 0;
	CHAR16 out[64];

	if (hii_string_blocks_walk(blocks, size, NULL, NULL, &last))
		return;
	for (UINT32 id = 1; id <= last; id++) {
		struct hii_string_ref ref;

		if (!hii_string_find(blocks, size, (EFI_STRING_ID)id, &ref))
			continue;
		if (ref.text < input || ref.text + ref.bytes > input + input_size)
			abort();
		hii_string_decode(&ref, out, 64);
	}
}

static void list_of(const UINT8 *p, size_t size)
{
	UINT32 length;

	if (hii_package_list_check(p, size))
		return;
	memcpy(&length, p + 16, sizeof(length));
	for (UINT32 at = sizeof(EFI_HII_PACKAGE_LIST_HEADER); at < length;
	     at += hii_package_length(p + at)) {
		size_t blocks_size;
		const UINT8 *blocks;

		if (hii_package_type(p + at) != EFI_HII_PACKAGE_STRINGS)
			continue;
		blocks = hii_string_package_blocks(p + at, &blocks_size);
		hii_string_package_language(p + at);
		strings_of(blocks, blocks_size, p, size);
	}
	through_protocols(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	/* Exactly the input's bytes, so that reads past them are caught. */
	memcpy(copy, data, size);
	list_of(copy, size);
	strings_of(copy, size, copy, size);
	free(copy);
	return 0;
}
