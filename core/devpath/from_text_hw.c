/* Parsers for generic, hardware (10.6.1.2) and ACPI (10.6.1.3) text device nodes. */
#include "devpath_internal.h"

/* Path(type,subtype,data), or HardwarePath/AcpiPath/Msg/MediaPath/BbsPath(subtype,data) with
 * the type in ctx. */
static bool parse_generic(const struct dp_args *a, struct dp_buf *out)
{
	UINT64 type = a->ctx, subtype;
	UINTN i = 0, start;

	if (!type) {
		if (!dp_arg_req_u64(a, 0, 0xff, &type))
			return false;
		i = 1;
	}
	if (!dp_arg_req_u64(a, i, 0xff, &subtype))
		return false;
	/* Ends of instances and paths come from the text's separators, never from Path(). */
	if (type == END_DEVICE_PATH_TYPE && (subtype == END_INSTANCE_DEVICE_PATH_SUBTYPE ||
					     subtype == END_ENTIRE_DEVICE_PATH_SUBTYPE))
		return false;
	start = dp_buf_node_begin(out, (UINT8)type, (UINT8)subtype);
	if (dp_arg_given(a, i + 1) && !dp_buf_put_hexdump(out, a->v[i + 1]))
		return false;
	return dp_buf_node_end(out, start);
}

static bool parse_pci(const struct dp_args *a, struct dp_buf *out)
{
	PCI_DEVICE_PATH n = {0};
	UINT64 device, function;

	if (!dp_arg_req_u64(a, 0, 0xff, &device) || !dp_arg_req_u64(a, 1, 0xff, &function))
		return false;
	n.Device = (UINT8)device;
	n.Function = (UINT8)function;
	dp_buf_fixed(out, &n, sizeof(n), HARDWARE_DEVICE_PATH, HW_PCI_DP);
	return true;
}

static bool parse_pccard(const struct dp_args *a, struct dp_buf *out)
{
	PCCARD_DEVICE_PATH n = {0};
	UINT64 function;

	if (!dp_arg_req_u64(a, 0, 0xff, &function))
		return false;
	n.FunctionNumber = (UINT8)function;
	dp_buf_fixed(out, &n, sizeof(n), HARDWARE_DEVICE_PATH, HW_PCCARD_DP);
	return true;
}

static bool parse_memmap(const struct dp_args *a, struct dp_buf *out)
{
	MEMMAP_DEVICE_PATH n = {0};
	UINT64 type, start, end;

	if (!dp_arg_req_u64(a, 0, UINT32_MAX, &type) || !dp_arg_req_u64(a, 1, UINT64_MAX, &start) ||
	    !dp_arg_req_u64(a, 2, UINT64_MAX, &end))
		return false;
	n.MemoryType = (UINT32)type;
	n.StartingAddress = start;
	n.EndingAddress = end;
	dp_buf_fixed(out, &n, sizeof(n), HARDWARE_DEVICE_PATH, HW_MEMMAP_DP);
	return true;
}

static bool parse_ven_hw(const struct dp_args *a, struct dp_buf *out)
{
	return dp_parse_vendor(a, out, HARDWARE_DEVICE_PATH, HW_VENDOR_DP);
}

static bool parse_ctrl(const struct dp_args *a, struct dp_buf *out)
{
	CONTROLLER_DEVICE_PATH n = {0};
	UINT64 number;

	if (!dp_arg_req_u64(a, 0, UINT32_MAX, &number))
		return false;
	n.ControllerNumber = (UINT32)number;
	dp_buf_fixed(out, &n, sizeof(n), HARDWARE_DEVICE_PATH, HW_CONTROLLER_DP);
	return true;
}

static bool parse_bmc(const struct dp_args *a, struct dp_buf *out)
{
	BMC_DEVICE_PATH n = {0};
	UINT64 type, address;

	if (!dp_arg_req_u64(a, 0, 0xff, &type) || !dp_arg_req_u64(a, 1, UINT64_MAX, &address))
		return false;
	n.InterfaceType = (UINT8)type;
	n.BaseAddress = address;
	dp_buf_fixed(out, &n, sizeof(n), HARDWARE_DEVICE_PATH, HW_BMC_DP);
	return true;
}

static void put_acpi(struct dp_buf *out, UINT32 hid, UINT32 uid)
{
	ACPI_HID_DEVICE_PATH n = {0};

	n.HID = hid;
	n.UID = uid;
	dp_buf_fixed(out, &n, sizeof(n), ACPI_DEVICE_PATH, ACPI_DP);
}

static bool parse_acpi(const struct dp_args *a, struct dp_buf *out)
{
	UINT32 hid;
	UINT64 uid = 0;

	if (!dp_arg_given(a, 0) || !dp_str_eisa(a->v[0], &hid) ||
	    !dp_arg_u64(a, 1, UINT32_MAX, &uid))
		return false;
	put_acpi(out, hid, (UINT32)uid);
	return true;
}

/* PciRoot(UID), PcieRoot, Floppy, Keyboard, Serial, ParallelPort: the HID is in ctx. */
static bool parse_acpi_named(const struct dp_args *a, struct dp_buf *out)
{
	UINT64 uid = 0;

	if (!dp_arg_u64(a, 0, UINT32_MAX, &uid))
		return false;
	put_acpi(out, (UINT32)a->ctx, (UINT32)uid);
	return true;
}

static bool put_acpi_ex(struct dp_buf *out, UINT32 hid, UINT32 uid, UINT32 cid,
			const struct dp_str str[3])
{
	ACPI_EXTENDED_HID_DEVICE_PATH n = {0};
	UINTN start = dp_buf_node_begin(out, ACPI_DEVICE_PATH, ACPI_EXTENDED_DP);

	n.HID = hid;
	n.UID = uid;
	n.CID = cid;
	dp_buf_put(out, (UINT8 *)&n + sizeof(n.Header), sizeof(n) - sizeof(n.Header));
	/* Binary order HIDSTR, UIDSTR, CIDSTR (10.3.3). */
	for (int i = 0; i < 3; i++)
		if (!dp_buf_put_str8(out, dp_str_unquote(str[i]), true))
			return false;
	return dp_buf_node_end(out, start);
}

/* HID or CID of AcpiEx: an EISA ID, else (display form) the text of its string field. */
static bool ex_id(const struct dp_args *a, UINTN i, UINTN str_i, UINT32 *id, struct dp_str *str)
{
	if (!dp_arg_given(a, i) || dp_str_eisa(a->v[i], id))
		return true;
	if (dp_arg_given(a, str_i))
		return false;
	*str = a->v[i];
	return true;
}

/* AcpiEx(HID,CID,UID,HIDSTR,CIDSTR,UIDSTR) */
static bool parse_acpi_ex(const struct dp_args *a, struct dp_buf *out)
{
	struct dp_str str[3] = {a->v[3], a->v[5], a->v[4]}; /* HIDSTR, UIDSTR, CIDSTR */
	UINT32 hid = 0, cid = 0;
	UINT64 uid = 0;

	if (!ex_id(a, 0, 3, &hid, &str[0]) || !ex_id(a, 1, 4, &cid, &str[2]))
		return false;
	if (dp_arg_given(a, 2) && !dp_str_u64(a->v[2], UINT32_MAX, &uid)) {
		if (dp_arg_given(a, 5))
			return false;
		str[1] = a->v[2];
	}
	return put_acpi_ex(out, hid, (UINT32)uid, cid, str);
}

/* AcpiExp(HID,CID,UIDSTR) */
static bool parse_acpi_exp(const struct dp_args *a, struct dp_buf *out)
{
	struct dp_str str[3] = {{0}, a->v[2], {0}};
	UINT32 hid, cid = 0;

	if (!dp_arg_given(a, 0) || !dp_str_eisa(a->v[0], &hid))
		return false;
	if (dp_arg_given(a, 1) && !dp_str_eisa(a->v[1], &cid))
		return false;
	return put_acpi_ex(out, hid, 0, cid, str);
}

/* AcpiAdr(DisplayDevice[,DisplayDevice...]) */
static bool parse_acpi_adr(const struct dp_args *a, struct dp_buf *out)
{
	struct dp_str rest = a->raw, piece;
	bool more = rest.n > 0;
	UINTN start = dp_buf_node_begin(out, ACPI_DEVICE_PATH, ACPI_ADR_DP), count = 0;

	while (dp_next_piece(&rest, &piece, &more)) {
		UINT64 adr;
		UINT32 value;

		if (!dp_str_u64(dp_str_trim(piece), UINT32_MAX, &adr))
			return false;
		value = (UINT32)adr;
		dp_buf_put(out, &value, sizeof(value));
		count++;
	}
	return count && dp_buf_node_end(out, start);
}

static bool parse_nvdimm(const struct dp_args *a, struct dp_buf *out)
{
	NVDIMM_DEVICE_PATH n = {0};
	UINT64 handle;

	if (!dp_arg_req_u64(a, 0, UINT32_MAX, &handle))
		return false;
	n.NFITDeviceHandle = (UINT32)handle;
	dp_buf_fixed(out, &n, sizeof(n), ACPI_DEVICE_PATH, ACPI_NVDIMM_DP);
	return true;
}

/* clang-format off */
const struct dp_parser_entry dp_parsers_hw[] = {
	{"Path", "Type,SubType,Data", parse_generic, 0},
	{"HardwarePath", "SubType,Data", parse_generic, HARDWARE_DEVICE_PATH},
	{"AcpiPath", "SubType,Data", parse_generic, ACPI_DEVICE_PATH},
	{"Msg", "SubType,Data", parse_generic, MESSAGING_DEVICE_PATH},
	{"MediaPath", "SubType,Data", parse_generic, MEDIA_DEVICE_PATH},
	{"BbsPath", "SubType,Data", parse_generic, BBS_DEVICE_PATH},
	{"Pci", "Device,Function", parse_pci},
	{"PcCard", "Function", parse_pccard},
	{"MemoryMapped", "EfiMemoryType,StartingAddress,EndingAddress", parse_memmap},
	{"VenHw", "Guid,Data", parse_ven_hw},
	{"Ctrl", "Controller", parse_ctrl},
	{"BMC", "Type,Address", parse_bmc},
	{"Acpi", "HID,UID", parse_acpi},
	{"PciRoot", "UID", parse_acpi_named, EFI_PNP_ID(0x0a03)},
	{"PcieRoot", "UID", parse_acpi_named, EFI_PNP_ID(0x0a08)},
	{"Floppy", "UID", parse_acpi_named, EFI_PNP_ID(0x0604)},
	{"Keyboard", "UID", parse_acpi_named, EFI_PNP_ID(0x0301)},
	{"Serial", "UID", parse_acpi_named, EFI_PNP_ID(0x0501)},
	{"ParallelPort", "UID", parse_acpi_named, EFI_PNP_ID(0x0401)},
	{"AcpiEx", "HID,CID,UID,HIDSTR,CIDSTR,UIDSTR", parse_acpi_ex},
	{"AcpiExp", "HID,CID,UIDSTR", parse_acpi_exp},
	{"AcpiAdr", "", parse_acpi_adr, 0, NULL, DP_PARSE_RAW},
	{"NVDIMM", "Handle", parse_nvdimm},
	{NULL},
};
/* clang-format on */
