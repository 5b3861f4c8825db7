/* Fuzzes the firmware volume reader (lib/fv.c, lib/fv_section.c, lib/depex.c): any bytes as
 * a volume, copied to a buffer of exactly their size so a read past it is caught; every
 * file is walked, every section type searched for (into compression and GUID-defined
 * sections), and every DXE_DEPEX section checked and, when well-formed, evaluated. The
 * corpus holds real volumes: empty, with plain and compressed driver files, and the volume
 * of Ember's firmware image with rEFInd's ext4 driver added by ember-fw. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/lib/fv.h>

static void *fuzz_alloc(void *ctx, size_t size)
{
	/* The decoder's sizes come from the input: keep the fuzzer's memory bounded. */
	return size > (16u << 20) ? NULL : malloc(size);
}

static void fuzz_release(void *ctx, void *block)
{
	free(block);
}

static bool any_guid(void *ctx, const EFI_GUID *guid)
{
	return guid->Data1 & 1;
}

static void sections_of(const struct fv_file *f)
{
	static const struct fv_memory heap = {fuzz_alloc, fuzz_release, NULL};
	static const uint8_t types[] = {EFI_SECTION_PE32, EFI_SECTION_USER_INTERFACE,
					EFI_SECTION_DXE_DEPEX, EFI_SECTION_VERSION, 0x42};
	struct fv_found found;
	enum depex_kind kind;
	EFI_GUID target;

	for (size_t i = 0; i < sizeof(types); i++) {
		for (size_t instance = 0; instance < 2; instance++) {
			if (fv_find_section(f->data, f->data_size, types[i], instance, &heap,
					    &found))
				break;
			if (types[i] == EFI_SECTION_DXE_DEPEX &&
			    !depex_check(found.section.data, found.section.data_size, &kind,
					 &target))
				depex_eval(found.section.data, found.section.data_size, any_guid,
					   NULL);
			free(found.owned);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct fv_volume vol;
	struct fv_file f;
	size_t offset;
	const char *why;
	enum fv_walk walk;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (!fv_open(&vol, copy, size)) {
		offset = vol.files_start;
		while ((walk = fv_next_file(&vol, &offset, &f, &why)) != FV_WALK_END &&
		       walk != FV_WALK_BROKEN)
			if (walk == FV_WALK_FILE)
				sections_of(&f);
	}
	/* The same bytes as a depex alone. */
	{
		enum depex_kind kind;
		EFI_GUID target;
		if (!depex_check(copy, size, &kind, &target))
			depex_eval(copy, size, any_guid, NULL);
	}
	free(copy);
	return 0;
}
