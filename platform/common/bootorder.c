/* QEMU's boot order (`bootindex=` on devices, -boot order=): fw_cfg "bootorder" lists the
 * devices as OpenFirmware paths, first choice first; each becomes a device path prefix
 * (dp_from_ofw), and a boot option's rank is the first entry whose prefix its path starts
 * with. */
#define LOG_PREFIX "bootorder: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "bootorder.h"
#include "fw_cfg.h"

#define MAX_ENTRIES 32

static EFI_DEVICE_PATH_PROTOCOL *prefixes[MAX_ENTRIES];
static int prefix_count;
static bool loaded;

static void load(void)
{
	uint16_t select;
	uint32_t size;
	char *text;

	loaded = true;
	if (!fw_cfg_find("bootorder", &select, &size) || !size) {
		log_debug("no bootorder from QEMU\n");
		return;
	}
	text = pool_alloc((UINTN)size + 1); /* UINTN: a size of 2^32 - 1 must not wrap */
	if (!text) {
		log_debug("no memory for %u bytes of bootorder\n", size);
		return;
	}
	fw_cfg_read(select, text, size);
	for (char *line = text, *end; line < text + size; line = end + 1) {
		for (end = line; end < text + size && *end != '\n' && *end; end++)
			;
		if (prefix_count == MAX_ENTRIES) {
			log_debug("more than %u devices: \"%.*s\" and after it left out\n",
				  MAX_ENTRIES, (int)(end - line), line);
			break;
		}
		prefixes[prefix_count] = dp_from_ofw(line, end);
		if (prefixes[prefix_count])
			prefix_count++; /* else dp_from_ofw said why */
	}
	pool_free(text);
}

int qemu_boot_rank(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	if (!loaded)
		load();
	for (int i = 0; i < prefix_count; i++)
		if (dp_starts_with(path, prefixes[i]))
			return i;
	return -1;
}
