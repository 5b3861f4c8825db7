/* From a load option's file path to the full device paths LoadImage can use (UEFI 2.10,
 * 3.1.2): a full path as it is, a path to a device as its removable-media file
 * (\EFI\BOOT\BOOTX64.EFI on each file system of that device), and the short forms: one that
 * starts with HD() matched against the partitions there are, one that is only a file path
 * tried on every file system. */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/arch.h>
#include <ember/lib/str.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/guids.h>

const CHAR16 bds_removable_path[] = ARCH_REMOVABLE_FILE;

static bool is_node(const EFI_DEVICE_PATH_PROTOCOL *node, UINT8 type, UINT8 subtype)
{
	return node->Type == type && node->SubType == subtype;
}

typedef bool (*path_match)(const EFI_DEVICE_PATH_PROTOCOL *handle_path, const void *arg);

/* Calls visit(handle's path + rest) for each handle with protocol whose path matches,
 * until visit says it is done. */
static bool for_each_handle(const EFI_GUID *protocol, path_match match, const void *arg,
			    const EFI_DEVICE_PATH_PROTOCOL *rest, bds_path_visitor visit, void *ctx)
{
	EFI_HANDLE *handles;
	UINTN count;
	bool done = false;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, protocol, NULL, &count, &handles)))
		return false;
	for (UINTN i = 0; i < count && !done; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path, *full;
		if (EFI_ERROR(
			protocol_get(handles[i], &efi_device_path_protocol_guid, (void **)&path)) ||
		    !match(path, arg))
			continue;
		full = dp_append(path, rest);
		if (full)
			done = visit(full, ctx);
		else
			log_debug("no memory for a full device path\n");
	}
	pool_free(handles);
	return done;
}

/* A partition whose path ends in the same HD() node. */
static bool match_hard_drive(const EFI_DEVICE_PATH_PROTOCOL *path, const void *arg)
{
	const EFI_DEVICE_PATH_PROTOCOL *hd = arg, *node;

	for (node = path; !dp_is_end(node); node = dp_next(node))
		if (is_node(node, MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP) &&
		    dp_node_length(node) == dp_node_length(hd) &&
		    mem_cmp(node, hd, dp_node_length(hd)) == 0 && dp_is_end(dp_next(node)))
			return true;
	return false;
}

static bool match_any(const EFI_DEVICE_PATH_PROTOCOL *path, const void *arg)
{
	return true;
}

/* File systems on the device the path names (the device itself, or its partitions). */
static bool match_below(const EFI_DEVICE_PATH_PROTOCOL *path, const void *arg)
{
	return dp_starts_with(path, arg);
}

static bool ends_in_file(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	const EFI_DEVICE_PATH_PROTOCOL *node, *last = NULL;

	for (node = path; !dp_is_end(node); node = dp_next(node))
		last = node;
	/* FvFile(): a file of a firmware volume (core/fv), a full path as it stands. */
	return last && (is_node(last, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP) ||
			is_node(last, MEDIA_DEVICE_PATH, MEDIA_PIWG_FW_FILE_DP));
}

/* A URL boot option (UEFI 2.10, 3.1.2 and 24.7): .../Uri(url) after a network device. */
static bool ends_in_uri(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	const EFI_DEVICE_PATH_PROTOCOL *node, *last = NULL;

	for (node = path; !dp_is_end(node); node = dp_next(node))
		last = node;
	return last && is_node(last, MESSAGING_DEVICE_PATH, MSG_URI_DP);
}

bool bds_is_load_file_device(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = (EFI_DEVICE_PATH_PROTOCOL *)path;
	EFI_HANDLE device;

	return !EFI_ERROR(
		   handle_locate_device_path(&efi_load_file_protocol_guid, &rest, &device)) &&
	       dp_is_end(rest);
}

void bds_expand_path(const EFI_DEVICE_PATH_PROTOCOL *path, bds_path_visitor visit, void *ctx)
{
	EFI_DEVICE_PATH_PROTOCOL *removable = dp_file_path(bds_removable_path);

	if (!removable) {
		log_debug("no memory for the removable-media path\n");
		goto out;
	}
	if (!dp_is_valid(path, 0)) {
		log_debug("the option's device path is malformed\n");
		goto out;
	}
	if (is_node(path, MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP)) {
		/* The partition handles have the HD() node last; the option's rest follows. */
		const EFI_DEVICE_PATH_PROTOCOL *rest = dp_next(path);
		for_each_handle(&efi_simple_file_system_protocol_guid, match_hard_drive, path,
				dp_is_end(rest) ? removable : rest, visit, ctx);
	} else if (is_node(path, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP)) {
		for_each_handle(&efi_simple_file_system_protocol_guid, match_any, NULL, path, visit,
				ctx);
	} else if (ends_in_file(path) || ends_in_uri(path) || bds_is_load_file_device(path)) {
		EFI_DEVICE_PATH_PROTOCOL *copy = dp_dup(path);
		if (copy)
			visit(copy, ctx);
		else
			log_debug("no memory for a copy of the device path\n");
	} else {
		for_each_handle(&efi_simple_file_system_protocol_guid, match_below, path, removable,
				visit, ctx);
	}
out:
	pool_free(removable);
}
