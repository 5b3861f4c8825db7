/* Text of media (10.6.1.7) and BIOS boot specification (10.6.1.8) device nodes. */
#include "devpath_internal.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define AT(T, f) (n + offsetof(T, f))

/* The Type,Signature pair of HD(): MBR or GPT, else a numeric Type that stands for the
 * signature type (as EDK2 reads it) with no partition format and no signature. False for
 * combinations the text cannot carry. */
static bool print_hd_signature(struct dp_out *o, const UINT8 *n)
{
	const UINT8 *sig = AT(HARDDRIVE_DEVICE_PATH, Signature);
	UINT8 format = *AT(HARDDRIVE_DEVICE_PATH, MBRType);
	UINT8 sig_type = *AT(HARDDRIVE_DEVICE_PATH, SignatureType);

	if (format == MBR_TYPE_PCAT && sig_type == SIGNATURE_TYPE_MBR) {
		if (!mem_is_zero(sig + 4, 12))
			return false;
		dp_out_printf(o, "MBR,0x%08X", (unsigned)dp_rd32(sig));
	} else if (format == MBR_TYPE_EFI_PARTITION_TABLE_HEADER &&
		   sig_type == SIGNATURE_TYPE_GUID) {
		dp_out_ascii(o, "GPT,");
		dp_out_guid(o, sig);
	} else if (format == 0 && sig_type != SIGNATURE_TYPE_MBR &&
		   sig_type != SIGNATURE_TYPE_GUID && mem_is_zero(sig, 16)) {
		dp_out_printf(o, "%u,0", sig_type);
	} else {
		return false;
	}
	return true;
}

static bool print_hd(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(HARDDRIVE_DEVICE_PATH))
		return false;
	dp_out_printf(o, "HD(%u,", (unsigned)dp_rd32(AT(HARDDRIVE_DEVICE_PATH, PartitionNumber)));
	if (!print_hd_signature(o, n))
		return false;
	if (o->display_only)
		dp_out_ascii(o, ")");
	else
		dp_out_printf(
		    o, ",0x%llX,0x%llX)",
		    (unsigned long long)dp_rd64(AT(HARDDRIVE_DEVICE_PATH, PartitionStart)),
		    (unsigned long long)dp_rd64(AT(HARDDRIVE_DEVICE_PATH, PartitionSize)));
	return true;
}

static bool print_cdrom(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(CDROM_DEVICE_PATH))
		return false;
	dp_out_printf(o, "CDROM(0x%X", (unsigned)dp_rd32(AT(CDROM_DEVICE_PATH, BootEntry)));
	if (o->display_only)
		dp_out_ascii(o, ")");
	else
		dp_out_printf(o, ",0x%llX,0x%llX)",
			      (unsigned long long)dp_rd64(AT(CDROM_DEVICE_PATH, PartitionStart)),
			      (unsigned long long)dp_rd64(AT(CDROM_DEVICE_PATH, PartitionSize)));
	return true;
}

static bool print_ven_media(struct dp_out *o, const UINT8 *n, UINTN len)
{
	return dp_print_vendor(o, n, len, "Media");
}

/* A file path is written as is; it must not read back as separators or a device node. */
static bool print_file_path(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *name = n + sizeof(EFI_DEVICE_PATH_PROTOCOL);
	UINTN chars, mark = o->buf.size;
	const CHAR16 *text;

	/* At least one character, then the terminator, which must end the node. */
	if (len < sizeof(EFI_DEVICE_PATH_PROTOCOL) + 4 || len % 2)
		return false;
	chars = (len - sizeof(EFI_DEVICE_PATH_PROTOCOL)) / 2 - 1;
	if (dp_rd16(name + 2 * chars))
		return false;
	for (UINTN i = 0; i < chars; i++) {
		CHAR16 c = dp_rd16(name + 2 * i);

		if (c == 0 || c == '/' || c == ',')
			return false;
		dp_out_char16(o, &c, 1);
	}
	if (o->buf.failed)
		return true;
	text = (const CHAR16 *)(o->buf.data + mark);
	return dp_text_raw_safe((const UINT8 *)text, chars, 2) && !dp_text_is_node(text, chars);
}

/* Media(), Fv() and FvFile(): a GUID alone. */
static bool print_guid_node(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const char *name = n[1] == MEDIA_PROTOCOL_DP	  ? "Media"
			   : n[1] == MEDIA_PIWG_FW_VOL_DP ? "Fv"
							  : "FvFile";

	if (len != sizeof(EFI_DEVICE_PATH_PROTOCOL) + sizeof(EFI_GUID))
		return false;
	dp_out_printf(o, "%s(", name);
	dp_out_guid(o, n + sizeof(EFI_DEVICE_PATH_PROTOCOL));
	dp_out_ascii(o, ")");
	return true;
}

static bool print_offset(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH) ||
	    dp_rd32(AT(MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH, Reserved)))
		return false;
	dp_out_printf(
	    o, "Offset(0x%llX,0x%llX)",
	    (unsigned long long)dp_rd64(
		AT(MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH, StartingOffset)),
	    (unsigned long long)dp_rd64(AT(MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH, EndingOffset)));
	return true;
}

static bool print_ram_disk(struct dp_out *o, const UINT8 *n, UINTN len)
{
	static const struct {
		const EFI_GUID *guid;
		const char *name;
	} kinds[] = {
	    {&efi_virtual_disk_guid, "VirtualDisk"},
	    {&efi_virtual_cd_guid, "VirtualCD"},
	    {&efi_persistent_virtual_disk_guid, "PersistentVirtualDisk"},
	    {&efi_persistent_virtual_cd_guid, "PersistentVirtualCD"},
	};
	const UINT8 *type = AT(MEDIA_RAM_DISK_DEVICE_PATH, TypeGuid);
	const char *name = NULL;

	if (len != sizeof(MEDIA_RAM_DISK_DEVICE_PATH))
		return false;
	for (UINTN i = 0; i < ARRAY_SIZE(kinds) && !name; i++)
		if (dp_guid_is(type, kinds[i].guid))
			name = kinds[i].name;
	dp_out_printf(o, "%s(0x%llX,0x%llX,%u", name ? name : "RamDisk",
		      (unsigned long long)dp_rd64(AT(MEDIA_RAM_DISK_DEVICE_PATH, StartingAddr)),
		      (unsigned long long)dp_rd64(AT(MEDIA_RAM_DISK_DEVICE_PATH, EndingAddr)),
		      dp_rd16(AT(MEDIA_RAM_DISK_DEVICE_PATH, Instance)));
	if (!name) {
		dp_out_ascii(o, ",");
		dp_out_guid(o, type);
	}
	dp_out_ascii(o, ")");
	return true;
}

static bool print_bbs(struct dp_out *o, const UINT8 *n, UINTN len)
{
	static const char *const types[] = {
	    [BBS_TYPE_FLOPPY] = "Floppy", [BBS_TYPE_HARDDRIVE] = "HD",
	    [BBS_TYPE_CDROM] = "CDROM",	  [BBS_TYPE_PCMCIA] = "PCMCIA",
	    [BBS_TYPE_USB] = "USB",	  [BBS_TYPE_EMBEDDED_NETWORK] = "Network",
	};
	const UINT8 *id = n + sizeof(BBS_BBS_DEVICE_PATH);
	UINTN id_len = len - sizeof(BBS_BBS_DEVICE_PATH);
	UINT16 type;

	if (len <= sizeof(BBS_BBS_DEVICE_PATH) || !dp_cstr_exact(id, id_len) ||
	    !dp_text_arg_safe(id, id_len - 1, 1))
		return false;
	type = dp_rd16(AT(BBS_BBS_DEVICE_PATH, DeviceType));
	if (type < ARRAY_SIZE(types) && types[type])
		dp_out_printf(o, "BBS(%s,", types[type]);
	else
		dp_out_printf(o, "BBS(0x%X,", type);
	dp_out_bytes(o, id, id_len - 1);
	if (o->display_only)
		dp_out_ascii(o, ")");
	else
		dp_out_printf(o, ",0x%X)", dp_rd16(AT(BBS_BBS_DEVICE_PATH, StatusFlag)));
	return true;
}

/* clang-format off */
const struct dp_printer_entry dp_printers_media[] = {
	{MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP, print_hd},
	{MEDIA_DEVICE_PATH, MEDIA_CDROM_DP, print_cdrom},
	{MEDIA_DEVICE_PATH, MEDIA_VENDOR_DP, print_ven_media},
	{MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, print_file_path},
	{MEDIA_DEVICE_PATH, MEDIA_PROTOCOL_DP, print_guid_node},
	{MEDIA_DEVICE_PATH, MEDIA_PIWG_FW_VOL_DP, print_guid_node},
	{MEDIA_DEVICE_PATH, MEDIA_PIWG_FW_FILE_DP, print_guid_node},
	{MEDIA_DEVICE_PATH, MEDIA_RELATIVE_OFFSET_RANGE_DP, print_offset},
	{MEDIA_DEVICE_PATH, MEDIA_RAM_DISK_DP, print_ram_disk},
	{BBS_DEVICE_PATH, BBS_BBS_DP, print_bbs},
	{0, 0, NULL},
};
/* clang-format on */
