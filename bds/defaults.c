/* Default boot options (UEFI 2.10, 3.4.1.1 removable media): one for each file system
 * that holds \EFI\BOOT\BOOTX64.EFI and one for each device with EFI_LOAD_FILE_PROTOCOL
 * (network boot, 3.1.2), marked as Ember's own by a GUID in its OptionalData so
 * that Ember can later remove the ones whose device is gone without ever touching options
 * an OS or a user wrote. Then the platform's preference (QEMU's bootindex) orders them. */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/devpath.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/format.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/guids.h>

/* OptionalData of the options Ember creates itself. */
static const EFI_GUID auto_option_guid = {
    0x3b7f1d2e, 0x86c4, 0x4a19, {0x9e, 0x52, 0x0d, 0x6a, 0x21, 0xf4, 0xb8, 0x37}};

bool bds_is_auto_option(const struct load_option *lo)
{
	return lo->optional_size == sizeof(EFI_GUID) &&
	       mem_cmp(lo->optional_data, &auto_option_guid, sizeof(EFI_GUID)) == 0;
}

static bool has_removable_file(EFI_HANDLE fs)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root, *file;
	bool found = false;

	if (EFI_ERROR(protocol_get(fs, &efi_simple_file_system_protocol_guid, (void **)&sfs)) ||
	    EFI_ERROR(sfs->OpenVolume(sfs, &root)))
		return false;
	if (!EFI_ERROR(
		root->Open(root, &file, (CHAR16 *)bds_removable_path, EFI_FILE_MODE_READ, 0))) {
		found = true;
		file->Close(file);
	}
	root->Close(root);
	return found;
}

/* The auto option for a device path, if there is one in the order. */
static bool auto_option_exists(const UINT16 *order, UINTN count,
			       const EFI_DEVICE_PATH_PROTOCOL *path)
{
	bool found = false;

	for (UINTN i = 0; i < count && !found; i++) {
		struct bds_option o;
		if (!bds_option_read(u"Boot", order[i], &o))
			continue;
		found = bds_is_auto_option(&o.lo) && dp_size(o.lo.file_path) == dp_size(path) &&
			mem_cmp(o.lo.file_path, path, dp_size(path)) == 0;
		bds_option_free(&o);
	}
	return found;
}

/* The last node of a path, NULL for an empty one. */
static const EFI_DEVICE_PATH_PROTOCOL *last_node(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	const EFI_DEVICE_PATH_PROTOCOL *last = NULL;

	for (; !dp_is_end(path); path = dp_next(path))
		last = path;
	return last;
}

/* The path's MAC() node, NULL when it has none. */
static const MAC_ADDR_DEVICE_PATH *mac_node(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	for (; !dp_is_end(path); path = dp_next(path))
		if (path->Type == MESSAGING_DEVICE_PATH && path->SubType == MSG_MAC_ADDR_DP &&
		    dp_node_length(path) >= sizeof(MAC_ADDR_DEVICE_PATH))
			return (const MAC_ADDR_DEVICE_PATH *)path;
	return NULL;
}

/* "UEFI PXEv4 (MAC:525400123456)" for a network device, "UEFI HTTPv4 (MAC:...)" for its
 * HTTP boot child (.../Uri()), as OVMF names them; otherwise "UEFI " and the path's text. */
static void describe(EFI_DEVICE_PATH_PROTOCOL *path, char *utf8, UINTN size)
{
	const EFI_DEVICE_PATH_PROTOCOL *last = last_node(path);
	const MAC_ADDR_DEVICE_PATH *mac = mac_node(path);
	bool uri = last && last->Type == MESSAGING_DEVICE_PATH && last->SubType == MSG_URI_DP;
	CHAR16 *text;
	UINTN n;

	if (mac && (last == &mac->Header || uri)) {
		n = format_sn(utf8, size, uri ? "UEFI HTTPv4 (MAC:" : "UEFI PXEv4 (MAC:");
		for (int i = 0; i < 6 && n < size; i++)
			n += format_sn(utf8 + n, size - n, "%02X", mac->MacAddress.Addr[i]);
		if (n < size)
			format_sn(utf8 + n, size - n, ")");
		return;
	}
	text = dp_to_text(path, true, true);
	format_sn(utf8, size, "UEFI %ls", text ? text : u"device");
	pool_free(text);
}

static void add_auto_option(EFI_DEVICE_PATH_PROTOCOL *path, UINT16 **order, UINTN *count)
{
	CHAR16 description[96];
	char utf8[192];
	struct load_option lo;
	UINT16 number, *bigger;

	describe(path, utf8, sizeof(utf8));
	utf8_to_ucs2(description, ARRAY_SIZE(description), utf8, str8_len(utf8));
	lo = (struct load_option){LOAD_OPTION_ACTIVE,	   description,
				  str16_size(description), path,
				  (UINT16)dp_size(path),   (const UINT8 *)&auto_option_guid,
				  sizeof(auto_option_guid)};
	if (EFI_ERROR(bds_option_create(u"Boot", &lo, &number)))
		return; /* bds_option_create said why */
	bigger = pool_alloc((*count + 1) * sizeof(UINT16));
	if (!bigger) {
		log_debug("no memory for BootOrder with Boot%04X\n", number);
		return;
	}
	mem_copy(bigger, *order, *count * sizeof(UINT16));
	bigger[(*count)++] = number;
	pool_free(*order);
	*order = bigger;
	log_info("new boot option Boot%04X: %ls\n", number, description);
}

/* The file system whose device path is exactly path still has the removable file. */
static bool still_bootable(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = (EFI_DEVICE_PATH_PROTOCOL *)path;
	EFI_HANDLE fs;

	if (bds_is_load_file_device(path))
		return true;
	return !EFI_ERROR(
		   handle_locate_device_path(&efi_simple_file_system_protocol_guid, &rest, &fs)) &&
	       dp_is_end(rest) && has_removable_file(fs);
}

/* An option for each device that boots through LoadFile (network boot). */
static void add_load_file_options(UINT16 **order, UINTN *count)
{
	EFI_HANDLE *handles;
	UINTN n;

	if (EFI_ERROR(
		handle_locate_buffer(ByProtocol, &efi_load_file_protocol_guid, NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		if (EFI_ERROR(
			protocol_get(handles[i], &efi_device_path_protocol_guid, (void **)&path)) ||
		    auto_option_exists(*order, *count, path))
			continue;
		add_auto_option(path, order, count);
	}
	pool_free(handles);
}

/* Auto options whose device is gone, or whose file is, go away. */
static void remove_stale(UINT16 *order, UINTN *count)
{
	UINTN kept = 0;

	for (UINTN i = 0; i < *count; i++) {
		struct bds_option o;
		bool stale = false;
		if (bds_option_read(u"Boot", order[i], &o)) {
			stale = bds_is_auto_option(&o.lo) && !still_bootable(o.lo.file_path);
			bds_option_free(&o);
		}
		if (stale)
			bds_option_delete(u"Boot", order[i]);
		else
			order[kept++] = order[i];
	}
	*count = kept;
}

/* The platform's ranks first (lower first), the rest after them in their order. */
static void apply_ranks(UINT16 *order, UINTN count,
			int (*rank_of)(const EFI_DEVICE_PATH_PROTOCOL *))
{
	int ranks[count ? count : 1];

	for (UINTN i = 0; i < count; i++) {
		struct bds_option o;
		ranks[i] = -1;
		if (bds_option_read(u"Boot", order[i], &o)) {
			ranks[i] = rank_of(o.lo.file_path);
			bds_option_free(&o);
		}
		if (ranks[i] < 0)
			ranks[i] = 0x7fffffff;
	}
	for (UINTN i = 1; i < count; i++) /* stable insertion sort: orders are short */
		for (UINTN j = i; j > 0 && ranks[j] < ranks[j - 1]; j--) {
			int r = ranks[j];
			UINT16 n = order[j];
			ranks[j] = ranks[j - 1], order[j] = order[j - 1];
			ranks[j - 1] = r, order[j - 1] = n;
		}
}

void bds_default_options(const struct bds_platform *platform)
{
	UINTN count, fs_count, old_count;
	UINT16 *order = bds_order_read(u"BootOrder", &count);
	UINT16 *old = order ? pool_dup(order, count * sizeof(UINT16)) : NULL;
	EFI_HANDLE *fs;

	old_count = old ? count : 0;

	remove_stale(order, &count);
	if (!EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_simple_file_system_protocol_guid, NULL,
					    &fs_count, &fs))) {
		for (UINTN i = 0; i < fs_count; i++) {
			EFI_DEVICE_PATH_PROTOCOL *path;
			if (EFI_ERROR(protocol_get(fs[i], &efi_device_path_protocol_guid,
						   (void **)&path)) ||
			    !has_removable_file(fs[i]) || auto_option_exists(order, count, path))
				continue;
			add_auto_option(path, &order, &count);
		}
		pool_free(fs);
	}
	add_load_file_options(&order, &count);
	if (platform && platform->boot_rank)
		apply_ranks(order, count, platform->boot_rank);
	/* Flash is written only when something changed. */
	if (count != old_count || (count && mem_cmp(order, old, count * sizeof(UINT16))))
		bds_order_write(u"BootOrder", order, count);
	pool_free(old);
	pool_free(order);
}
