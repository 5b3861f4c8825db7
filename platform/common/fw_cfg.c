/* fw_cfg's items and file directory over the platform's transport (see fw_cfg.h). */
#define LOG_PREFIX "fw_cfg: "
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "fw_cfg.h"

void fw_cfg_read(uint16_t select, void *buffer, uint32_t size)
{
	fw_cfg_read_at(select, 0, buffer, size);
}

bool fw_cfg_write(uint16_t select, const void *buffer, uint32_t size)
{
	return fw_cfg_write_at(select, 0, buffer, size);
}

uint16_t fw_cfg_read16(uint16_t select)
{
	uint16_t v = 0;

	fw_cfg_read(select, &v, sizeof(v));
	return v;
}

uint32_t fw_cfg_read32(uint16_t select)
{
	uint32_t v = 0;

	fw_cfg_read(select, &v, sizeof(v));
	return v;
}

uint64_t fw_cfg_read64(uint16_t select)
{
	uint64_t v = 0;

	fw_cfg_read(select, &v, sizeof(v));
	return v;
}

/* The directory: a big-endian count, then 64-byte entries {size, select, reserved, name}.
 * Read once, in one transfer; QEMU's directory does not change while the machine runs. */
struct dir_entry {
	uint32_t size;
	uint16_t select;
	uint16_t reserved;
	char name[56];
};
#define MAX_DIR_ENTRIES 256
static struct dir_entry directory[MAX_DIR_ENTRIES];
static uint32_t directory_count;
static bool directory_read;

static void read_directory(void)
{
	fw_cfg_read(FW_CFG_FILE_DIR, &directory_count, sizeof(directory_count));
	directory_count = __builtin_bswap32(directory_count);
	if (directory_count > MAX_DIR_ENTRIES) {
		log_debug("%u files: only the first %u are looked at\n", directory_count,
			  MAX_DIR_ENTRIES);
		directory_count = MAX_DIR_ENTRIES;
	}
	fw_cfg_read_at(FW_CFG_FILE_DIR, sizeof(directory_count), directory,
		       directory_count * (uint32_t)sizeof(directory[0]));
	directory_read = true;
}

bool fw_cfg_find(const char *name, uint16_t *select, uint32_t *size)
{
	if (!fw_cfg_present())
		return false;
	if (!directory_read)
		read_directory();
	for (uint32_t i = 0; i < directory_count; i++) {
		directory[i].name[sizeof(directory[i].name) - 1] = 0;
		if (str8_cmp(directory[i].name, name) == 0) {
			*select = __builtin_bswap16(directory[i].select);
			*size = __builtin_bswap32(directory[i].size);
			return true;
		}
	}
	return false;
}
