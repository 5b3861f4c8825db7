/* File-system names for ember-run: fs0:, fs1: ... are the SimpleFileSystem volumes on the
 * devices given on the command line (--esp and --disk, in the order given), and within one
 * device in partition order (the whole disk first, then HD() partition numbers, then CDROM()
 * boot entries). `ember-run 'fs0:\EFI\BOOT\BOOTX64.EFI'` loads a program from such a volume
 * through a device path, as a boot manager would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosted.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/guids.h>

#define MAX_VOLUMES 256
#define NOT_A_PARTITION 0xffffffffu

struct volume {
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINT32 order; /* the position within its device */
};

static struct volume volumes[MAX_VOLUMES];
static UINT32 volume_count;

/* Where a volume comes within its device: the device itself first, then partitions. */
static UINT32 order_within(const EFI_DEVICE_PATH_PROTOCOL *rest)
{
	if (dp_is_end(rest))
		return 0;
	if (rest->Type == MEDIA_DEVICE_PATH && rest->SubType == MEDIA_HARDDRIVE_DP)
		return ((const HARDDRIVE_DEVICE_PATH *)rest)->PartitionNumber;
	if (rest->Type == MEDIA_DEVICE_PATH && rest->SubType == MEDIA_CDROM_DP)
		return 0x10000 + ((const CDROM_DEVICE_PATH *)rest)->BootEntry;
	return NOT_A_PARTITION;
}

static EFI_DEVICE_PATH_PROTOCOL *skip_prefix(EFI_DEVICE_PATH_PROTOCOL *path,
					     const EFI_DEVICE_PATH_PROTOCOL *prefix)
{
	return (EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)path + dp_size(prefix) - DP_END_SIZE);
}

/* Appends the volumes lying on device, sorted by their place within it. */
static void add_device_volumes(const EFI_DEVICE_PATH_PROTOCOL *device, EFI_HANDLE *handles,
			       UINTN count)
{
	UINT32 first = volume_count;

	for (UINTN i = 0; i < count && volume_count < MAX_VOLUMES; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		if (!handles[i] ||
		    EFI_ERROR(
			protocol_get(handles[i], &efi_device_path_protocol_guid, (void **)&path)) ||
		    !dp_starts_with(path, device))
			continue;
		volumes[volume_count++] =
		    (struct volume){handles[i], path, order_within(skip_prefix(path, device))};
		handles[i] = NULL; /* a volume belongs to the first device it lies on */
	}
	/* Insertion sort: a handful of volumes per device, and it keeps ties in order. */
	for (UINT32 i = first + 1; i < volume_count; i++)
		for (UINT32 j = i; j > first && volumes[j].order < volumes[j - 1].order; j--) {
			struct volume t = volumes[j];
			volumes[j] = volumes[j - 1];
			volumes[j - 1] = t;
		}
}

static void log_volumes(void)
{
	for (UINT32 i = 0; i < volume_count; i++) {
		CHAR16 *text = dp_to_text(volumes[i].path, true, true);
		log_info("ember-run: fs%u: %ls\n", i, text ? text : u"?");
		pool_free(text);
	}
}

void hosted_map_build(EFI_DEVICE_PATH_PROTOCOL *esp_path, UINT32 esp_position)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	volume_count = 0;
	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_simple_file_system_protocol_guid, NULL,
					   &count, &handles)))
		return;
	for (UINT32 i = 0; i <= hosted_disk_count(); i++) {
		if (esp_path && i == esp_position)
			add_device_volumes(esp_path, handles, count);
		if (i < hosted_disk_count() && hosted_disk_path(i))
			add_device_volumes(hosted_disk_path(i), handles, count);
	}
	pool_free(handles);
	log_volumes();
}

/* The N of "fsN:" at the start of name, and the rest after the colon; false otherwise. */
static bool parse_volume_name(const char *name, UINT32 *n, const char **rest)
{
	char *end;
	unsigned long v;

	if (strncasecmp(name, "fs", 2) || name[2] < '0' || name[2] > '9')
		return false;
	v = strtoul(name + 2, &end, 10);
	if (*end != ':' || v > MAX_VOLUMES)
		return false;
	*n = (UINT32)v;
	*rest = end + 1;
	return true;
}

EFI_DEVICE_PATH_PROTOCOL *hosted_map_file_path(const char *name)
{
	static CHAR16 path[4096];
	EFI_DEVICE_PATH_PROTOCOL *file, *full;
	const char *rest;
	UINT32 n;
	size_t units;

	if (!parse_volume_name(name, &n, &rest))
		return NULL;
	if (n >= volume_count) {
		fprintf(stderr, "ember-run: %s: there is no file system fs%u: (%u found)\n", name,
			n, volume_count);
		exit(2);
	}
	units = utf8_to_ucs2(path + 1, ARRAY_SIZE(path) - 1, rest, strlen(rest));
	path[0] = '\\';
	for (size_t i = 1; i <= units; i++)
		if (path[i] == '/')
			path[i] = '\\';
	file = dp_file_path(path[1] == '\\' ? path + 1 : path);
	full = file ? dp_append(volumes[n].path, file) : NULL;
	pool_free(file);
	return full;
}
