/* Fuzzes the NVMe driver's Identify parsers (drivers/nvme/nvme_identify.c) with what a
 * controller could send: the first byte picks the parser (controller, namespace, active
 * namespace list), the rest is the data, of any length. Whatever comes, a parser reads only
 * what it was given, and what it accepts must be usable: a block size from 512 to 64 KiB
 * whose bytes fit in 64 bits, namespace IDs rising and within NN. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdlib.h>
#include <string.h>

#include "../../drivers/nvme/nvme_identify.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

static void check_namespace(const uint8_t *data, size_t size)
{
	struct nvme_ns_info info;

	if (EFI_ERROR(nvme_parse_namespace(data, size, &info)))
		return;
	if (info.block_shift < 9 || info.block_shift > 16 || !info.blocks ||
	    info.blocks >> (64 - info.block_shift))
		abort();
}

static void check_list(const uint8_t *data, size_t size)
{
	UINT32 ids[64], count, largest = size ? data[0] : 0;

	if (EFI_ERROR(nvme_parse_ns_list(data, size, 0, largest, ids, 64, &count)))
		return;
	if (count > 64 || count > size / 4)
		abort();
	for (UINT32 i = 0; i < count; i++)
		if (!ids[i] || (i && ids[i] <= ids[i - 1]) || (largest && ids[i] > largest))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvme_ctrl_info ctrl;
	uint8_t *copy;

	if (!size)
		return 0;
	/* An exact-size copy, so that ASan sees any read past the end. */
	copy = malloc(size - 1 ? size - 1 : 1);
	memcpy(copy, data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		if (!EFI_ERROR(nvme_parse_controller(copy, size - 1, &ctrl)) &&
		    strlen(ctrl.model) > 40)
			abort();
		break;
	case 1:
		check_namespace(copy, size - 1);
		break;
	default:
		check_list(copy, size - 1);
		break;
	}
	free(copy);
	return 0;
}
