/* Fuzzes the device path text conversions and utilities with outside data.
 * The input is read twice: as UTF-16 text for dp_from_text/dp_node_from_text, and as a raw
 * binary path that dp_is_valid must vet before dp_to_text and the utilities see it.
 * Beyond memory safety it checks the spec's round-trip guarantee (10.6.1): any binary path
 * converted to (non-display) text parses back to identical bytes. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/core/core.h>
#include <ember/core/devpath.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

/* Binary -> text -> binary must give the same bytes (display_only false). */
static void check_round_trip(const EFI_DEVICE_PATH_PROTOCOL *path, bool shortcuts)
{
	UINTN size = dp_size(path);
	CHAR16 *text = dp_to_text(path, false, shortcuts);
	CHAR16 *shown = dp_to_text(path, true, shortcuts);
	EFI_DEVICE_PATH_PROTOCOL *back;

	if (!size || !text || !shown)
		abort();
	back = dp_from_text(text);
	if (!back || dp_size(back) != size || memcmp(back, path, size) != 0)
		abort();
	pool_free(back);
	pool_free(shown);
	pool_free(text);
}

/* Walks the utilities over a valid path and checks their sizes add up. */
static void exercise_utilities(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *copy = dp_dup(path), *cursor, *inst, *joined;
	UINTN size = dp_size(path), total = 0, inst_size;

	if (!copy)
		abort();
	for (cursor = copy; (inst = dp_next_instance(&cursor, &inst_size)) != NULL;) {
		total += inst_size;
		if (dp_size(inst) != inst_size || dp_is_multi_instance(inst))
			abort();
		pool_free(inst);
	}
	/* Each copy has its own End node where the original had an End Instance. */
	if (total != size)
		abort();
	joined = dp_append(path, copy);
	if (!joined || dp_size(joined) != 2 * size - DP_END_SIZE || !dp_starts_with(joined, path))
		abort();
	pool_free(joined);
	pool_free(copy);
}

static void fuzz_text(const CHAR16 *text)
{
	EFI_DEVICE_PATH_PROTOCOL *path = dp_from_text(text), *node;
	CHAR16 *shown;

	if (path) {
		if (!dp_is_valid(path, dp_size(path)))
			abort();
		check_round_trip(path, true);
		check_round_trip(path, false);
		exercise_utilities(path);
		pool_free(path);
	}
	node = dp_node_from_text(text);
	if (node) {
		shown = dp_node_to_text(node, false, true);
		if (!shown)
			abort();
		pool_free(shown);
		pool_free(node);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t units = size / sizeof(CHAR16);
	CHAR16 *text = malloc((units + 1) * sizeof(CHAR16));
	const EFI_DEVICE_PATH_PROTOCOL *raw = (const EFI_DEVICE_PATH_PROTOCOL *)data;

	if (!text)
		return 0;
	memcpy(text, data, units * sizeof(CHAR16));
	text[units] = 0;
	fuzz_text(text);
	free(text);

	if (size && dp_is_valid(raw, size)) {
		check_round_trip(raw, true);
		check_round_trip(raw, false);
		exercise_utilities(raw);
	}
	return 0;
}
