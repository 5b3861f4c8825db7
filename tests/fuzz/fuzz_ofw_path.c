/* Fuzzes dp_from_ofw (core/devpath/from_ofw.c), which reads QEMU's fw_cfg "bootorder": the
 * input is that file, one OpenFirmware path per line. What comes out must be a valid
 * device path that starts with PciRoot(0x0) and converts to text. */
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

static void check(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	static const UINT8 pci_root[] = {ACPI_DEVICE_PATH, ACPI_DP, sizeof(ACPI_HID_DEVICE_PATH),
					 0};
	CHAR16 *text;

	if (!dp_is_valid(path, dp_size(path)) || memcmp(path, pci_root, sizeof(pci_root)) != 0)
		abort();
	text = dp_to_text(path, false, false);
	if (!text)
		abort();
	pool_free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly the input, so reads past it are caught. */
	char *text = malloc(size ? size : 1);
	const char *line, *end;

	if (!text)
		return 0;
	memcpy(text, data, size);
	for (line = text; line < text + size; line = end + 1) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		for (end = line; end < text + size && *end != '\n'; end++)
			;
		path = dp_from_ofw(line, end);
		if (path) {
			check(path);
			pool_free(path);
		}
	}
	free(text);
	return 0;
}
