/* Parsers for media (10.6.1.7) and BIOS boot specification (10.6.1.8) text device nodes. */
#include "devpath_internal.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define MEDIA MEDIA_DEVICE_PATH

/* HD(Partition,Type,Signature,Start,Size): Type MBR (1), GPT (2, the default), or another
 * integer, which (as in EDK2) is the signature type of a disk with no signature (0). */
static bool parse_hd(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw types[] = {{"MBR", SIGNATURE_TYPE_MBR},
					     {"GPT", SIGNATURE_TYPE_GUID}};
	HARDDRIVE_DEVICE_PATH n = {0};
	UINT64 part = 0, type = SIGNATURE_TYPE_GUID, start = 0, size = 0, sig;
	EFI_GUID guid;

	if (!dp_arg_u64(a, 0, UINT32_MAX, &part) || !dp_arg_kw(a, 1, types, 2, 0xff, &type))
		return false;
	if (type == SIGNATURE_TYPE_GUID) {
		if (!dp_arg_req_guid(a, 2, &guid))
			return false;
		mem_copy(n.Signature, &guid, sizeof(guid));
		n.MBRType = MBR_TYPE_EFI_PARTITION_TABLE_HEADER;
	} else {
		if (!dp_arg_req_u64(a, 2, UINT32_MAX, &sig) || (type != SIGNATURE_TYPE_MBR && sig))
			return false;
		for (int i = 0; i < 4; i++)
			n.Signature[i] = (UINT8)(sig >> (8 * i));
		n.MBRType = type == SIGNATURE_TYPE_MBR ? MBR_TYPE_PCAT : 0;
	}
	n.SignatureType = (UINT8)type;
	/* Start and Size are required for a partition, optional for the whole disk (0). */
	if (part ? !dp_arg_req_u64(a, 3, UINT64_MAX, &start) ||
		       !dp_arg_req_u64(a, 4, UINT64_MAX, &size)
		 : !dp_arg_u64(a, 3, UINT64_MAX, &start) || !dp_arg_u64(a, 4, UINT64_MAX, &size))
		return false;
	n.PartitionNumber = (UINT32)part;
	n.PartitionStart = start;
	n.PartitionSize = size;
	dp_buf_fixed(out, &n, sizeof(n), MEDIA, MEDIA_HARDDRIVE_DP);
	return true;
}

static bool parse_cdrom(const struct dp_args *a, struct dp_buf *out)
{
	CDROM_DEVICE_PATH n = {0};
	UINT64 entry = 0, start, size;

	if (!dp_arg_u64(a, 0, UINT32_MAX, &entry) || !dp_arg_req_u64(a, 1, UINT64_MAX, &start) ||
	    !dp_arg_req_u64(a, 2, UINT64_MAX, &size))
		return false;
	n.BootEntry = (UINT32)entry;
	n.PartitionStart = start;
	n.PartitionSize = size;
	dp_buf_fixed(out, &n, sizeof(n), MEDIA, MEDIA_CDROM_DP);
	return true;
}

static bool parse_ven_media(const struct dp_args *a, struct dp_buf *out)
{
	return dp_parse_vendor(a, out, MEDIA, MEDIA_VENDOR_DP);
}

/* Media(Guid), Fv(Guid), FvFile(Guid): the subtype is in ctx. */
static bool parse_guid_node(const struct dp_args *a, struct dp_buf *out)
{
	EFI_GUID guid;

	if (!dp_arg_req_guid(a, 0, &guid))
		return false;
	dp_buf_node(out, MEDIA, (UINT8)a->ctx, &guid, sizeof(guid));
	return true;
}

static bool parse_offset(const struct dp_args *a, struct dp_buf *out)
{
	MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH n = {0};
	UINT64 start, end;

	if (!dp_arg_req_u64(a, 0, UINT64_MAX, &start) || !dp_arg_req_u64(a, 1, UINT64_MAX, &end))
		return false;
	n.StartingOffset = start;
	n.EndingOffset = end;
	dp_buf_fixed(out, &n, sizeof(n), MEDIA, MEDIA_RELATIVE_OFFSET_RANGE_DP);
	return true;
}

/* RamDisk(Start,End,Instance,TypeGuid); VirtualDisk & co. carry the GUID in the entry. */
static bool parse_ram_disk(const struct dp_args *a, struct dp_buf *out)
{
	MEDIA_RAM_DISK_DEVICE_PATH n = {0};
	UINT64 start, end, instance = 0;
	EFI_GUID type;

	if (!dp_arg_req_u64(a, 0, UINT64_MAX, &start) || !dp_arg_req_u64(a, 1, UINT64_MAX, &end) ||
	    !dp_arg_u64(a, 2, 0xffff, &instance))
		return false;
	if (a->guid)
		type = *a->guid;
	else if (!dp_arg_req_guid(a, 3, &type))
		return false;
	n.StartingAddr = start;
	n.EndingAddr = end;
	n.TypeGuid = type;
	n.Instance = (UINT16)instance;
	dp_buf_fixed(out, &n, sizeof(n), MEDIA, MEDIA_RAM_DISK_DP);
	return true;
}

/* BBS(Type,Id,Flags) */
static bool parse_bbs(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw types[] = {
	    {"Floppy", BBS_TYPE_FLOPPY}, {"HD", BBS_TYPE_HARDDRIVE},
	    {"CDROM", BBS_TYPE_CDROM},	 {"PCMCIA", BBS_TYPE_PCMCIA},
	    {"USB", BBS_TYPE_USB},	 {"Network", BBS_TYPE_EMBEDDED_NETWORK},
	};
	BBS_BBS_DEVICE_PATH n = {0};
	UINT64 type, flags = 0;
	UINTN start;

	if (!dp_arg_given(a, 0) || !dp_arg_kw(a, 0, types, ARRAY_SIZE(types), 0xffff, &type) ||
	    !dp_arg_u64(a, 2, 0xffff, &flags))
		return false;
	n.DeviceType = (UINT16)type;
	n.StatusFlag = (UINT16)flags;
	start = dp_buf_node_begin(out, BBS_DEVICE_PATH, BBS_BBS_DP);
	dp_buf_put(out, (UINT8 *)&n + sizeof(n.Header), sizeof(n) - sizeof(n.Header));
	if (!dp_buf_put_str8(out, dp_str_unquote(a->v[1]), true))
		return false;
	return dp_buf_node_end(out, start);
}

/* clang-format off */
#define RAM_DISK(name, guid) {name, "StartingAddress,EndingAddress,DiskInstance", \
			      parse_ram_disk, 0, &(guid)}

const struct dp_parser_entry dp_parsers_media[] = {
	{"HD", "Partition,Type,Signature,Start,Size", parse_hd},
	{"CDROM", "Entry,Start,Size", parse_cdrom},
	{"VenMedia", "Guid,Data", parse_ven_media},
	{"Media", "Guid", parse_guid_node, MEDIA_PROTOCOL_DP},
	{"Fv", "Guid", parse_guid_node, MEDIA_PIWG_FW_VOL_DP},
	{"FvFile", "Guid", parse_guid_node, MEDIA_PIWG_FW_FILE_DP},
	{"Offset", "StartingOffset,EndingOffset", parse_offset},
	{"RamDisk", "StartingAddress,EndingAddress,DiskInstance,DiskTypeGuid", parse_ram_disk},
	RAM_DISK("VirtualDisk", efi_virtual_disk_guid),
	RAM_DISK("VirtualCD", efi_virtual_cd_guid),
	RAM_DISK("PersistentVirtualDisk", efi_persistent_virtual_disk_guid),
	RAM_DISK("PersistentVirtualCD", efi_persistent_virtual_cd_guid),
	{"BBS", "Type,Id,Flags", parse_bbs},
	{NULL},
};
/* clang-format on */
