/* Parsers for messaging text device nodes: storage buses, USB, UART, vendor shortcuts
 * (UEFI 2.10, 10.6.1.4 - 10.6.1.6). */
#include "devpath_internal.h"
#include <ember/lib/guids.h>

#define MSG MESSAGING_DEVICE_PATH

/* A required keyword-or-integer parameter. */
static bool req_kw(const struct dp_args *a, UINTN i, const struct dp_kw *kw, UINTN n, UINT64 max,
		   UINT64 *v)
{
	return dp_arg_given(a, i) && dp_arg_kw(a, i, kw, n, max, v);
}

static bool parse_ata(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw ctrl[] = {{"Primary", 0}, {"Secondary", 1}};
	static const struct dp_kw drive[] = {{"Master", 0}, {"Slave", 1}};
	ATAPI_DEVICE_PATH n = {0};
	UINT64 c, d, lun;

	if (!req_kw(a, 0, ctrl, 2, 0xff, &c) || !req_kw(a, 1, drive, 2, 0xff, &d) ||
	    !dp_arg_req_u64(a, 2, 0xffff, &lun))
		return false;
	n.PrimarySecondary = (UINT8)c;
	n.SlaveMaster = (UINT8)d;
	n.Lun = (UINT16)lun;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_ATAPI_DP);
	return true;
}

static bool parse_scsi(const struct dp_args *a, struct dp_buf *out)
{
	SCSI_DEVICE_PATH n = {0};
	UINT64 pun, lun;

	if (!dp_arg_req_u64(a, 0, 0xffff, &pun) || !dp_arg_req_u64(a, 1, 0xffff, &lun))
		return false;
	n.Pun = (UINT16)pun;
	n.Lun = (UINT16)lun;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_SCSI_DP);
	return true;
}

static bool parse_fibre(const struct dp_args *a, struct dp_buf *out)
{
	FIBRECHANNEL_DEVICE_PATH n = {0};
	UINT64 wwn, lun;

	if (!dp_arg_req_u64(a, 0, UINT64_MAX, &wwn) || !dp_arg_req_u64(a, 1, UINT64_MAX, &lun))
		return false;
	n.WWN = wwn;
	n.Lun = lun;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_FIBRECHANNEL_DP);
	return true;
}

static bool parse_fibre_ex(const struct dp_args *a, struct dp_buf *out)
{
	FIBRECHANNELEX_DEVICE_PATH n = {0};
	UINT8 wwn[8], lun[8];

	if (!dp_arg_be8(a, 0, true, wwn) || !dp_arg_be8(a, 1, true, lun))
		return false;
	for (int i = 0; i < 8; i++)
		n.WWN[i] = wwn[i], n.Lun[i] = lun[i];
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_FIBRECHANNELEX_DP);
	return true;
}

static bool parse_1394(const struct dp_args *a, struct dp_buf *out)
{
	F1394_DEVICE_PATH n = {0};
	UINT64 guid;

	/* The EUI-64 is written as 16 hex digits without a prefix. */
	if (!dp_arg_given(a, 0) || !dp_str_hex_u64(a->v[0], &guid))
		return false;
	n.Guid = guid;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_1394_DP);
	return true;
}

static bool parse_usb(const struct dp_args *a, struct dp_buf *out)
{
	USB_DEVICE_PATH n = {0};
	UINT64 port, interface;

	if (!dp_arg_req_u64(a, 0, 0xff, &port) || !dp_arg_req_u64(a, 1, 0xff, &interface))
		return false;
	n.ParentPortNumber = (UINT8)port;
	n.InterfaceNumber = (UINT8)interface;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_USB_DP);
	return true;
}

static bool parse_i2o(const struct dp_args *a, struct dp_buf *out)
{
	I2O_DEVICE_PATH n = {0};
	UINT64 tid;

	if (!dp_arg_req_u64(a, 0, UINT32_MAX, &tid))
		return false;
	n.Tid = (UINT32)tid;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_I2O_DP);
	return true;
}

static bool parse_infiniband(const struct dp_args *a, struct dp_buf *out)
{
	INFINIBAND_DEVICE_PATH n = {0};
	UINT64 flags, service, target, device;
	EFI_GUID gid;

	if (!dp_arg_req_u64(a, 0, UINT32_MAX, &flags) || !dp_arg_req_guid(a, 1, &gid) ||
	    !dp_arg_req_u64(a, 2, UINT64_MAX, &service) ||
	    !dp_arg_req_u64(a, 3, UINT64_MAX, &target) ||
	    !dp_arg_req_u64(a, 4, UINT64_MAX, &device))
		return false;
	n.ResourceFlags = (UINT32)flags;
	for (UINTN i = 0; i < sizeof(gid); i++)
		n.PortGid[i] = ((const UINT8 *)&gid)[i];
	n.ServiceId = service;
	n.TargetPortId = target;
	n.DeviceId = device;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_INFINIBAND_DP);
	return true;
}

static bool parse_ven_msg(const struct dp_args *a, struct dp_buf *out)
{
	return dp_parse_vendor(a, out, MSG, MSG_VENDOR_DP);
}

/* VenPcAnsi(), VenVt100(), VenVt100Plus(), VenUtf8(), DebugPort(): the GUID alone. */
static bool parse_ven_fixed(const struct dp_args *a, struct dp_buf *out)
{
	VENDOR_DEVICE_PATH n = {0};

	n.Guid = *a->guid;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_VENDOR_DP);
	return true;
}

static bool parse_uart_flow(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw kw[] = {{"None", 0}, {"Hardware", 1}, {"XonXoff", 2}};
	UART_FLOW_CONTROL_DEVICE_PATH n = {0};
	UINT64 map;

	if (!req_kw(a, 0, kw, 3, UINT32_MAX, &map))
		return false;
	n.Guid = efi_device_path_messaging_uart_flow_control_guid;
	n.FlowControlMap = (UINT32)map;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_VENDOR_DP);
	return true;
}

/* SASSATA,Location,Connect,DriveBay starting at parameter i, as the topology word. */
static bool parse_topology(const struct dp_args *a, UINTN i, UINT16 *info)
{
	static const struct dp_kw location[] = {{"Internal", 0}, {"External", 1}};
	static const struct dp_kw connect[] = {{"Direct", 0}, {"Expanded", 1}};
	UINT64 loc = 0, conn = 0, bay = 0, raw;
	bool sata;

	*info = 0;
	if (!dp_arg_given(a, i) || dp_str_eq(a->v[i], "NoTopology"))
		return true;
	sata = dp_str_eq(a->v[i], "SATA");
	if (!sata && !dp_str_eq(a->v[i], "SAS")) {
		if (!dp_str_u64(a->v[i], 0xffff, &raw))
			return false;
		*info = (UINT16)raw;
		return true;
	}
	if (!dp_arg_kw(a, i + 1, location, 2, 1, &loc) ||
	    !dp_arg_kw(a, i + 2, connect, 2, 3, &conn) || !dp_arg_u64(a, i + 3, 256, &bay))
		return false;
	/* Bits 0-3: 1 = topology in this byte, 2 = also the drive bay (1-based) in the next. */
	*info = bay ? (UINT16)(2 | (bay - 1) << 8) : 1;
	*info |= (UINT16)((sata ? 0x10 : 0) | loc << 5 | conn << 6);
	return true;
}

static bool parse_sas(const struct dp_args *a, struct dp_buf *out)
{
	SAS_DEVICE_PATH n = {0};
	UINT64 address, lun = 0, rtp = 0, reserved = 0;
	UINT16 info;

	if (!dp_arg_req_u64(a, 0, UINT64_MAX, &address) || !dp_arg_u64(a, 1, UINT64_MAX, &lun) ||
	    !dp_arg_u64(a, 2, 0xffff, &rtp) || !parse_topology(a, 3, &info) ||
	    !dp_arg_u64(a, 7, UINT32_MAX, &reserved))
		return false;
	n.Guid = efi_sas_device_path_guid;
	n.Reserved = (UINT32)reserved;
	n.SasAddress = address;
	n.Lun = lun;
	n.DeviceTopology = info;
	n.RelativeTargetPort = (UINT16)rtp;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_VENDOR_DP);
	return true;
}

static bool parse_sas_ex(const struct dp_args *a, struct dp_buf *out)
{
	SASEX_DEVICE_PATH n = {0};
	UINT8 address[8], lun[8];
	UINT64 rtp = 0;
	UINT16 info;

	if (!dp_arg_be8(a, 0, true, address) || !dp_arg_be8(a, 1, false, lun) ||
	    !dp_arg_u64(a, 2, 0xffff, &rtp) || !parse_topology(a, 3, &info))
		return false;
	for (int i = 0; i < 8; i++)
		n.SasAddress[i] = address[i], n.Lun[i] = lun[i];
	n.DeviceTopology = info;
	n.RelativeTargetPort = (UINT16)rtp;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_SASEX_DP);
	return true;
}

static bool parse_uart(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw deflt[] = {{"DEFAULT", 0}};
	static const struct dp_kw parity_kw[] = {{"D", 0}, {"N", 1}, {"E", 2},
						 {"O", 3}, {"M", 4}, {"S", 5}};
	static const struct dp_kw stop_kw[] = {{"D", 0}, {"1", 1}, {"1.5", 2}, {"2", 3}};
	UART_DEVICE_PATH n = {0};
	UINT64 baud = 115200, data = 8, parity = 0, stop = 0;

	if (!dp_arg_kw(a, 0, deflt, 1, UINT64_MAX, &baud) ||
	    !dp_arg_kw(a, 1, deflt, 1, 0xff, &data) ||
	    !dp_arg_kw(a, 2, parity_kw, 6, 0xff, &parity) ||
	    !dp_arg_kw(a, 3, stop_kw, 4, 0xff, &stop))
		return false;
	n.BaudRate = baud;
	n.DataBits = (UINT8)data;
	n.Parity = (UINT8)parity;
	n.StopBits = (UINT8)stop;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_UART_DP);
	return true;
}

/* UsbClass(VID,PID,Class,SubClass,Protocol); named forms carry the class in ctx, or
 * 0x100 | subclass for the application-specific class 0xFE. */
static bool parse_usb_class(const struct dp_args *a, struct dp_buf *out)
{
	USB_CLASS_DEVICE_PATH n = {0};
	UINT64 vid = 0xffff, pid = 0xffff, cls = 0xff, sub = 0xff, proto = 0xff;
	UINTN i = 2;

	if (!dp_arg_u64(a, 0, 0xffff, &vid) || !dp_arg_u64(a, 1, 0xffff, &pid))
		return false;
	if (a->ctx >= 0x100) {
		cls = USB_CLASS_RESERVE;
		sub = a->ctx & 0xff;
	} else if (a->ctx) {
		cls = a->ctx;
	} else if (!dp_arg_u64(a, i++, 0xff, &cls)) {
		return false;
	}
	if ((a->ctx < 0x100 && !dp_arg_u64(a, i++, 0xff, &sub)) || !dp_arg_u64(a, i, 0xff, &proto))
		return false;
	n.VendorId = (UINT16)vid;
	n.ProductId = (UINT16)pid;
	n.DeviceClass = (UINT8)cls;
	n.DeviceSubClass = (UINT8)sub;
	n.DeviceProtocol = (UINT8)proto;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_USB_CLASS_DP);
	return true;
}

static bool parse_usb_wwid(const struct dp_args *a, struct dp_buf *out)
{
	USB_WWID_DEVICE_PATH n = {0};
	UINT64 vid, pid, interface;
	struct dp_str serial;
	UINTN start;

	if (!dp_arg_req_u64(a, 0, 0xffff, &vid) || !dp_arg_req_u64(a, 1, 0xffff, &pid) ||
	    !dp_arg_req_u64(a, 2, 0xffff, &interface) || !dp_arg_given(a, 3))
		return false;
	n.InterfaceNumber = (UINT16)interface;
	n.VendorId = (UINT16)vid;
	n.ProductId = (UINT16)pid;
	start = dp_buf_node_begin(out, MSG, MSG_USB_WWID_DP);
	dp_buf_put(out, (UINT8 *)&n + sizeof(n.Header), sizeof(n) - sizeof(n.Header));
	/* The serial number is UTF-16 without a terminator. */
	serial = dp_str_unquote(a->v[3]);
	dp_buf_put(out, serial.s, serial.n * sizeof(CHAR16));
	return dp_buf_node_end(out, start);
}

static bool parse_unit(const struct dp_args *a, struct dp_buf *out)
{
	DEVICE_LOGICAL_UNIT_DEVICE_PATH n = {0};
	UINT64 lun;

	if (!dp_arg_req_u64(a, 0, 0xff, &lun))
		return false;
	n.Lun = (UINT8)lun;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_DEVICE_LOGICAL_UNIT_DP);
	return true;
}

static bool parse_sata(const struct dp_args *a, struct dp_buf *out)
{
	SATA_DEVICE_PATH n = {0};
	UINT64 hba, pm = 0xffff, lun;

	if (!dp_arg_req_u64(a, 0, 0xffff, &hba) || !dp_arg_u64(a, 1, 0xffff, &pm) ||
	    !dp_arg_req_u64(a, 2, 0xffff, &lun))
		return false;
	n.HBAPortNumber = (UINT16)hba;
	n.PortMultiplierPortNumber = (UINT16)pm;
	n.Lun = (UINT16)lun;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_SATA_DP);
	return true;
}

/* The EUI-64 as eight dash-separated hex bytes, byte 7 first. */
static bool parse_eui64(struct dp_str s, UINT8 eui[8])
{
	for (int i = 7; i >= 0; i--) {
		UINTN k = 0;
		UINT64 v;

		while (k < s.n && s.s[k] != '-')
			k++;
		if (k < 1 || k > 2 || !dp_str_hex_u64((struct dp_str){s.s, k}, &v))
			return false;
		eui[i] = (UINT8)v;
		if (i && (k == s.n))
			return false;
		k = i ? k + 1 : k;
		s.s += k;
		s.n -= k;
	}
	return s.n == 0;
}

static bool parse_nvme(const struct dp_args *a, struct dp_buf *out)
{
	NVME_NAMESPACE_DEVICE_PATH n = {0};
	UINT8 eui[8];
	UINT64 nsid, value = 0;

	if (!dp_arg_req_u64(a, 0, UINT32_MAX, &nsid) || !dp_arg_given(a, 1) ||
	    !parse_eui64(a->v[1], eui))
		return false;
	for (int i = 7; i >= 0; i--)
		value = value << 8 | eui[i];
	n.NamespaceId = (UINT32)nsid;
	n.NamespaceUuid = value;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_NVME_NAMESPACE_DP);
	return true;
}

static bool parse_ufs(const struct dp_args *a, struct dp_buf *out)
{
	UFS_DEVICE_PATH n = {0};
	UINT64 pun, lun;

	if (!dp_arg_req_u64(a, 0, 0xff, &pun) || !dp_arg_req_u64(a, 1, 0xff, &lun))
		return false;
	n.Pun = (UINT8)pun;
	n.Lun = (UINT8)lun;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_UFS_DP);
	return true;
}

/* SD(SlotNumber) and eMMC(SlotNumber): the subtype is in ctx. */
static bool parse_slot(const struct dp_args *a, struct dp_buf *out)
{
	SD_DEVICE_PATH n = {0};
	UINT64 slot = 0;

	if (!dp_arg_u64(a, 0, 0xff, &slot))
		return false;
	n.SlotNumber = (UINT8)slot;
	dp_buf_fixed(out, &n, sizeof(n), MSG, (UINT8)a->ctx);
	return true;
}

/* clang-format off */
#define USB_NAMED(name, cls) {name, "VID,PID,SubClass,Protocol", parse_usb_class, cls}
#define USB_RESERVED(name, sub) {name, "VID,PID,Protocol", parse_usb_class, 0x100 | (sub)}

const struct dp_parser_entry dp_parsers_msg[] = {
	{"Ata", "Controller,Drive,LUN", parse_ata},
	{"Scsi", "PUN,LUN", parse_scsi},
	{"Fibre", "WWN,LUN", parse_fibre},
	{"FibreEx", "WWN,LUN", parse_fibre_ex},
	{"I1394", "GUID", parse_1394},
	{"USB", "Port,Interface", parse_usb},
	{"I2O", "TID", parse_i2o},
	{"Infiniband", "Flags,Guid,ServiceId,TargetId,DeviceId", parse_infiniband},
	{"VenMsg", "Guid,Data", parse_ven_msg},
	{"VenPcAnsi", "", parse_ven_fixed, 0, &efi_pc_ansi_guid},
	{"VenVt100", "", parse_ven_fixed, 0, &efi_vt_100_guid},
	{"VenVt100Plus", "", parse_ven_fixed, 0, &efi_vt_100_plus_guid},
	{"VenUtf8", "", parse_ven_fixed, 0, &efi_vt_utf8_guid},
	{"DebugPort", "", parse_ven_fixed, 0, &efi_debugport_protocol_guid},
	{"UartFlowCtrl", "Value", parse_uart_flow},
	{"SAS", "Address,LUN,RTP,SASSATA,Location,Connect,DriveBay,Reserved", parse_sas},
	{"SasEx", "Address,LUN,RTP,SASSATA,Location,Connect,DriveBay", parse_sas_ex},
	{"Uart", "Baud,DataBits,Parity,StopBits", parse_uart},
	{"UsbClass", "VID,PID,Class,SubClass,Protocol", parse_usb_class},
	USB_NAMED("UsbAudio", USB_CLASS_AUDIO),
	USB_NAMED("UsbCDCControl", USB_CLASS_CDCCONTROL),
	USB_NAMED("UsbHID", USB_CLASS_HID),
	USB_NAMED("UsbImage", USB_CLASS_IMAGE),
	USB_NAMED("UsbPrinter", USB_CLASS_PRINTER),
	USB_NAMED("UsbMassStorage", USB_CLASS_MASS_STORAGE),
	USB_NAMED("UsbHub", USB_CLASS_HUB),
	USB_NAMED("UsbCDCData", USB_CLASS_CDCDATA),
	USB_NAMED("UsbSmartCard", USB_CLASS_SMART_CARD),
	USB_NAMED("UsbVideo", USB_CLASS_VIDEO),
	USB_NAMED("UsbDiagnostic", USB_CLASS_DIAGNOSTIC),
	USB_NAMED("UsbWireless", USB_CLASS_WIRELESS),
	USB_RESERVED("UsbDeviceFirmwareUpdate", USB_SUBCLASS_FW_UPDATE),
	USB_RESERVED("UsbIrdaBridge", USB_SUBCLASS_IRDA_BRIDGE),
	USB_RESERVED("UsbTestAndMeasurement", USB_SUBCLASS_TEST),
	{"UsbWwid", "VID,PID,InterfaceNumber,WWID", parse_usb_wwid},
	{"Unit", "LUN", parse_unit},
	{"Sata", "HPN,PMPN,LUN", parse_sata},
	{"NVMe", "NSID,EUI", parse_nvme},
	{"UFS", "PUN,LUN", parse_ufs},
	{"SD", "SlotNumber", parse_slot, MSG_SD_DP},
	{"eMMC", "SlotNumber", parse_slot, MSG_EMMC_DP},
	{NULL},
};
/* clang-format on */
